// Compresses answers of a known length over a threshold (JSON results, GraphiQL's page) with br or
// gzip, for a client whose Accept-Encoding takes one. Streams (@defer's multipart/mixed and
// text/event-stream) go out as they are: a compressor holds a part back until it has enough bytes,
// so the first part would wait for the last. docs/decisions/compression.md says why this is not
// @whatwg-node/server's useContentEncoding.
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'graphql-yoga';

/** Brotli's default quality (11) is for static files; 4 compresses a dynamic answer about as fast as gzip does, and smaller. */
const BROTLI_QUALITY = 4;

// zlib's callback API, run on libuv's thread pool; wrapped once, not for each answer.
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const compressors = {
  br: (body: Buffer) =>
    brotliAsync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body: Buffer) => gzipAsync(body),
};
type Encoding = keyof typeof compressors;

/** The answers worth compressing: JSON and HTML. A streamed type is never among them. */
const COMPRESSIBLE_TYPE = /^\s*(application\/(?:graphql-response\+)?json|text\/html)\b/i;

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

export function useAnswerCompression<TContext extends object>({ minBytes }: { minBytes: number }): Plugin<TContext> {
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
      if (!encoding || !response.body) return;
      return (async () => {
        const body = await compressors[encoding](Buffer.from(await response.arrayBuffer()));
        const headers = new fetchAPI.Headers(response.headers);
        headers.set('content-encoding', encoding);
        headers.set('content-length', String(body.length));
        // A strong validator names one byte sequence; the compressed one is another (RFC 9110 8.8.1).
        const etag = headers.get('etag');
        if (etag && !etag.startsWith('W/')) headers.set('etag', `W/${etag}`);
        setResponse(new fetchAPI.Response(body, { status: response.status, statusText: response.statusText, headers }));
      })();
    },
  };
}
