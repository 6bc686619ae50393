// The HTTP face of the service: Yoga (GraphQL, GraphiQL in development) behind a node:http server
// that also answers /health, and the partner API clients it owns. Created by main.ts and tests.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { createContextFactory, type TradegraphContext } from './context.js';
import { graphiqlOptions } from './graphiql.js';
import { PartnerApi } from './partner/index.js';
import { buildSchema } from './schema.js';

export interface TradegraphOptions {
  config: Config & { partnerApiUrl: string; partnerOpenApiUrl: string };
  logger: Logger;
  /** Headers GraphiQL opens with (the simulator's demo token); none when omitted. */
  graphiqlHeaders?: Record<string, string>;
}

export interface Tradegraph {
  server: Server;
  yoga: YogaServerInstance<NodeServerContext, TradegraphContext>;
  partner: PartnerApi;
  listen(port: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

export const GRAPHQL_PATH = '/graphql';

/** What Yoga's node adapter adds to each request's context. */
export interface NodeServerContext {
  req: IncomingMessage;
  res: ServerResponse;
}

export function createTradegraph({ config, logger, graphiqlHeaders = {} }: TradegraphOptions): Tradegraph {
  const partner = new PartnerApi({
    baseUrl: config.partnerApiUrl,
    openApiUrl: config.partnerOpenApiUrl,
    timeoutMs: config.upstreamTimeoutMs,
    appKey: config.partnerAppKey,
    logger,
  });
  const yoga = createYoga<NodeServerContext, TradegraphContext>({
    schema: buildSchema(),
    graphqlEndpoint: GRAPHQL_PATH,
    context: createContextFactory({ partner, listingFeeBatchMax: config.listingFeeBatchMax }),
    graphiql: config.production ? false : graphiqlOptions(graphiqlHeaders),
    renderGraphiQL,
    landingPage: false,
    healthCheckEndpoint: '/health',
    logging: yogaLogger(logger),
  });

  let shuttingDown = false;
  const server = createServer({ keepAlive: true }, (req: IncomingMessage, res: ServerResponse) => {
    if (shuttingDown) res.setHeader('connection', 'close');
    void yoga.requestListener(req, res);
  });

  return {
    server,
    yoga,
    partner,
    async listen(port, host = '127.0.0.1') {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
      const address = server.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${address.port}`;
    },
    async close() {
      shuttingDown = true;
      server.closeIdleConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await partner.close();
    },
  };
}

/** Yoga's own log lines go to pino, so every line of the service is structured JSON. */
function yogaLogger(logger: Logger) {
  const forward =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]) => {
      const [first, ...rest] = args;
      if (first instanceof Error) logger[level]({ err: first }, rest.map(String).join(' ') || first.message);
      else logger[level](args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' '));
    };
  return { debug: forward('debug'), info: forward('info'), warn: forward('warn'), error: forward('error') };
}
