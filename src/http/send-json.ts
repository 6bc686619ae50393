// The one way the node:http routes answer JSON outside Yoga (health, readiness, refusals).
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { TradegraphError } from '../errors.js';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/**
 * Refuses a request before Yoga sees it with one of the API's own errors, printed as Yoga prints
 * it: message and extensions, without the `http` extension that only tells Yoga the status.
 */
export function sendError(res: ServerResponse, status: number, error: TradegraphError, headers: OutgoingHttpHeaders = {}): void {
  const { http: _http, ...extensions } = error.extensions;
  sendJson(res, status, { errors: [{ message: error.message, extensions }] }, headers);
}
