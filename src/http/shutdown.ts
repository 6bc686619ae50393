// Graceful shutdown of the HTTP server: once it begins, every answer asks its client to close the
// connection, requests in flight may finish within a grace period, and then the upstream pools close.
import { ServerResponse, type OutgoingHttpHeader, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';

export interface Shutdown {
  /** Whether shutdown has begun (/health and /readiness answer 503 from then on). */
  readonly begun: boolean;
  /** The response class the server must be created with. */
  readonly Response: ReturnType<typeof responseClass>;
  /** Counts a request until its answer ends; during shutdown, its connection then closes. */
  track(res: ServerResponse): void;
  /**
   * Stops accepting, lets requests in flight finish (cutting their connections after `graceMs`),
   * then runs `release` (the upstream pools). Once: a second call waits for the first.
   */
  close(server: Server, graceMs: number, release: () => Promise<unknown>): Promise<void>;
}

export function createShutdown(logger: Logger): Shutdown {
  const state = { begun: false };
  let closing: Promise<void> | undefined;
  /** Requests being worked on, for the log line of a shutdown that runs out of grace. */
  let requestsInFlight = 0;
  // One function for every response (`this` is the response), not a closure per request.
  function requestEnded(this: ServerResponse) {
    requestsInFlight -= 1;
    if (state.begun) closeOnceAnswered(this.req.socket);
  }
  return {
    get begun() {
      return state.begun;
    },
    Response: responseClass(state),
    track(res) {
      requestsInFlight += 1;
      res.once('close', requestEnded);
    },
    close(server, graceMs, release) {
      closing ??= (async () => {
        state.begun = true;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // A request that outlives the grace period must not keep the process from exiting: its
        // connection is cut, which also aborts the partner calls it started.
        const forced = Number.isFinite(graceMs)
          ? setTimeout(() => {
              logger.warn({ inFlight: requestsInFlight }, 'requests still in flight after the grace period: closing their connections');
              server.closeAllConnections();
            }, graceMs)
          : undefined;
        forced?.unref();
        await closed;
        clearTimeout(forced);
        await release();
      })();
      return closing;
    },
  };
}

/**
 * Every response whose head is written once shutdown has begun asks its client to close the
 * connection, also one whose request was already in flight, so that no client sends another
 * request on a connection about to close. Decided as the head is written, rather than by keeping
 * the responses in flight in a set: a long-lived collection of short-lived responses costs the
 * garbage collector (see docs/decisions/request-lifetimes.md).
 */
function responseClass(shutdown: { readonly begun: boolean }) {
  return class TradegraphResponse extends ServerResponse {
    override writeHead(statusCode: number, statusMessage?: string, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
    override writeHead(statusCode: number, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
    override writeHead(statusCode: number, ...rest: [(string | OutgoingHttpHeaders | OutgoingHttpHeader[])?, (OutgoingHttpHeaders | OutgoingHttpHeader[])?]): this {
      if (shutdown.begun && !this.headersSent) this.setHeader('connection', 'close');
      return super.writeHead(statusCode, ...(rest as [string, OutgoingHttpHeaders]));
    }
  };
}

/**
 * During shutdown, the connection of an answer that has just ended. A response whose head went out
 * before shutdown began (a streamed one) left its client free to reuse the connection, and Node
 * would keep it until the keep-alive timeout. Its own connection only, and gently: the answer's
 * last bytes are still sent (destroySoon), and a connection already carrying the client's next
 * request (Node hands it the next response before this) is left to that response.
 */
function closeOnceAnswered(socket: Socket): void {
  if (socket.destroyed || (socket as Socket & { _httpMessage?: unknown })._httpMessage) return;
  socket.destroySoon();
}
