// The client's `resolveURL` and `fetch` steps (after Apollo's RESTDataSource): the URL with every
// path segment percent-encoded, one attempt over the pool, and the body read as JSON up to the
// call's own size cap.
import type { Dispatcher, Pool } from 'undici';
import { UpstreamBadResponseError } from '../errors.js';

/** The path below the base as segments, each encoded here; query values undefined are left out. */
export function pathAndQuery(
  prefix: string,
  segments: readonly (string | number)[],
  query?: Record<string, string | number | undefined>,
): { path: string; pathAndQuery: string } {
  let path = prefix;
  for (const segment of segments) path += `/${encodeURIComponent(segment)}`;
  if (query === undefined) return { path, pathAndQuery: path };
  // URLSearchParams writes the query: its encoding is the one redact.ts looks for.
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.append(name, String(value));
  const text = params.toString();
  return { path, pathAndQuery: text ? `${path}?${text}` : path };
}

export interface Attempt {
  operation: string;
  method: 'GET' | 'POST';
  pathAndQuery: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  maxResponseBytes: number;
}

export interface AttemptResponse {
  status: number;
  headers: Dispatcher.ResponseData['headers'];
  /** The body, parsed as JSON; undefined for a status other than 200, whose body is discarded. */
  json?: unknown;
}

/**
 * Sends one attempt; throws what undici throws, or UPSTREAM_BAD_RESPONSE for a body over its cap
 * or one that is not JSON.
 */
export async function sendAttempt(pool: Pool, attempt: Attempt): Promise<AttemptResponse> {
  const response = await pool.request({
    method: attempt.method,
    path: attempt.pathAndQuery,
    headers: attempt.headers,
    body: attempt.body,
    signal: attempt.signal,
  });
  const { statusCode, headers } = response;
  if (statusCode !== 200) {
    await response.body.dump().catch(() => undefined);
    return { status: statusCode, headers };
  }
  return { status: statusCode, headers, json: await readCapped(response, attempt) };
}

/**
 * Reads the body while it stays under the call's cap, and parses it: a page of `count` items has a
 * size it can reach, and anything larger is refused before it is held, declared (content-length)
 * or streamed. The text is parsed as soon as its last byte is in, in the same turn of the event
 * loop: under load many answers arrive in one turn, and a text left waiting for its parse outlives
 * the young generation (docs/decisions/request-lifetimes.md).
 */
async function readCapped(response: Dispatcher.ResponseData, attempt: Attempt): Promise<unknown> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > attempt.maxResponseBytes) {
    // undici reports a destroyed, unread body as an 'error' event: nobody waits for it here.
    response.body.on('error', () => undefined).destroy();
    throw tooLarge(attempt);
  }
  try {
    // A declared length frames the body (undici refuses a body longer than it), so the cap is
    // already checked: undici's own reader parses the text as its last chunk comes in.
    if (Number.isFinite(declared)) return await response.body.json();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      // Leaving the loop destroys the body (the iterator's return).
      if (size > attempt.maxResponseBytes) throw tooLarge(attempt);
      chunks.push(chunk);
    }
    return JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
  } catch (error) {
    // Only the parse: a body cut off on its way is a failure of the connection, retried as such.
    if (error instanceof SyntaxError) throw new UpstreamBadResponseError(attempt.operation, 'the body is not JSON');
    throw error;
  }
}

const tooLarge = (attempt: Attempt) =>
  new UpstreamBadResponseError(attempt.operation, `the body exceeds ${attempt.maxResponseBytes} bytes`);
