// The optional Redis connection through which replicas share the response cache and the rate-limit
// counts. Redis is never a single point of failure: while it is away commands fail at once (no
// offline queue, a short command timeout), callers fall back to their own in-process state, and the
// connection keeps retrying in the background until sharing resumes by itself.
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface SharedRedis {
  /** The client; ioredis is loaded only when REDIS_URL is set, so a single replica never holds it. */
  client(): Promise<Redis>;
  /** True while the connection is ready for commands. */
  readonly up: boolean;
  close(): Promise<void>;
}

/** A command slower than this counts as failed, so that a stalled Redis never holds a request. */
const COMMAND_TIMEOUT_MS = 250;
const CONNECT_TIMEOUT_MS = 1_000;
/** Reconnection attempts back off to this, and go on for as long as the service runs. */
const MAX_RECONNECT_DELAY_MS = 2_000;

/** Connects in the background; the URL (which may hold a password) is never logged. */
export function connectRedis(url: string, logger: Logger): SharedRedis {
  let up = false;
  // One warning per outage, however many errors and reconnection attempts it holds; the first
  // connection failing counts as an outage too.
  let inOutage = false;
  let closing = false;
  const lost = (reason: string) => {
    up = false;
    if (closing || inOutage) return;
    inOutage = true;
    logger.warn(
      { reason },
      'Redis is unreachable: the response cache is bypassed and rate limits count per replica until it is back',
    );
  };
  const client = import('ioredis').then(({ Redis }) => {
    const connection = new Redis(url, {
      enableOfflineQueue: false,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: CONNECT_TIMEOUT_MS,
      maxRetriesPerRequest: 0,
      retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
    });
    connection.on('ready', () => {
      up = true;
      if (inOutage) logger.info('Redis is reachable again: the response cache and rate limits are shared again');
      inOutage = false;
    });
    // Without a listener an 'error' event would be thrown; each one is a failed (re)connection.
    connection.on('error', (error: Error) => lost(error.message));
    connection.on('close', () => lost('connection closed'));
    return connection;
  });

  return {
    client: () => client,
    get up() {
      return up;
    },
    async close() {
      closing = true;
      up = false;
      (await client).disconnect();
    },
  };
}
