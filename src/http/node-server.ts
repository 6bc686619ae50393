// The node:http server in front of Yoga: its own GET routes (405 for another method, 404 for a path
// with no route), the shedding of GraphQL requests past the cap (a full house at once), the body
// (read whole, within its cap) and then the operation's slot, in that order; every other request
// goes to Yoga. Every answer, whoever writes it, is cut if its client stops reading it
// (write-timeout.ts).
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { isBrowserVisit, sendHelp } from './help.js';
import { refusalBody } from '../errors.js';
import { answerClientErrors } from './refusals.js';
import { receiveRequestBody } from './request-body.js';
import type { Route } from './routes.js';
import { sendJson, sendJsonText } from './send-json.js';
import type { LoadShedding, Refusal } from './shedding.js';
import type { Shutdown } from './shutdown.js';
import { cutUnreadAnswers, type AnswerCutListener } from './write-timeout.js';
import { HTTP_CHECK_INTERVAL_MAX_MS } from '../tunables.js';

export interface NodeServerParts {
  config: Pick<
    Config,
    'production' | 'httpHeadersTimeoutMs' | 'httpRequestTimeoutMs' | 'httpWriteTimeoutMs' | 'httpMaxConnections' | 'maxBodyBytes'
  >;
  logger: Logger;
  graphqlPath: string;
  help: string;
  routes: Record<string, Route>;
  shedding: LoadShedding;
  shutdown: Shutdown;
  /** Told of each answer cut because its client stopped reading it. */
  onAnswerCut: AnswerCutListener;
  /** Yoga's request listener. */
  yoga: (req: IncomingMessage, res: ServerResponse) => unknown;
  /** The ReadableStream of Yoga's fetch API: a read body streams in it (request-body.ts). */
  bodyStream: typeof ReadableStream;
  /**
   * The caller's budget fields (RateLimit-Policy, RateLimit) for the refusals of /graphql made here,
   * as Yoga's answers carry them; none without a rate limit.
   */
  budgetFieldsOf: (req: IncomingMessage) => Promise<OutgoingHttpHeaders>;
}

export function createNodeServer({ config, logger, graphqlPath, help, routes, shedding, shutdown, onAnswerCut, yoga, bodyStream, budgetFieldsOf }: NodeServerParts): Server {
  // A budget that cannot be read leaves the fields out rather than the answer.
  const fieldsOf = (req: IncomingMessage) => budgetFieldsOf(req).catch((): OutgoingHttpHeaders => ({}));
  const refuseWith = (req: IncomingMessage, res: ServerResponse, { status, text, headers }: Refusal) =>
    void fieldsOf(req).then((fields) => sendJsonText(res, status, text, { ...fields, ...headers }));
  const server = createServer<typeof IncomingMessage, Shutdown['Response']>(
    {
      ServerResponse: cutUnreadAnswers(shutdown.Response, config.httpWriteTimeoutMs, onAnswerCut),
      keepAlive: true,
      // A client gets this long to send its headers, and its whole request, before it is cut off.
      headersTimeout: config.httpHeadersTimeoutMs,
      requestTimeout: config.httpRequestTimeoutMs,
      // How often those limits are checked (Node's default is every 30 s).
      connectionsCheckingInterval: Math.min(HTTP_CHECK_INTERVAL_MAX_MS, config.httpHeadersTimeoutMs),
    },
    (req, res) => {
      shutdown.track(res);
      const path = pathOf(req.url);
      if (config.production && path === graphqlPath && isBrowserVisit(req)) {
        // Production has no GraphiQL, and Yoga would answer a browser 406 with an empty body.
        void fieldsOf(req).then((fields) => sendHelp(res, 406, help, fields));
        return;
      }
      const route = routes[path];
      if (route && (req.method === 'GET' || req.method === 'HEAD')) {
        void Promise.resolve(route(req, res)).catch((error: unknown) => {
          logger.error({ err: error }, 'route failed');
          if (!res.headersSent) sendJson(res, 500, { status: 'error' });
        });
        return;
      }
      if (route) return refuse(res, 405, `${path} answers GET only, not ${req.method}.`, { allow: 'GET, HEAD' });
      if (path !== graphqlPath) {
        return refuse(res, 404, `There is nothing at ${path.slice(0, 100)}: GraphQL is at ${graphqlPath}; also GET /health, /readiness, /metrics.`);
      }
      if (!shedding.hasRoom()) return refuseWith(req, res, shedding.refuseSlot());
      // The slot is taken once the body is in: a client still sending holds none.
      void receiveRequestBody(req, res, config.maxBodyBytes, shedding, bodyStream, () => fieldsOf(req)).then((received) => {
        if (!received) return;
        if (shedding.admit(res)) void yoga(req, res);
        else refuseWith(req, res, shedding.refuseSlot());
      });
    },
  );
  server.maxConnections = config.httpMaxConnections;
  answerClientErrors(server);
  return server;
}

/** Listens, and answers the URL clients reach it at (a wildcard address as 127.0.0.1). */
export async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${address.port}`;
}

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJsonText(res, status, refusalBody(message), headers);
}

function pathOf(url: string | undefined): string {
  const query = url?.indexOf('?') ?? -1;
  return url === undefined ? '/' : query === -1 ? url : url.slice(0, query);
}
