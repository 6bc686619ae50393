// The optional Redis connection through which replicas share the response cache and the rate-limit
// counts. Redis is never a single point of failure: while it is away commands fail at once (no
// offline queue, a short command timeout), callers fall back to their own in-process state, and the
// connection keeps retrying in the background until sharing resumes by itself. A Redis that hangs
// (its connection open, nothing answered) is away too: a command past its deadline marks it down
// until a heartbeat is answered again.
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { RedisValues } from './redis-values.js';
import { REDIS_CONNECT_TIMEOUT_MS, REDIS_HEARTBEAT_MS, REDIS_MAX_RECONNECT_DELAY_MS, REDIS_RECONNECT_STEP_MS } from './tunables.js';

export interface SharedRedis {
  /** The client; ioredis is loaded only when REDIS_URL is set, so a single replica never holds it. */
  client(): Promise<Redis>;
  /** True while the connection is ready for commands and answers them in time. */
  readonly up: boolean;
  /** A caller's command failed: past its deadline, it marks Redis down until it answers again. */
  commandFailed(error: unknown): void;
  /**
   * Sends a command while Redis is up and answers its result; answers undefined, without sending
   * it, while Redis is down, or when it fails (commandFailed). Callers fall back on undefined.
   */
  attempt<T>(command: (client: Redis) => Promise<T>): Promise<T | undefined>;
  /** Tags what the service writes and checks it on read: a value it did not write is a miss (redis-values.ts). */
  readonly values: RedisValues;
  close(): Promise<void>;
}

export interface RedisOptions {
  /** A command slower than this counts as failed, so that a stalled Redis never holds a request. */
  commandTimeoutMs: number;
  /** The fleet's tags of its values (REDIS_VALUE_KEY, else PARTNER_APP_KEY). */
  values: RedisValues;
  /** For a rediss:// URL: the CAs its certificate is checked against (REDIS_TLS_CA_FILE); Node's own when null. */
  tlsCa?: string | null;
}

/**
 * ioredis's message for a command past `commandTimeout` ("Command timed out"): it has no code,
 * so its wording is what tells a hung Redis from one that refused (docs/decisions/library-departures.md).
 */
export const REDIS_COMMAND_TIMED_OUT = /timed out/i;

/**
 * Whether Redis is up, as the connection's events and the deadlines of its commands tell, logged
 * once per outage however many errors and reconnection attempts it holds; the first connection
 * failing counts as an outage too.
 */
class RedisHealth {
  /** The connection's own state (ioredis 'ready'), and whether its last command was answered in time. */
  ready = false;
  answering = true;
  closing = false;
  #inOutage = false;
  readonly #logger: Logger;
  readonly #commandTimeoutMs: number;

  constructor(logger: Logger, commandTimeoutMs: number) {
    this.#logger = logger;
    this.#commandTimeoutMs = commandTimeoutMs;
  }

  get up(): boolean {
    return this.ready && this.answering && !this.closing;
  }

  connected(): void {
    this.ready = true;
    this.answered();
  }

  disconnected(reason: string): void {
    this.ready = false;
    this.#lost(reason);
  }

  answered(): void {
    this.answering = true;
    if (!this.ready || !this.#inOutage) return;
    this.#inOutage = false;
    this.#logger.info('Redis is reachable again: the response cache and rate limits are shared again');
  }

  /** A command failed; `what` names what found a hang: a request's command, or the heartbeat. */
  failed(what: string, error: unknown): void {
    // Only a missed deadline: a refused command (a full Redis, a wrong type) says Redis answers.
    if (!(error instanceof Error) || !REDIS_COMMAND_TIMED_OUT.test(error.message)) return;
    this.answering = false;
    this.#lost(`${what} got no answer within ${this.#commandTimeoutMs} ms`);
  }

  #lost(reason: string): void {
    if (this.closing || this.#inOutage) return;
    this.#inOutage = true;
    this.#logger.warn({ reason }, 'Redis is unreachable: the response cache is bypassed and rate limits count per replica until it is back');
  }
}

/** The ioredis connection, failing fast while Redis is away and reconnecting in the background; its events tell `health`. */
async function openConnection(url: string, commandTimeoutMs: number, tlsCa: string | null, health: RedisHealth): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const connection = new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: commandTimeoutMs,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * REDIS_RECONNECT_STEP_MS, REDIS_MAX_RECONNECT_DELAY_MS),
    // As ioredis documents TLS: rediss:// turns it on, `tls` options (node:tls) such as the CA go beside it.
    ...(tlsCa !== null && url.startsWith('rediss:') ? { tls: { ca: tlsCa } } : {}),
  });
  connection.on('ready', () => health.connected());
  // Without a listener an 'error' event would be thrown; each one is a failed (re)connection.
  connection.on('error', (error: Error) => health.disconnected(error.message));
  connection.on('close', () => health.disconnected('connection closed'));
  return connection;
}

/** Connects in the background; the URL (which may hold a password) is never logged. */
export function connectRedis(url: string, logger: Logger, { commandTimeoutMs, values, tlsCa = null }: RedisOptions): SharedRedis {
  const health = new RedisHealth(logger, commandTimeoutMs);
  const client = openConnection(url, commandTimeoutMs, tlsCa, health);
  const commandFailed = (error: unknown) => health.failed('a command', error);
  // The heartbeat: a PING on a ready connection, whose answer (or its missed deadline) decides
  // whether Redis answers; unref'd, so it never keeps the process alive.
  const heartbeat = setInterval(() => {
    if (!health.ready || health.closing) return;
    void client
      .then((connection) => connection.ping())
      .then(
        () => health.answered(),
        (error: unknown) => health.failed('the heartbeat PING', error),
      );
  }, REDIS_HEARTBEAT_MS);
  heartbeat.unref();

  return {
    client: () => client,
    get up() {
      return health.up;
    },
    commandFailed,
    values,
    async attempt(command) {
      if (!health.up) return undefined;
      try {
        return await command(await client);
      } catch (error) {
        commandFailed(error);
        return undefined;
      }
    },
    async close() {
      health.closing = true;
      clearInterval(heartbeat);
      (await client).disconnect();
    },
  };
}

/**
 * Warns, once per connection, when this Redis may evict keys to stay under its maxmemory: the
 * rate-limit counters carry a TTL as cached answers do, so any policy but noeviction lets a full
 * Redis give a spent credential its budget back (docs/response-cache.md#which-eviction-policy-is-safe).
 * A Redis that refuses INFO is not judged.
 */
export async function warnIfEvicting(redis: SharedRedis, logger: Logger): Promise<void> {
  const connection = await redis.client();
  const check = async () => {
    const info = await connection.info('memory').catch(() => '');
    const maxmemory = Number(/^maxmemory:(\d+)/m.exec(info)?.[1] ?? 0);
    const policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
    if (maxmemory > 0 && policy !== undefined && policy !== 'noeviction') {
      logger.warn(
        { maxmemoryPolicy: policy, maxmemory },
        "REDIS_URL's Redis evicts keys once full: rate-limit counters may be evicted, giving budgets back; set maxmemory-policy noeviction there, and give the response cache a Redis of its own (RESPONSE_CACHE_REDIS_URL)",
      );
    }
  };
  connection.on('ready', () => void check());
  if (connection.status === 'ready') void check();
}
