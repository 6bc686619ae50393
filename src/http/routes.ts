// The routes answered outside GraphQL, for people and for the platform: the help page, liveness
// (/health), readiness and the Prometheus metrics.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TradegraphMetrics } from '../observability/metrics.js';
import type { ReadinessReport } from '../observability/readiness.js';
import type { SharedRedis } from '../redis.js';
import { sendHelp } from './help.js';
import { sendJson } from './send-json.js';

/** A route answered outside GraphQL; it always answers the request it is given. */
export type Route = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface RouteParts {
  help: string;
  readiness: () => Promise<ReadinessReport>;
  metrics: TradegraphMetrics;
  redis: SharedRedis | null;
  /** The response cache's own Redis, when it has one (RESPONSE_CACHE_REDIS_URL). */
  cacheRedis: SharedRedis | null;
  shutdown: { readonly begun: boolean };
}

/** The GET routes, by path. */
export function serviceRoutes({ help, readiness, metrics, redis, cacheRedis, shutdown }: RouteParts): Record<string, Route> {
  return {
    '/': (_req, res) => sendHelp(res, 200, help),
    '/health': (_req, res) => {
      // 200 while the service takes requests; 503 once it is shutting down.
      sendJson(res, shutdown.begun ? 503 : 200, { status: shutdown.begun ? 'shutting down' : 'ok' });
    },
    '/readiness': async (_req, res) => {
      // Whether the partner API answers (see docs/operations.md). Redis is shown but never makes
      // a replica unready: without it the replica works on its own.
      const report = await readiness();
      const ready = report.ready && !shutdown.begun;
      sendJson(res, ready ? 200 : 503, {
        status: ready ? 'ready' : 'not ready',
        upstreams: report.upstreams,
        ...(redis && { redis: redis.up ? 'up' : 'down' }),
        ...(cacheRedis && { responseCacheRedis: cacheRedis.up ? 'up' : 'down' }),
      });
    },
    '/metrics': async (_req, res) => {
      const text = await metrics.registry.metrics();
      res.writeHead(200, { 'content-type': metrics.registry.contentType, 'content-length': Buffer.byteLength(text) });
      res.end(text);
    },
  };
}
