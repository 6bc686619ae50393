// The service's configuration, read from the environment once at start and validated: a bad value
// stops the service with a message that names the variable.
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

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
const redisUrl = urlWith(/^rediss?:$/, 'must be a redis:// or rediss:// URL');

const integer = (min: number, max: number) => {
  const range = `must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ invalid_type_error: range }).int(range).min(min, range).max(max, range);
};

const EnvSchema = z.object({
  PORT: z.preprocess(emptyAsUnset, integer(0, 65_535).default(4000)),
  HOST: z.preprocess(emptyAsUnset, z.string().default('0.0.0.0')),
  PARTNER_API_URL: z.preprocess(emptyAsUnset, httpUrl.optional()),
  PARTNER_OPEN_API_URL: z.preprocess(emptyAsUnset, httpUrl.optional()),
  PARTNER_APP_KEY: z.preprocess(emptyAsUnset, z.string().optional()),
  UPSTREAM_TIMEOUT_MS: z.preprocess(emptyAsUnset, integer(1, 120_000).default(5000)),
  UPSTREAM_MAX_RETRIES: z.preprocess(emptyAsUnset, integer(0, 10).default(2)),
  UPSTREAM_BREAKER_THRESHOLD: z.preprocess(emptyAsUnset, integer(1, 1000).default(5)),
  UPSTREAM_BREAKER_HALF_OPEN_MS: z.preprocess(emptyAsUnset, integer(10, 600_000).default(5000)),
  LISTING_FEE_BATCH_MAX: z.preprocess(emptyAsUnset, integer(1, 1000).default(50)),
  MAX_BODY_BYTES: z.preprocess(emptyAsUnset, integer(1024, 64 * 1024 * 1024).default(1024 * 1024)),
  LOG_LEVEL: z.preprocess(emptyAsUnset, z.enum(LOG_LEVELS).default('info')),
  NODE_ENV: z.preprocess(emptyAsUnset, z.enum(['development', 'production', 'test']).default('development')),
  // OpenTelemetry's own variable names, so the usual collector setup switches tracing on.
  OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess(emptyAsUnset, httpUrl.optional()),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.preprocess(emptyAsUnset, httpUrl.optional()),
  OTEL_SERVICE_NAME: z.preprocess(emptyAsUnset, z.string().default('tradegraph')),
  OTEL_SDK_DISABLED: z.preprocess(emptyAsUnset, z.enum(['true', 'false']).default('false')),
  RESPONSE_CACHE_TTL_MS: z.preprocess(emptyAsUnset, integer(0, 86_400_000).default(0)),
  REDIS_URL: z.preprocess(emptyAsUnset, redisUrl.optional()),
  RATE_LIMIT_MAX: z.preprocess(emptyAsUnset, integer(0, 1_000_000).default(0)),
  // Whole seconds: Redis expires the shared counters in seconds.
  RATE_LIMIT_WINDOW_MS: z.preprocess(
    emptyAsUnset,
    integer(1000, 86_400_000)
      .refine((ms) => ms % 1000 === 0, 'must be whole seconds (a multiple of 1000)')
      .default(60_000),
  ),
}).refine((env) => env.PARTNER_OPEN_API_URL === undefined || env.PARTNER_API_URL !== undefined, {
  // Without PARTNER_API_URL the simulator serves both operations; half a real upstream is a mistake.
  message: 'is set but PARTNER_API_URL is not (both or neither)',
  path: ['PARTNER_OPEN_API_URL'],
});

export interface Config {
  port: number;
  host: string;
  /** `{base_url}`; null means: start the embedded partner simulator and use it. */
  partnerApiUrl: string | null;
  /** `{open_api_url}`; defaults to partnerApiUrl. */
  partnerOpenApiUrl: string | null;
  partnerAppKey: string | null;
  upstreamTimeoutMs: number;
  /** Retries after the first attempt of an idempotent partner call (GET), within upstreamTimeoutMs. */
  upstreamMaxRetries: number;
  /** Consecutive partner outages that open an upstream base's circuit. */
  upstreamBreakerThreshold: number;
  /** How long an open circuit answers at once before letting one probe call through. */
  upstreamBreakerHalfOpenMs: number;
  listingFeeBatchMax: number;
  maxBodyBytes: number;
  logLevel: (typeof LOG_LEVELS)[number];
  production: boolean;
  /** OpenTelemetry tracing; null (the default) when no OTLP endpoint is configured. */
  tracing: { tracesUrl: string; serviceName: string } | null;
  /** How long a read's answer is reused for the same credential; 0 (the default) turns the cache off. */
  responseCacheTtlMs: number;
  /** Shares the response cache and the rate-limit counts between replicas; null keeps both in-process. May hold a password. */
  redisUrl: string | null;
  /** Operations per credential per window; null (the default, RATE_LIMIT_MAX=0) means no limit. */
  rateLimit: { max: number; windowMs: number } | null;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const values = parsed.data;
  return {
    port: values.PORT,
    host: values.HOST,
    partnerApiUrl: values.PARTNER_API_URL ?? null,
    partnerOpenApiUrl: values.PARTNER_OPEN_API_URL ?? values.PARTNER_API_URL ?? null,
    partnerAppKey: values.PARTNER_APP_KEY ?? null,
    upstreamTimeoutMs: values.UPSTREAM_TIMEOUT_MS,
    upstreamMaxRetries: values.UPSTREAM_MAX_RETRIES,
    upstreamBreakerThreshold: values.UPSTREAM_BREAKER_THRESHOLD,
    upstreamBreakerHalfOpenMs: values.UPSTREAM_BREAKER_HALF_OPEN_MS,
    listingFeeBatchMax: values.LISTING_FEE_BATCH_MAX,
    maxBodyBytes: values.MAX_BODY_BYTES,
    logLevel: values.LOG_LEVEL,
    production: values.NODE_ENV === 'production',
    tracing: tracingOf(values),
    responseCacheTtlMs: values.RESPONSE_CACHE_TTL_MS,
    redisUrl: values.REDIS_URL ?? null,
    rateLimit: values.RATE_LIMIT_MAX > 0 ? { max: values.RATE_LIMIT_MAX, windowMs: values.RATE_LIMIT_WINDOW_MS } : null,
  };
}

function tracingOf(values: z.infer<typeof EnvSchema>): Config['tracing'] {
  if (values.OTEL_SDK_DISABLED === 'true') return null;
  // The signal-specific variable is used as is; the general one gets the traces path appended.
  const tracesUrl =
    values.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (values.OTEL_EXPORTER_OTLP_ENDPOINT && `${values.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`);
  return tracesUrl ? { tracesUrl, serviceName: values.OTEL_SERVICE_NAME } : null;
}
