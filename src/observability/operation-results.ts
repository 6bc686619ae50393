// What the operation's log line and its span read of a GraphQL result: error codes, and for a
// streamed (@defer) answer, every payload once the stream has ended.
import type { ServerResponse } from 'node:http';

const ERROR_CODE = /^[A-Z][A-Z0-9_]{0,63}$/;

export interface ResultLike {
  data?: unknown;
  errors?: readonly { extensions?: Record<string, unknown> | undefined }[];
}

/** The distinct `extensions.code` values of errors, in order; a missing or odd code is NO_CODE. */
export function errorCodesOf(errors: ResultLike['errors']): string[] {
  const codes = new Set<string>();
  for (const error of errors ?? []) {
    const code = error.extensions?.code;
    codes.add(typeof code === 'string' && ERROR_CODE.test(code) ? code : 'NO_CODE');
  }
  return [...codes];
}

export interface PayloadLike extends ResultLike {
  incremental?: readonly ResultLike[];
}

export function isAsyncIterable(value: unknown): value is AsyncIterable<PayloadLike> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/**
 * Passes a stream's payloads through unchanged and, once the last has been sent (or the client
 * left), hands `ended` every result in them: each payload and each deferred fragment in it; once.
 * A stream that is never read (the client left first, or no answer could carry it) never runs its
 * own end, so the node response's `close` ends it too.
 */
export function watchStream(
  source: AsyncIterable<PayloadLike>,
  ended: (results: ResultLike[]) => void,
  response: ServerResponse | undefined,
): AsyncIterable<PayloadLike> {
  const results: ResultLike[] = [];
  let done = false;
  const end = () => {
    if (done) return;
    done = true;
    response?.off('close', end);
    ended(results);
  };
  response?.once('close', end);
  async function* stream() {
    try {
      for await (const payload of source) {
        results.push(payload, ...(payload.incremental ?? []));
        yield payload;
      }
    } finally {
      end();
    }
  }
  return stream();
}

/** The node response of a request that came through the node adapter (every one but in-process tests'). */
export function nodeResponseOf(serverContext: unknown): ServerResponse | undefined {
  return (serverContext as { res?: ServerResponse } | undefined)?.res;
}
