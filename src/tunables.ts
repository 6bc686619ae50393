// The service's fixed tunables: numbers an operator does not set (those are in config.ts), each
// with why it has its value. The default page size is not here: it is the SDL's default of
// `Inventory.items(first:)`, stated once in schema/inventory.graphql.

/** How long in-flight requests may take to finish after SIGTERM (or SIGINT, SIGHUP) before connections are cut: well inside an orchestrator's usual 30 s grace. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** How long the spans still buffered at shutdown may take to reach the collector: a stalled collector must not hold the exit. */
export const TRACING_FLUSH_MS = 3_000;

/** How long one readiness probe may take (and never longer than a partner call may): a probe's own timeout is usually a few seconds. */
export const READINESS_TIMEOUT_MS = 2_000;

/** How long a readiness answer is reused, so that frequent probes from many sources cost the partner one call. */
export const READINESS_CACHE_MS = 2_000;

/** Share (0 to 1) of a window's partner calls that must be outages for the circuit to open: a majority failing is an outage, a few are noise. */
export const BREAKER_FAILURE_RATIO = 0.5;

/** The breaker's rolling window: long enough to hold UPSTREAM_BREAKER_MIN_CALLS calls, short enough to notice an outage within seconds. */
export const BREAKER_WINDOW_MS = 10_000;

/** How long connecting to Redis may take: Redis is on the same network, and a slow connect falls back to in-process state. */
export const REDIS_CONNECT_TIMEOUT_MS = 1_000;

/** How often the Redis connection is asked for a PING, to find a hung Redis and to see one come back. */
export const REDIS_HEARTBEAT_MS = 1_000;

/** Each reconnection attempt to Redis waits this much longer than the one before, up to the maximum below. */
export const REDIS_RECONNECT_STEP_MS = 100;

/** Reconnection attempts back off to this, and go on for as long as the service runs. */
export const REDIS_MAX_RECONNECT_DELAY_MS = 2_000;

/**
 * The most items one page may ask for (`first`): a page is at most a few partner calls of the
 * partner's own page size. The SDL's description of `first` states it to clients
 * (test/unit/tunables.test.ts keeps the two in step).
 */
export const MAX_PAGE_SIZE = 100;

/**
 * Unreachable failures in a row (refused, reset, connect timeout, TLS: failures no caller can cause)
 * that open the partner's circuit whatever the window held before: Envoy's outlier detection ejects a
 * host after 5 consecutive gateway failures (`consecutive_gateway_failure`), and a busy window's
 * successes must not keep answering an outage slowly.
 */
export const BREAKER_CONSECUTIVE_UNREACHABLE = 5;
