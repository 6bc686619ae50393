// The response cache's in-process store, bounded by the bytes of what it holds rather than by a
// count of answers: one largest read is near a megabyte, so a count lets a few hundred of them
// take the heap. lru-cache (what envelop's own in-memory cache is built on) does the bounding.
import type { Cache } from '@graphql-yoga/plugin-response-cache';
import { LRUCache } from 'lru-cache';

export interface InProcessStoreOptions {
  /** The most the store holds, in bytes of its answers' JSON; least recently used dropped first. */
  maxBytes: number;
  /** An answer larger than this is not stored at all. */
  maxEntryBytes: number;
}

export interface InProcessStore extends Cache {
  /** The bytes of JSON it holds now (never above maxBytes), for the metrics. */
  readonly bytes: number;
  readonly entries: number;
}

/** An answer as the response-cache plugin hands it to its store. */
export type CachedResult = Parameters<Cache['set']>[1];

/** An answer as the store keeps it: with the text Yoga writes for it (`servedAs`). */
export type StoredResult = CachedResult & { stringify: (value: unknown) => string };

/**
 * Each answer is weighed by its JSON as the client gets it (data alone). That JSON is what Yoga
 * writes for a hit, and the answer is kept as it parsed again, for the hits Yoga serialises itself
 * (with development's metadata, or changed by a plugin): the plugin hands over its objects with its
 * metadata fields deleted, which V8 holds as dictionaries, serialised at a dictionary's pace
 * (docs/decisions/library-departures.md). Entities are ignored: nothing is invalidated (see
 * response-cache.ts).
 */
export function createInProcessStore({ maxBytes, maxEntryBytes }: InProcessStoreOptions): InProcessStore {
  const answers = new LRUCache<string, CachedResult>({ maxSize: maxBytes });
  return {
    get: (id) => answers.get(id),
    set(id, result, _entities, ttl) {
      const text = JSON.stringify({ data: result.data });
      const size = Buffer.byteLength(text);
      // Over the cap: written to this client once, never stored.
      if (size > maxEntryBytes) return;
      const { data } = JSON.parse(text) as Pick<CachedResult, 'data'>;
      const stored: StoredResult = { ...result, data, stringify: servedAs(text, data) };
      answers.set(id, stored, { size, ttl: Number.isFinite(ttl) && ttl > 0 ? ttl : undefined });
    },
    invalidate: () => undefined,
    get bytes() {
      return answers.calculatedSize;
    },
    get entries() {
      return answers.size;
    },
  };
}

/**
 * What Yoga writes for an answer in place of `JSON.stringify` (its result processor uses a result's
 * own `stringify`): the text the store already made, as long as the answer about to be written is
 * still the stored data and nothing beside it; anything a plugin changed or added is serialised as
 * usual.
 */
function servedAs(text: string, data: CachedResult['data']): (value: unknown) => string {
  return (value) => {
    const { data: served, errors, extensions } = value as Partial<CachedResult>;
    return served === data && errors === undefined && extensions === undefined ? text : JSON.stringify(value);
  };
}
