// The one key of a cached answer: in the in-process store, in Redis (redis-store.ts adds the
// prefix), and as the answer's ETag.
import { hash } from 'node:crypto';
import stableStringify from 'fast-json-stable-stringify';

/**
 * The plugin's own key (SHA-256 hex of the document, operation name, variables and session), so
 * the same answer has the same key as before in a shared Redis, but hashed synchronously by
 * node:crypto: the default goes through WebCrypto's asynchronous digest, the largest single cost
 * of a cache hit.
 */
export function responseCacheKey(params: {
  documentString: string;
  operationName?: string | null;
  variableValues?: Record<string, unknown> | null;
  sessionId?: string | null;
}): string {
  const text = [params.documentString, params.operationName ?? '', stableStringify(params.variableValues ?? {}), params.sessionId ?? ''];
  return hash('sha256', text.join('|'), 'hex');
}
