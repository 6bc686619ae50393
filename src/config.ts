// The service's configuration, read from the environment once at start and validated: a bad value
// stops the service with a message that names the variable.
import { hash } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { z } from 'zod';
import { BREAKER_FAILURE_RATIO, BREAKER_WINDOW_MS } from './tunables.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * RATE_LIMIT_MAX when unset in development: on, so that a front end built against `npm start` sees
 * the RateLimit header fields and its budget shrink as production would show them, and generous
 * (tens of full pages with fees per minute), so that trying things out never meets a refusal.
 */
export const DEVELOPMENT_RATE_LIMIT_MAX = 10_000;

const emptyAsUnset = (value: unknown) => (value === '' ? undefined : value);

const urlWith = (protocol: RegExp, message: string) =>
  z.string().refine((value) => {
    try {
      return protocol.test(new URL(value).protocol);
    } catch {
      return false;
    }
  }, message);

const httpUrl = urlWith(/^https?:$/, 'must be an http:// or https:// URL');
// The partner client appends each operation's path and query to the base: a query or fragment in
// the base would end up in the middle of the path, and every call would miss.
const partnerBaseUrl = httpUrl.refine((value) => !/[?#]/.test(value), 'must not hold a query (?) or a fragment (#): give the base URL only');

/**
 * What an HTTP header value may hold, as undici checks it before a call: latin-1 without control
 * characters other than tab. Whitespace at either end would be trimmed on the wire, so the partner
 * would read another key than the one configured.
 */
const HEADER_VALUE = /^[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?$/;
// The message never quotes the value: it is a secret.
const headerValue = z.string().regex(
  HEADER_VALUE,
  'must be usable as an HTTP header value: latin-1 characters without CR, LF or other control characters, and no whitespace at either end',
);
// The database (the path, or ioredis's `db` query parameter) is a whole number: ioredis would take
// '/abc' or '/-1' as given and fail only at SELECT, after start, on every reconnection.
const redisUrl = urlWith(/^rediss?:$/, 'must be a redis:// or rediss:// URL').refine((value) => {
  if (!URL.canParse(value)) return true;
  const { pathname, searchParams } = new URL(value);
  const db = searchParams.get('db');
  return /^\/?(\d{1,5})?$/.test(pathname) && (db === null || /^\d{1,5}$/.test(db));
}, 'must name its database as a whole number (redis://host:port/0), or none');

/**
 * A setting in decimal digits only: Number() would also take '0x10', '1e3', ' 5' and '5.0', which
 * an operator who wrote them meant as something else or mistyped.
 */
const integer = (min: number, max: number) => {
  const range = `must be a whole number from ${min} to ${max}, in decimal digits`;
  const decimalOnly = (value: unknown) => (typeof value === 'string' ? (/^\d{1,16}$/.test(value) ? Number(value) : Number.NaN) : value);
  return z.preprocess(decimalOnly, z.number({ error: range }).int(range).min(min, range).max(max, range));
};

const EnvSchema = z.object({
  PORT: z.preprocess(emptyAsUnset, integer(0, 65_535).default(4000)),
  HOST: z.preprocess(emptyAsUnset, z.string().default('0.0.0.0')),
  PARTNER_API_URL: z.preprocess(emptyAsUnset, partnerBaseUrl.optional()),
  PARTNER_OPEN_API_URL: z.preprocess(emptyAsUnset, partnerBaseUrl.optional()),
  PARTNER_APP_KEY: z.preprocess(emptyAsUnset, headerValue.optional()),
  // The one way to serve the simulator's demo data in production mode: said out loud, never by omission.
  PARTNER_SIMULATOR: z.preprocess(emptyAsUnset, z.enum(['embedded']).optional()),
  // The embedded simulator's admin routes let any local process read its calls and inject faults:
  // open only when a developer asks for them.
  SIMULATOR_ADMIN_ROUTES: z.preprocess(emptyAsUnset, z.enum(['true', 'false']).default('false')),
  UPSTREAM_TIMEOUT_MS: z.preprocess(emptyAsUnset, integer(1, 120_000).default(5000)),
  UPSTREAM_MAX_RETRIES: z.preprocess(emptyAsUnset, integer(0, 10).default(2)),
  UPSTREAM_BREAKER_MIN_CALLS: z.preprocess(emptyAsUnset, integer(1, 100_000).default(20)),
  UPSTREAM_BREAKER_MIN_DISTINCT: z.preprocess(emptyAsUnset, integer(1, 1000).default(3)),
  UPSTREAM_BREAKER_HALF_OPEN_MS: z.preprocess(emptyAsUnset, integer(10, 600_000).default(5000)),
  UPSTREAM_CONNECTIONS: z.preprocess(emptyAsUnset, integer(1, 4096).default(64)),
  UPSTREAM_CONNECTION_WAIT_MS: z.preprocess(emptyAsUnset, integer(0, 60_000).default(1000)),
  UPSTREAM_CONNECTIONS_PER_DOMAIN: z.preprocess(emptyAsUnset, integer(1, 4096).optional()),
  MAX_OPERATIONS_IN_FLIGHT: z.preprocess(emptyAsUnset, integer(1, 1_000_000).default(1024)),
  OPERATION_TIMEOUT_MS: z.preprocess(emptyAsUnset, integer(100, 600_000).default(15_000)),
  PAGE_MAX_PARTNER_CALLS: z.preprocess(emptyAsUnset, integer(1, 100).default(4)),
  // The floor protects the partner: every live inventory is read once per interval, whoever watches.
  LIVE_POLL_INTERVAL_MS: z.preprocess(
    emptyAsUnset,
    integer(0, 3_600_000).default(15_000).refine((ms) => ms >= 1000, 'must be at least 1000 (1 s), to protect the partner API: each live inventory is read once per interval'),
  ),
  LIVE_SUBSCRIPTIONS_MAX: z.preprocess(emptyAsUnset, integer(0, 100_000).default(1000)),
  LIVE_SUBSCRIPTIONS_PER_CREDENTIAL: z.preprocess(emptyAsUnset, integer(1, 10_000).default(20)),
  MAX_QUERY_BYTES: z.preprocess(emptyAsUnset, integer(256, 64 * 1024 * 1024).default(32 * 1024)),
  HTTP_HEADERS_TIMEOUT_MS: z.preprocess(emptyAsUnset, integer(1000, 600_000).default(10_000)),
  HTTP_REQUEST_TIMEOUT_MS: z.preprocess(emptyAsUnset, integer(1000, 3_600_000).default(30_000)),
  HTTP_WRITE_TIMEOUT_MS: z.preprocess(emptyAsUnset, integer(1000, 600_000).default(10_000)),
  HTTP_MAX_CONNECTIONS: z.preprocess(emptyAsUnset, integer(1, 1_000_000).default(4096)),
  LISTING_FEE_BATCH_MAX: z.preprocess(emptyAsUnset, integer(1, 1000).default(50)),
  MAX_BODY_BYTES: z.preprocess(emptyAsUnset, integer(1024, 64 * 1024 * 1024).default(1024 * 1024)),
  CLIENT_NAMES_MAX: z.preprocess(emptyAsUnset, integer(1, 10_000).default(50)),
  LOG_LEVEL: z.preprocess(emptyAsUnset, z.enum(LOG_LEVELS).default('info')),
  NODE_ENV: z.preprocess(emptyAsUnset, z.enum(['development', 'production', 'test']).default('development')),
  // OpenTelemetry's own variable names, so the usual collector setup switches tracing on.
  OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess(emptyAsUnset, httpUrl.optional()),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.preprocess(emptyAsUnset, httpUrl.optional()),
  OTEL_SERVICE_NAME: z.preprocess(emptyAsUnset, z.string().default('tradegraph')),
  OTEL_SDK_DISABLED: z.preprocess(emptyAsUnset, z.enum(['true', 'false']).default('false')),
  TRUSTED_DOCUMENTS: z.preprocess(emptyAsUnset, z.string().optional()),
  TRUSTED_DOCUMENTS_ONLY: z.preprocess(emptyAsUnset, z.enum(['true', 'false']).optional()),
  RESPONSE_CACHE_TTL_MS: z.preprocess(emptyAsUnset, integer(0, 86_400_000).default(0)),
  RESPONSE_CACHE_MAX_BYTES: z.preprocess(emptyAsUnset, integer(1024 * 1024, 2 ** 40).default(64 * 1024 * 1024)),
  RESPONSE_CACHE_STALE_IF_ERROR_MS: z.preprocess(emptyAsUnset, integer(0, 86_400_000).default(300_000)),
  RESPONSE_CACHE_REDIS_URL: z.preprocess(emptyAsUnset, redisUrl.optional()),
  // The largest read of the simulator's items (nine pages of 100 with every field) is about 1.7 MB.
  RESPONSE_CACHE_MAX_ENTRY_BYTES: z.preprocess(emptyAsUnset, integer(1024, 2 ** 40).default(2 * 1024 * 1024)),
  REDIS_URL: z.preprocess(emptyAsUnset, redisUrl.optional()),
  REDIS_COMMAND_TIMEOUT_MS: z.preprocess(emptyAsUnset, integer(10, 10_000).default(250)),
  // A PEM file of the CAs that sign a rediss:// Redis's certificate (ioredis's tls.ca); unset: Node's own CAs.
  REDIS_TLS_CA_FILE: z.preprocess(emptyAsUnset, z.string().optional()),
  // The secret the tags of Redis values are derived from (redis-values.ts): at least 32 characters,
  // so that a guess of it is no shorter a way in than the tag itself.
  REDIS_VALUE_KEY: z.preprocess(emptyAsUnset, z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -base64 32)').optional()),
  // Unset: DEVELOPMENT_RATE_LIMIT_MAX in development, 0 (off) otherwise.
  RATE_LIMIT_MAX: z.preprocess(emptyAsUnset, integer(0, 1_000_000).optional()),
  // Whole seconds: Redis expires the shared counters in seconds.
  RATE_LIMIT_WINDOW_MS: z.preprocess(
    emptyAsUnset,
    integer(1000, 86_400_000)
      .refine((ms) => ms % 1000 === 0, 'must be whole seconds (a multiple of 1000)')
      .default(60_000),
  ),
  RATE_LIMIT_PROXY_HOPS: z.preprocess(emptyAsUnset, integer(0, 10).default(0)),
}).refine((env) => env.PARTNER_OPEN_API_URL === undefined || env.PARTNER_API_URL !== undefined, {
  // Without PARTNER_API_URL the simulator serves both operations; half a real upstream is a mistake.
  message: 'is set but PARTNER_API_URL is not (both or neither)',
  path: ['PARTNER_OPEN_API_URL'],
}).refine((env) => env.PARTNER_API_URL !== undefined || env.NODE_ENV !== 'production' || env.PARTNER_SIMULATOR === 'embedded', {
  // The simulator answers any token with demo data: a production service that forgot its upstream
  // must not start, let alone serve.
  message:
    "is required when NODE_ENV=production (set it to the partner's base URL; for a demo on the embedded simulator's data in production mode, set PARTNER_SIMULATOR=embedded instead)",
  path: ['PARTNER_API_URL'],
}).refine((env) => env.PARTNER_SIMULATOR === undefined || env.PARTNER_API_URL === undefined, {
  message: 'is embedded but PARTNER_API_URL is set (one upstream or the other)',
  path: ['PARTNER_SIMULATOR'],
}).refine((env) => env.SIMULATOR_ADMIN_ROUTES === 'false' || env.PARTNER_API_URL === undefined, {
  message: 'is true but PARTNER_API_URL is set: there is no embedded simulator to open',
  path: ['SIMULATOR_ADMIN_ROUTES'],
}).refine(
  (env) => (env.REDIS_URL ?? env.RESPONSE_CACHE_REDIS_URL) === undefined || env.PARTNER_API_URL === undefined || (env.REDIS_VALUE_KEY ?? env.PARTNER_APP_KEY) !== undefined,
  {
    // Without a secret the replicas share, a replica could not tell its fleet's values from planted ones.
    message: 'is required with REDIS_URL or RESPONSE_CACHE_REDIS_URL when PARTNER_APP_KEY is unset: the tags of what the service writes in Redis are derived from it',
    path: ['REDIS_VALUE_KEY'],
  },
).refine((env) => env.RESPONSE_CACHE_MAX_ENTRY_BYTES <= env.RESPONSE_CACHE_MAX_BYTES, {
  message: 'must not be above RESPONSE_CACHE_MAX_BYTES',
  path: ['RESPONSE_CACHE_MAX_ENTRY_BYTES'],
}).refine((env) => env.HTTP_HEADERS_TIMEOUT_MS <= env.HTTP_REQUEST_TIMEOUT_MS, {
  // node:http refuses the pair at start: the headers are part of the request.
  message: 'must not be above HTTP_REQUEST_TIMEOUT_MS',
  path: ['HTTP_HEADERS_TIMEOUT_MS'],
}).refine((env) => env.TRUSTED_DOCUMENTS_ONLY !== 'true' || env.TRUSTED_DOCUMENTS !== undefined, {
  // Only trusted documents, and none trusted, would refuse every request.
  message: 'is true but TRUSTED_DOCUMENTS is not set',
  path: ['TRUSTED_DOCUMENTS_ONLY'],
});

/** Every environment variable the service reads: deployment manifests are checked against it. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(EnvSchema.shape);

/** A trusted-documents manifest: each document's text by the sha256 (hex) of that text. */
export type TrustedDocumentsManifest = Readonly<Record<string, string>>;

export interface Config {
  port: number;
  host: string;
  /** `{base_url}`; null means: start the embedded partner simulator and use it. */
  partnerApiUrl: string | null;
  /** `{open_api_url}`; defaults to partnerApiUrl. */
  partnerOpenApiUrl: string | null;
  partnerAppKey: string | null;
  /** Whether the embedded simulator answers its admin routes over HTTP (SIMULATOR_ADMIN_ROUTES). */
  simulatorAdminRoutes: boolean;
  upstreamTimeoutMs: number;
  /** Retries after the first attempt of an idempotent partner call (GET), within upstreamTimeoutMs. */
  upstreamMaxRetries: number;
  /** Share (0 to 1) of a window's partner calls that must be outages for the circuit to open. */
  upstreamBreakerFailureRatio: number;
  upstreamBreakerWindowMs: number;
  /** Calls in the window below which the circuit never opens. */
  upstreamBreakerMinCalls: number;
  /** Distinct inventories and callers the window's outages must span for the circuit to open. */
  upstreamBreakerMinDistinct: number;
  /** How long an open circuit answers at once before letting one probe call through. */
  upstreamBreakerHalfOpenMs: number;
  /** The facade's connections per upstream base, and how long a call may wait for one. */
  upstreamConnections: number;
  upstreamConnectionWaitMs: number;
  /**
   * The most connections one inventory or one caller may hold; null: a quarter of upstreamConnections
   * (worked out by the partner client, so that a config built in code with other connections gets its quarter).
   */
  upstreamConnectionsPerDomain: number | null;
  /** GraphQL requests worked on at once; more are refused with HTTP 503 and Retry-After. */
  maxOperationsInFlight: number;
  /** The whole operation's deadline; partner calls still running then fail UPSTREAM_TIMEOUT. */
  operationTimeoutMs: number;
  /** Chained partner calls one `items` page may make before it answers a short page. */
  pageMaxPartnerCalls: number;
  /** Live inventories (docs/live-inventories.md): the poll interval, and the open subscriptions per replica and per credential. */
  livePollIntervalMs: number;
  liveSubscriptionsMax: number;
  liveSubscriptionsPerCredential: number;
  /** Longest GraphQL document text, checked before it is parsed. */
  maxQueryBytes: number;
  /** node:http's limits on slow clients. */
  httpHeadersTimeoutMs: number;
  httpRequestTimeoutMs: number;
  /** How long an answer may wait with nothing more of it taken by a client that stopped reading, before it is cut. */
  httpWriteTimeoutMs: number;
  httpMaxConnections: number;
  listingFeeBatchMax: number;
  maxBodyBytes: number;
  /** Distinct client names (graphql-client-name headers) told apart in logs, spans and metrics; later ones are `other`. */
  clientNamesMax: number;
  logLevel: (typeof LOG_LEVELS)[number];
  production: boolean;
  /** OpenTelemetry tracing; null (the default) when no OTLP endpoint is configured. */
  tracing: { tracesUrl: string; serviceName: string } | null;
  /** The manifest read from TRUSTED_DOCUMENTS; null when none is configured. */
  trustedDocuments: TrustedDocumentsManifest | null;
  /** Whether only the manifest's documents may run (TRUSTED_DOCUMENTS_ONLY; by default, in production). */
  trustedDocumentsOnly: boolean;
  /** How long a read's answer is reused for the same credential; 0 (the default) turns the cache off. */
  responseCacheTtlMs: number;
  /**
   * The in-process response cache's budget in bytes of heap its entries are weighed at
   * (response-cache/in-process-store.ts's entryHeapBytes), and the largest answer cached, in bytes of JSON.
   */
  responseCacheMaxBytes: number;
  responseCacheMaxEntryBytes: number;
  /** How long past its TTL an answer is kept, and served to its credential when the partner cannot answer; 0: never. */
  responseCacheStaleIfErrorMs: number;
  /** Shares the response cache and the rate-limit counts between replicas; null keeps both in-process. May hold a password. */
  redisUrl: string | null;
  /** A Redis of the response cache's own (RESPONSE_CACHE_REDIS_URL), apart from the rate-limit counts; null: redisUrl. May hold a password. */
  responseCacheRedisUrl: string | null;
  /** A Redis command's deadline; one missed marks Redis down until it answers again. */
  redisCommandTimeoutMs: number;
  /** The PEM of REDIS_TLS_CA_FILE: the CAs a rediss:// Redis's certificate is checked against; null: Node's own. */
  redisTlsCa: string | null;
  /** REDIS_VALUE_KEY: the secret Redis values' tags are derived from; null: the partner app-key. Never logged. */
  redisValueKey: string | null;
  /** Units of partner work (cost/price.ts) per credential per window; null (RATE_LIMIT_MAX=0, the default outside development) means no limit. */
  rateLimit: RateLimitConfig | null;
}

export interface RateLimitConfig {
  max: number;
  windowMs: number;
  /**
   * Proxies in front of the service that each append the address they were reached from to
   * X-Forwarded-For: the client's address is the entry this many from the end. 0 (and omitted): the
   * connection's own address.
   */
  proxyHops?: number;
}

/** A refused setting; its message is `Invalid configuration:` and one indented line per setting, each starting with the variable. */
export class ConfigError extends Error {
  /** `problems`: one line per refused setting, each naming its variable first. */
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }

  /** One refused setting: its variable and why. */
  static of(variable: string, reason: string): ConfigError {
    return new ConfigError([`${variable}: ${reason}`]);
  }
}

/**
 * Resolves HOST as listening would (dns.lookup), so that a name that resolves to no address stops
 * the service with a message naming HOST rather than with the resolver's stack trace.
 */
export async function checkHost(host: string): Promise<void> {
  try {
    await lookup(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw ConfigError.of('HOST', `'${host.slice(0, 200)}' does not resolve to an address (${code}); set it to an address or a name this machine resolves`);
  }
}

/**
 * The most heap a full in-process response cache holds per byte of its budget: entries are weighed
 * at their measured heap (response-cache/in-process-store.ts), and this leaves room for what the measure does
 * not see (V8's free space between them, another runtime's object sizes). What
 * test/integration/response-cache-heap.test.ts holds a full store of the smallest answers to.
 */
export const CACHE_HEAP_FACTOR = 1.5;

/** Refuses an in-process response cache whose full budget would take more than half of `heapLimitBytes`. */
function checkCacheHeap(values: z.infer<typeof EnvSchema>, heapLimitBytes: number): void {
  const cacheInRedis = (values.RESPONSE_CACHE_REDIS_URL ?? values.REDIS_URL) !== undefined;
  const inProcessCacheHeap = values.RESPONSE_CACHE_TTL_MS > 0 && !cacheInRedis ? values.RESPONSE_CACHE_MAX_BYTES * CACHE_HEAP_FACTOR : 0;
  if (inProcessCacheHeap <= heapLimitBytes / 2) return;
  const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;
  throw ConfigError.of(
    'RESPONSE_CACHE_MAX_BYTES',
    `a full in-process cache of ${mib(values.RESPONSE_CACHE_MAX_BYTES)} may hold up to ` +
      `${mib(inProcessCacheHeap)} of heap (${CACHE_HEAP_FACTOR} × its budget), more than half this process's heap limit ` +
      `of ${mib(heapLimitBytes)}; lower it, raise the heap limit (node --max-old-space-size), or share the cache through REDIS_URL`,
  );
}

/**
 * Reads and checks the configuration. `heapLimitBytes` is the heap the process may use (V8's limit
 * by default): an in-process response cache whose budget would take more than half of it is
 * refused, since the budget alone would then bring the process near its heap limit.
 */
export function loadConfig(env: NodeJS.ProcessEnv, heapLimitBytes = getHeapStatistics().heap_size_limit): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(problems);
  }
  const values = parsed.data;
  checkCacheHeap(values, heapLimitBytes);
  const production = values.NODE_ENV === 'production';
  const rateLimitMax = values.RATE_LIMIT_MAX ?? (values.NODE_ENV === 'development' ? DEVELOPMENT_RATE_LIMIT_MAX : 0);
  const trustedDocuments = values.TRUSTED_DOCUMENTS === undefined ? null : readTrustedDocuments(values.TRUSTED_DOCUMENTS);
  return {
    port: values.PORT,
    host: values.HOST,
    partnerApiUrl: values.PARTNER_API_URL ?? null,
    partnerOpenApiUrl: values.PARTNER_OPEN_API_URL ?? values.PARTNER_API_URL ?? null,
    partnerAppKey: values.PARTNER_APP_KEY ?? null,
    simulatorAdminRoutes: values.SIMULATOR_ADMIN_ROUTES === 'true',
    upstreamTimeoutMs: values.UPSTREAM_TIMEOUT_MS,
    upstreamMaxRetries: values.UPSTREAM_MAX_RETRIES,
    // Fixed (src/tunables.ts; docs/timeouts-and-retries.md): the two knobs below are the ones an operator needs.
    upstreamBreakerFailureRatio: BREAKER_FAILURE_RATIO,
    upstreamBreakerWindowMs: BREAKER_WINDOW_MS,
    upstreamBreakerMinCalls: values.UPSTREAM_BREAKER_MIN_CALLS,
    upstreamBreakerMinDistinct: values.UPSTREAM_BREAKER_MIN_DISTINCT,
    upstreamBreakerHalfOpenMs: values.UPSTREAM_BREAKER_HALF_OPEN_MS,
    upstreamConnections: values.UPSTREAM_CONNECTIONS,
    upstreamConnectionWaitMs: values.UPSTREAM_CONNECTION_WAIT_MS,
    upstreamConnectionsPerDomain: values.UPSTREAM_CONNECTIONS_PER_DOMAIN ?? null,
    maxOperationsInFlight: values.MAX_OPERATIONS_IN_FLIGHT,
    operationTimeoutMs: values.OPERATION_TIMEOUT_MS,
    pageMaxPartnerCalls: values.PAGE_MAX_PARTNER_CALLS,
    livePollIntervalMs: values.LIVE_POLL_INTERVAL_MS,
    liveSubscriptionsMax: values.LIVE_SUBSCRIPTIONS_MAX,
    liveSubscriptionsPerCredential: values.LIVE_SUBSCRIPTIONS_PER_CREDENTIAL,
    maxQueryBytes: values.MAX_QUERY_BYTES,
    httpHeadersTimeoutMs: values.HTTP_HEADERS_TIMEOUT_MS,
    httpRequestTimeoutMs: values.HTTP_REQUEST_TIMEOUT_MS,
    httpWriteTimeoutMs: values.HTTP_WRITE_TIMEOUT_MS,
    httpMaxConnections: values.HTTP_MAX_CONNECTIONS,
    listingFeeBatchMax: values.LISTING_FEE_BATCH_MAX,
    maxBodyBytes: values.MAX_BODY_BYTES,
    clientNamesMax: values.CLIENT_NAMES_MAX,
    logLevel: values.LOG_LEVEL,
    production,
    tracing: tracingOf(values),
    trustedDocuments,
    trustedDocumentsOnly: trustedDocuments !== null && (values.TRUSTED_DOCUMENTS_ONLY ?? String(production)) === 'true',
    ...cacheAndRedisOf(values),
    rateLimit:
      rateLimitMax > 0
        ? { max: rateLimitMax, windowMs: values.RATE_LIMIT_WINDOW_MS, proxyHops: values.RATE_LIMIT_PROXY_HOPS }
        : null,
  };
}

/**
 * A manifest key or document id: the sha256 of the document, as lowercase hex, bare or with the
 * `sha256:` prefix that GraphQL Code Generator's client preset 6 writes (the two name the same
 * document). The bare hex is what the service keys documents by.
 */
const DOCUMENT_ID = /^(?:sha256:)?([0-9a-f]{64})$/;

/** The bare hex sha256 a document id names, or null for an id of any other form. */
export function documentHashOf(id: string): string | null {
  return DOCUMENT_ID.exec(id)?.[1] ?? null;
}

/** Largest trusted-documents manifest read; a larger file (or a device that never ends) is refused. */
export const TRUSTED_DOCUMENTS_MAX_BYTES = 16 * 1024 * 1024;

/** The largest CA bundle read: Debian's whole ca-certificates bundle is about 220 KB. */
const REDIS_TLS_CA_MAX_BYTES = 1024 * 1024;

/** The PEM certificates of REDIS_TLS_CA_FILE, refused at start when unreadable or holding none. */
function readRedisTlsCa(path: string): string {
  const text = readSettingFile('REDIS_TLS_CA_FILE', path, REDIS_TLS_CA_MAX_BYTES);
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw ConfigError.of('REDIS_TLS_CA_FILE', `'${path}' holds no PEM certificate`);
  return text;
}

/**
 * Reads the client preset's persisted-documents manifest. Each key must be the sha256 of its
 * document's text, so that a hash a client sends names exactly the text the service runs. The
 * answer is keyed by bare hex whichever form the file used.
 */
export function readTrustedDocuments(path: string): TrustedDocumentsManifest {
  const refuse = (reason: string) => ConfigError.of('TRUSTED_DOCUMENTS', reason);
  const text = readSettingFile('TRUSTED_DOCUMENTS', path, TRUSTED_DOCUMENTS_MAX_BYTES);
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    throw refuse(`'${path}' is not JSON`);
  }
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    throw refuse(`'${path}' must hold one JSON object of {"sha256:<hex>": "<document>"}`);
  }
  const documents: Record<string, string> = {};
  for (const [key, document] of Object.entries(manifest)) {
    const bare = documentHashOf(key);
    if (bare === null) throw refuse(`key '${key.slice(0, 80)}' in '${path}' is not a lowercase hex sha256 (bare or 'sha256:')`);
    if (typeof document !== 'string' || document.trim() === '') throw refuse(`the document of '${key}' in '${path}' is not a string`);
    if (hash('sha256', document, 'hex') !== bare) {
      throw refuse(`key '${key}' in '${path}' is not the sha256 of its document`);
    }
    if (Object.hasOwn(documents, bare)) throw refuse(`'${path}' names the document '${bare}' twice`);
    documents[bare] = document;
  }
  return documents;
}

/** The text of the file a setting names, or a ConfigError naming the setting and why it cannot be read. */
function readSettingFile(variable: string, path: string, maxBytes: number): string {
  try {
    return readCapped(path, maxBytes);
  } catch (error) {
    if (error instanceof RangeError) throw ConfigError.of(variable, `'${path}' ${error.message}`);
    throw ConfigError.of(variable, `cannot read '${path}' (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

/**
 * A regular file's text, refused (RangeError) past maxBytes or when the path is not a regular
 * file: a device such as /dev/zero would otherwise be read until memory runs out.
 */
function readCapped(path: string, maxBytes: number): string {
  const fd = openSync(path, 'r');
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new RangeError('is not a regular file');
    if (stat.size > maxBytes) throw new RangeError(`is ${stat.size} bytes, over the ${maxBytes}-byte limit`);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** The response cache's and Redis's settings. */
function cacheAndRedisOf(values: z.infer<typeof EnvSchema>) {
  return {
    responseCacheTtlMs: values.RESPONSE_CACHE_TTL_MS,
    responseCacheMaxBytes: values.RESPONSE_CACHE_MAX_BYTES,
    responseCacheMaxEntryBytes: values.RESPONSE_CACHE_MAX_ENTRY_BYTES,
    responseCacheStaleIfErrorMs: values.RESPONSE_CACHE_STALE_IF_ERROR_MS,
    redisUrl: values.REDIS_URL ?? null,
    responseCacheRedisUrl: values.RESPONSE_CACHE_REDIS_URL ?? null,
    redisCommandTimeoutMs: values.REDIS_COMMAND_TIMEOUT_MS,
    redisValueKey: values.REDIS_VALUE_KEY ?? null,
    redisTlsCa: values.REDIS_TLS_CA_FILE === undefined ? null : readRedisTlsCa(values.REDIS_TLS_CA_FILE),
  } satisfies Partial<Config>;
}

function tracingOf(values: z.infer<typeof EnvSchema>): Config['tracing'] {
  if (values.OTEL_SDK_DISABLED === 'true') return null;
  // The signal-specific variable is used as is; the general one gets the traces path appended.
  const tracesUrl =
    values.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (values.OTEL_EXPORTER_OTLP_ENDPOINT && `${values.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`);
  return tracesUrl ? { tracesUrl, serviceName: values.OTEL_SERVICE_NAME } : null;
}
