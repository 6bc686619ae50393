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
 * Each answer is weighed by its JSON as the client gets it (data alone); Yoga serialises every hit
 * as usual. Entities are ignored: nothing is invalidated (see response-cache.ts).
 */
export function createInProcessStore({ maxBytes, maxEntryBytes }: InProcessStoreOptions): InProcessStore {
  const answers = new LRUCache<string, CachedResult>({ maxSize: maxBytes });
  return {
    get: (id) => answers.get(id),
    set(id, result, _entities, ttl) {
      const size = answerBytes(result);
      // Over the cap: written to this client once, never stored.
      if (size > maxEntryBytes) return;
      answers.set(id, result, { size, ttl: Number.isFinite(ttl) && ttl > 0 ? ttl : undefined });
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

/** The JSON bytes of a result's data, as a client without cache metadata gets it. */
function answerBytes(result: CachedResult): number {
  return Buffer.byteLength(JSON.stringify({ data: result.data }));
}
