// The one way the node:http routes answer JSON outside Yoga (health, readiness, refusals).
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  sendJsonText(res, status, JSON.stringify(body), headers);
}

/** Answers JSON text already written (a refusal's body, made once). */
export function sendJsonText(res: ServerResponse, status: number, text: string, headers: OutgoingHttpHeaders = {}): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}
