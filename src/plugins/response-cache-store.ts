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

/**
 * Each answer is weighed by its JSON as the client gets it (data alone), and kept as that JSON
 * parsed again: the plugin hands over its objects with its metadata fields deleted, which leaves
 * V8 holding each of them as a dictionary, and Yoga serialises every hit of it at a dictionary's
 * pace (docs/decisions/library-departures.md). Entities are ignored: nothing is invalidated (see
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
      const stored: CachedResult = { ...result, data };
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
