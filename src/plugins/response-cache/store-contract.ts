// What the response cache needs of a store (in-process-store.ts, redis-store.ts): envelop's Cache,
// and the answer kept past its TTL that an outage may serve (stale-if-error.ts).
import type { Cache } from '@graphql-yoga/plugin-response-cache';

/** An answer kept past its TTL, and how old it is. */
export interface StaleAnswer {
  data: CachedResult['data'];
  /** Milliseconds since the answer was stored. */
  ageMs: number;
}

/** What the cache plugin needs of a store, and the stale answer an outage may serve. */
export interface ResponseStore extends Cache {
  /** The answer of this key kept past its TTL and still within the stale-if-error window. */
  staleIfError(id: string): Promise<StaleAnswer | undefined> | StaleAnswer | undefined;
}

/** An answer as the response-cache plugin hands it to its store. */
export type CachedResult = Parameters<Cache['set']>[1];

/** An answer as the store hands it back: with the text Yoga writes for it (`servedAs`). */
export type StoredResult = CachedResult & { stringify: (value: unknown) => string };
