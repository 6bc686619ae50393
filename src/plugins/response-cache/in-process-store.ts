// The response cache's in-process store, bounded by the heap its entries take rather than by a
// count of answers: one largest read is near a megabyte, while a made-up credential can fill a count
// with answers of a few bytes each. lru-cache (what envelop's own in-memory cache is built on) does
// the bounding; answers are kept past their TTL for the stale-if-error window, within the same budget.
import { LRUCache } from 'lru-cache';
import type { CachedResult, ResponseStore, StoredResult } from './store-contract.js';

interface InProcessStoreOptions {
  /** The most the store holds, in bytes of heap its entries are weighed at (entryHeapBytes); least recently used dropped first. */
  maxBytes: number;
  /** An answer whose JSON is larger than this is not stored at all. */
  maxEntryBytes: number;
  /** How long past its TTL an answer is kept for staleIfError; 0 drops it at its TTL. */
  staleIfErrorMs?: number;
}

export interface InProcessStore extends ResponseStore {
  /** The bytes of heap its entries are weighed at now (never above maxBytes), for the metrics. */
  readonly bytes: number;
  readonly entries: number;
  /** The budget: maxBytes. */
  readonly maxBytes: number;
}

/**
 * The heap one entry holds beside its JSON: its key (a 64-character hash), lru-cache's slots for it,
 * the entry record, and the parsed form of the smallest answer. Rounded up from what
 * test/bench/cache-heap.ts measures for a store full of `{ __typename }` answers, and from what the
 * service holds per such answer (test/integration/response-cache-heap.test.ts), where lru-cache's
 * arrays grow ahead of the entries.
 */
export const ENTRY_HEAP_BYTES = 384;
/**
 * Heap per byte of an answer's JSON: the text and its parsed data. Rounded up from what
 * test/bench/cache-heap.ts measures for stores full of pages of scenarios (a) and (c).
 */
export const HEAP_PER_JSON_BYTE = 3.5;

/** The heap an entry of this much JSON is weighed at against RESPONSE_CACHE_MAX_BYTES. */
export function entryHeapBytes(jsonBytes: number): number {
  return ENTRY_HEAP_BYTES + Math.ceil(HEAP_PER_JSON_BYTE * jsonBytes);
}

/** One stored answer: its JSON as the client gets it, that JSON parsed again, and when it was stored. */
interface Entry {
  text: string;
  data: CachedResult['data'];
  storedAt: number;
  freshUntil: number;
}

/**
 * Each answer is kept as its JSON as the client gets it (data alone) and that JSON parsed again:
 * the text is what Yoga writes for a hit, and the parsed data serves the hits Yoga serialises
 * itself (with development's metadata, or changed by a plugin). The plugin hands over its objects
 * with its metadata fields deleted, which V8 holds as dictionaries, serialised at a dictionary's
 * pace (docs/decisions/library-departures.md). The ETag (the key) and Last-Modified are made again
 * on each hit rather than kept per entry. Entities are ignored: nothing is invalidated (see
 * store.ts).
 */
export function createInProcessStore({ maxBytes, maxEntryBytes, staleIfErrorMs = 0 }: InProcessStoreOptions): InProcessStore {
  const answers = new LRUCache<string, Entry>({ maxSize: maxBytes });
  const httpDateOf = httpDates();
  return {
    get(id) {
      const entry = answers.get(id);
      if (entry === undefined || Date.now() >= entry.freshUntil) return undefined;
      return storedResult(id, entry, httpDateOf(entry.storedAt));
    },
    set(id, result, _entities, ttl) {
      const text = JSON.stringify({ data: result.data });
      const size = Buffer.byteLength(text);
      // Over the cap: written to this client once, never stored.
      if (size > maxEntryBytes) return;
      const { data } = JSON.parse(text) as Pick<CachedResult, 'data'>;
      const storedAt = Date.now();
      const finite = Number.isFinite(ttl) && ttl > 0;
      const entry: Entry = { text, data, storedAt, freshUntil: finite ? storedAt + ttl : Number.POSITIVE_INFINITY };
      answers.set(id, entry, { size: entryHeapBytes(size), ttl: finite ? ttl + staleIfErrorMs : undefined });
    },
    invalidate: () => undefined,
    staleIfError(id) {
      const entry = answers.peek(id);
      if (entry === undefined) return undefined;
      const ageMs = Date.now() - entry.storedAt;
      return ageMs <= entry.freshUntil - entry.storedAt + staleIfErrorMs ? { data: entry.data, ageMs } : undefined;
    },
    get bytes() {
      return answers.calculatedSize;
    },
    get entries() {
      return answers.size;
    },
    maxBytes,
  };
}

/** The answer Yoga gets for a hit: the stored data, its text, and the headers the plugin gave it when it was cached. */
function storedResult(id: string, { text, data }: Entry, lastModified: string): StoredResult {
  return {
    data,
    extensions: { http: { headers: { ETag: id, 'Last-Modified': lastModified } } },
    stringify: servedAs(text, data),
  };
}

/**
 * `new Date(at).toUTCString()`, kept for the last second it was asked for: hits on one answer, or on
 * answers stored in the same second, take the text again rather than format a date each (an HTTP
 * date has whole seconds). One per store, not one per entry, whose heap the budget weighs.
 */
function httpDates(): (at: number) => string {
  let second = Number.NaN;
  let text = '';
  return (at) => {
    const atSecond = Math.floor(at / 1000);
    if (atSecond !== second) {
      second = atSecond;
      text = new Date(at).toUTCString();
    }
    return text;
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
