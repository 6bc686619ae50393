// Compresses answers of a known length over a threshold (JSON results, GraphiQL's page) with br or
// gzip, for a client whose Accept-Encoding takes one. Streams (@defer's multipart/mixed and
// text/event-stream) go out as they are: a compressor holds a part back until it has enough bytes,
// so the first part would wait for the last. docs/decisions/compression.md says why this is not
// @whatwg-node/server's useContentEncoding.
//
// An answer of the response cache (it carries the cache's ETag and Last-Modified) is compressed
// once per encoding: its data's encoded form is kept, and each answer appends its own extensions
// to it uncompressed (compression-codec.ts), so a thousand hits on one answer cost one compression.
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { COMPRESSION_WAITING_BYTES, KEPT_ENCODING_OVERHEAD_BYTES } from '../tunables.js';
import { closeEncoding, encodeOpen, type Encoding, type OpenEncoding } from './compression-codec.js';

/** The answers worth compressing: JSON and HTML. A streamed type is never among them. */
const COMPRESSIBLE_TYPE = /^\s*(application\/(?:graphql-response\+)?json|text\/html)\b/i;

/** Where an answer's own part begins: its extensions (extensions.cost), after the data it shares with every hit. */
const OWN_PART = ',"extensions":';

/**
 * The encoding to send for this Accept-Encoding: of br and gzip, the one it weighs highest (q above
 * 0, by name or by `*`), br on a tie; null for neither.
 */
export function chosenEncoding(acceptEncoding: string | null): Encoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const entry of acceptEncoding.split(',')) {
    const [name, ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (encoding: Encoding) => weights.get(encoding) ?? weights.get('*') ?? 0;
  const best = weightOf('gzip') > weightOf('br') ? 'gzip' : 'br';
  return weightOf(best) > 0 ? best : null;
}

export interface AnswerCompressionOptions {
  minBytes: number;
  /**
   * The bytes the encoded forms of cached answers may take (a share of RESPONSE_CACHE_MAX_BYTES),
   * least recently used dropped first; 0 keeps none (no response cache).
   */
  keptBytes: number;
  /** How long a kept encoding may serve: the cache's TTL, past which its answer is read again. */
  keptMs: number;
  /** Told of each compression started, by encoding. */
  onCompression?: (encoding: Encoding) => void;
}

export function useAnswerCompression<TContext extends object>({ minBytes, keptBytes, keptMs, onCompression = () => {} }: AnswerCompressionOptions): Plugin<TContext> {
  const kept = keptBytes > 0 ? new LRUCache<string, OpenEncoding>({ maxSize: keptBytes, ttl: Math.max(1, keptMs) }) : null;
  // The encodings of cached answers being made, which hits wait for while the bodies waiting hold
  // at most COMPRESSION_WAITING_BYTES; past that a hit goes out as it is, rather than hold its
  // whole body meanwhile (a thousand hits of a megabyte each would hold a gigabyte).
  const underWay = new Map<string, Promise<OpenEncoding>>();
  let waitingBytes = 0;

  /** The encoded form of a cached answer's shared part, kept or made now; null to send the answer as it is. */
  const sharedEncoding = async (key: string, encoding: Encoding, text: string, split: number): Promise<OpenEncoding | null> => {
    const found = kept!.get(key);
    if (found) return found;
    let making = underWay.get(key);
    if (!making) {
      const started = encodeOpen(encoding, Buffer.from(text.slice(0, split)), { once: true, onCompression });
      if (!started) return null;
      making = started.then((open) => {
        kept!.set(key, open, { size: open.bytes.length + KEPT_ENCODING_OVERHEAD_BYTES });
        return open;
      });
      underWay.set(key, making);
      void making.finally(() => underWay.delete(key)).catch(() => {});
    }
    // A string's length, not its bytes: counting them would read it once more.
    if (waitingBytes + text.length > COMPRESSION_WAITING_BYTES) return null;
    waitingBytes += text.length;
    try {
      return await making;
    } finally {
      waitingBytes -= text.length;
    }
  };

  /** The answer's body in `encoding`, or null to send it as it is. */
  const encodedBody = async (response: Response, encoding: Encoding): Promise<Buffer<ArrayBuffer> | null> => {
    const etag = response.headers.get('etag');
    const lastModified = response.headers.get('last-modified');
    if (kept && etag && lastModified && !etag.startsWith('W/')) {
      // An answer of the cache: its data is the cached one, byte for byte, as long as the entry
      // (its key, the ETag, and when it was stored) is the same, and so is the data's length.
      const text = await response.text();
      const ownAt = text.lastIndexOf(OWN_PART);
      const split = ownAt === -1 ? text.length : ownAt;
      const key = `${encoding} ${etag} ${lastModified} ${split}`;
      const open = await sharedEncoding(key, encoding, text, split);
      return open && closeEncoding(open, Buffer.from(text.slice(split)));
    }
    const body = Buffer.from(await response.arrayBuffer());
    const open = await encodeOpen(encoding, body, { once: false, onCompression });
    return open && closeEncoding(open, Buffer.alloc(0));
  };

  return {
    // Not async: most answers leave at the first check, without a promise to wait for.
    onResponse({ request, response, setResponse, fetchAPI }) {
      // A declared length, not `response.body`: reading the body of an answer made from a string
      // builds a stream over a copy of it, for an answer that mostly leaves uncompressed.
      const length = Number(response.headers.get('content-length') ?? Number.NaN);
      if (!(length >= minBytes) || response.headers.has('content-encoding')) return;
      if (!COMPRESSIBLE_TYPE.test(response.headers.get('content-type') ?? '')) return;
      // Over the threshold, the answer's encoding depends on the request's Accept-Encoding: caches
      // must know, whether or not this answer has a body (a HEAD's carries GET's fields).
      response.headers.append('vary', 'Accept-Encoding');
      const encoding = chosenEncoding(request.headers.get('accept-encoding'));
      // A HEAD's answer has no body to compress (reading `response.body` to find out would copy it).
      if (!encoding || request.method === 'HEAD') return;
      return encodedBody(response, encoding).then((body) => {
        // No compression could start: the answer goes out as it is.
        if (body) setResponse(compressedResponse(fetchAPI, response, encoding, body));
      });
    },
  };
}

/** The answer with its body in `encoding`, and the fields that describe that body. */
function compressedResponse(fetchAPI: { Headers: typeof Headers; Response: typeof Response }, response: Response, encoding: Encoding, body: Buffer<ArrayBuffer>): Response {
  const headers = new fetchAPI.Headers(response.headers);
  headers.set('content-encoding', encoding);
  headers.set('content-length', String(body.length));
  // A strong validator names one byte sequence; the compressed one is another (RFC 9110 8.8.1).
  const etag = headers.get('etag');
  if (etag && !etag.startsWith('W/')) headers.set('etag', `W/${etag}`);
  return new fetchAPI.Response(body, { status: response.status, statusText: response.statusText, headers });
}
