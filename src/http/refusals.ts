// Node's HTTP parser answers a malformed request, headers that never finish or headers too large
// with an empty body; here each gets a JSON body with a code, as GraphQL's own errors do.
import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { refusalBody } from '../errors.js';

/**
 * Node's answers to requests it cannot parse or that took too long to arrive (400, 408, 431), with
 * a JSON body instead of none. As Node's own handler does, nothing is written on a connection that
 * is gone or whose response has begun.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
      socket.destroy();
      return;
    }
    const status =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408
      : error.code === 'HPE_HEADER_OVERFLOW' ? 431
      : 400;
    const message =
      status === 408 ? 'The request did not arrive in time (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS); the connection is closed.'
      : status === 431 ? 'The request headers are larger than this service reads.'
      : 'The request is not well-formed HTTP.';
    const body = refusalBody(message);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nconnection: close\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });
}
