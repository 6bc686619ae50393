// The service's Prometheus metrics: GraphQL operations and partner calls, in a registry of its own
// per service (tests run several services in one process). Metric objects are made once, at start.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { PARTNER_OPERATIONS, type PartnerCallEvent, type PartnerCallObserver } from '../partner/index.js';
import { REDIS_VALUE_STORES, type RedisValueStore } from '../redis-values.js';
import { boundedLabel } from './bounded-label.js';
import { MAX_ENVELOPE_CODES } from '../tunables.js';

/**
 * The budgets of the rate limit (plugins/rate-limit.ts) that refuse with RATE_LIMITED, which an
 * operator tells apart: the caller's own (`operation`), one client's share of the unproven callers'
 * fees, and those fees as a whole, whose end refuses every caller the partner has not accepted.
 */
export const RATE_LIMIT_BUDGETS = ['operation', 'unproven_fees_client_share', 'unproven_fees_total'] as const;
export type RateLimitBudget = (typeof RATE_LIMIT_BUDGETS)[number];

/** How one GraphQL operation ended: no errors, data with errors, or errors and no data. */
export type OperationOutcome = 'ok' | 'partial' | 'error';

export interface OperationObservation {
  operationName: string;
  operationType: string;
  outcome: OperationOutcome;
  /** The distinct `extensions.code` values of the errors, in order of first appearance. */
  errorCodes: readonly string[];
  durationSeconds: number;
  /** The client's name and version, already bounded (client-identity.ts). */
  clientName: string;
  clientVersion: string;
}

export interface UpstreamCircuit {
  upstream: string;
  open: boolean;
}

export interface TradegraphMetrics {
  registry: Registry;
  observeOperation(observation: OperationObservation): void;
  /** Counts one operation's use of a deprecated schema coordinate, for a client name (bounded). */
  countDeprecatedUse(coordinate: string, clientName: string): void;
  /** Counts each partner call as the client reports it. */
  partnerCalls: PartnerCallObserver;
  /** Reads the circuit breakers' state at scrape time. */
  watchCircuits(read: () => UpstreamCircuit[]): void;
  /** Reads whether the shared Redis is reachable at scrape time (only when REDIS_URL is set). */
  watchRedis(isUp: () => boolean): void;
  /** The same for the response cache's own Redis (only when RESPONSE_CACHE_REDIS_URL is set). */
  watchResponseCacheRedis(isUp: () => boolean): void;
  /** Reads the in-process response cache's size and budget at scrape time (only when it is on, without Redis). */
  watchResponseCache(read: () => { bytes: number; entries: number; maxBytes: number }): void;
  /** Counts one lookup of a cacheable query in the response cache, by how it ended. */
  countResponseCacheLookup(result: 'hit' | 'miss' | 'stale'): void;
  /** Counts one request refused RATE_LIMITED by the service's rate limit, by the budget that refused it. */
  countRateLimitRefusal(budget: RateLimitBudget): void;
  /** Counts one value read from Redis without a valid tag of this service (a miss), by the store that read it. */
  countRedisValueRejected(store: RedisValueStore): void;
  /** Reads the GraphQL requests admitted and not yet answered (MAX_OPERATIONS_IN_FLIGHT's count) at scrape time. */
  watchOperationsInFlight(read: () => number): void;
  /** Counts an answer cut because its client stopped reading it (HTTP_WRITE_TIMEOUT_MS). */
  countAnswerCut(): void;
  /** Counts a GraphQL request refused with 503 at MAX_OPERATIONS_IN_FLIGHT, before Yoga saw it. */
  countShed(): void;
  /** Counts one compression started (an answer's, or a cached answer's data once), by encoding. */
  countCompression(encoding: 'br' | 'gzip'): void;
  /** Counts an answer dropped for a 503 because the answers in flight held ANSWER_BYTES_IN_FLIGHT. */
  countAnswerRefused(): void;
  /** Counts one poll of a live inventory and the subscribers it served (all but one are polls saved by sharing); a poll heard from another replica saves one for each. */
  countLivePoll(subscribers: number, heard?: boolean): void;
  /** Reads the live subscriptions open on this replica at each scrape. */
  watchLiveSubscriptions(read: () => number): void;
}

// Seconds; from a cache-hot facade call (~1 ms) to a partner call near the default 5 s timeout.
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Envelope error codes come from the partner: only short integers become label values. */
const ENVELOPE_CODE = /^-?\d{1,10}$/;

/**
 * prom-client's default series (process_*, nodejs_*) describe the process, not one service, and
 * their collectors (a GC observer, an event-loop delay monitor) are never stopped: made once per
 * process and registered in every service's registry, rather than made again, and kept, per service.
 */
let processMetrics: Registry | undefined;

function processMetricsRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}

export function createMetrics(): TradegraphMetrics {
  const registry = new Registry();
  const shared = processMetricsRegistry();
  for (const { name } of shared.getMetricsAsArray()) registry.registerMetric(shared.getSingleMetric(name)!);
  return {
    registry,
    // In the order the series are listed in a scrape.
    ...operationMetrics(registry),
    ...refusalAndCacheMetrics(registry),
    partnerCalls: partnerCallMetrics(registry),
    ...scrapeTimeWatches(registry),
    ...httpServerMetrics(registry),
    ...liveMetrics(registry),
  };
}

/** The GraphQL operations' series: duration and errors by operation, and by client. */
function operationMetrics(registry: Registry): Pick<TradegraphMetrics, 'observeOperation' | 'countDeprecatedUse'> {
  const operationDuration = new Histogram({
    name: 'tradegraph_graphql_operation_duration_seconds',
    help: 'Time from reading a GraphQL request to its response, by operation and outcome.',
    labelNames: ['operation_name', 'operation_type', 'outcome'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const operationErrors = new Counter({
    name: 'tradegraph_graphql_errors_total',
    help: 'GraphQL errors answered, by operation and extensions.code.',
    labelNames: ['operation_name', 'operation_type', 'code'] as const,
    registers: [registry],
  });
  const clients = clientMetrics(registry);
  return {
    observeOperation({ operationName, operationType, outcome, errorCodes, durationSeconds, clientName, clientVersion }) {
      operationDuration.observe({ operation_name: operationName, operation_type: operationType, outcome }, durationSeconds);
      clients.operations.inc({ client_name: clientName, client_version: clientVersion, outcome });
      for (const code of errorCodes) operationErrors.inc({ operation_name: operationName, operation_type: operationType, code });
    },
    countDeprecatedUse(coordinate, clientName) {
      clients.deprecatedUsage.inc({ field: coordinate, client_name: clientName });
    },
  };
}

/** Gauges read at scrape time from parts made after the metrics (circuits, Redis, the in-process cache). */
function scrapeTimeWatches(registry: Registry): Pick<TradegraphMetrics, 'watchCircuits' | 'watchRedis' | 'watchResponseCacheRedis' | 'watchResponseCache'> {
  return {
    watchCircuits(read) {
      new Gauge({
        name: 'tradegraph_upstream_circuit_open',
        help: "1 while the circuit breaker of an upstream base is open (calls fail fast), else 0.",
        labelNames: ['upstream'] as const,
        registers: [registry],
        collect() {
          for (const { upstream, open } of read()) this.set({ upstream }, open ? 1 : 0);
        },
      });
    },
    watchRedis(isUp) {
      upGauge(registry, 'tradegraph_redis_up', 'the shared Redis (response cache, rate-limit counts)', 'each replica then works on its own', isUp);
    },
    watchResponseCacheRedis(isUp) {
      upGauge(registry, 'tradegraph_response_cache_redis_up', "the response cache's own Redis", 'the cache is bypassed meanwhile', isUp);
    },
    watchResponseCache(read) {
      responseCacheGauges(registry, read);
    },
  };
}

/** The response cache's lookups, the rate limit's refusals, and the values read from Redis that this service did not write. */
function refusalAndCacheMetrics(registry: Registry): Pick<TradegraphMetrics, 'countResponseCacheLookup' | 'countRateLimitRefusal' | 'countRedisValueRejected'> {
  const responseCacheLookups = new Counter({
    name: 'tradegraph_response_cache_lookups_total',
    help: "Lookups of cacheable queries in the response cache: 'hit' (a fresh answer), 'miss' (the query ran), 'stale' (an outage answered with the last good answer).",
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const rateLimitRefusals = knownLabelCounter(
    registry,
    'tradegraph_rate_limit_refusals_total',
    "Requests refused RATE_LIMITED by this service's rate limit, by budget: 'operation' (the caller's own), 'unproven_fees_client_share' (one client's share of the fees of callers the partner has not accepted), 'unproven_fees_total' (those fees as a whole: every such caller is refused).",
    'budget',
    RATE_LIMIT_BUDGETS,
  );
  const redisValuesRejected = knownLabelCounter(
    registry,
    'tradegraph_redis_values_rejected_total',
    "Values read from Redis without a valid tag of this service (planted, copied from another key, or written under another REDIS_VALUE_KEY), each treated as a miss, by store: 'response_cache', 'accepted_credentials', 'live_results'.",
    'store',
    REDIS_VALUE_STORES,
  );
  return {
    countResponseCacheLookup(result) {
      responseCacheLookups.inc({ result });
    },
    countRedisValueRejected(store) {
      redisValuesRejected.inc({ store });
    },
    countRateLimitRefusal(budget) {
      rateLimitRefusals.inc({ budget });
    },
  };
}

/**
 * A counter of one label whose values are known in advance, each series made at 0 from the first
 * scrape (Prometheus' instrumentation guide): rate() and increase() see the first event of a series
 * only if the series was there before it.
 */
function knownLabelCounter<Label extends string>(registry: Registry, name: string, help: string, label: Label, values: readonly string[]): Counter<Label> {
  const counter = new Counter<Label>({ name, help, labelNames: [label], registers: [registry] });
  for (const value of values) counter.inc({ [label]: value } as Partial<Record<Label, string>>, 0);
  return counter;
}

/** The partner calls' series: count, duration, retries, and the calls coalescing saved. */
function partnerCallMetrics(registry: Registry): TradegraphMetrics['partnerCalls'] {
  const upstreamCalls = new Counter({
    name: 'tradegraph_upstream_calls_total',
    help: "Partner API calls, by partner operation, outcome ('ok' or the error code) and the envelope's errorCode.",
    labelNames: ['operation', 'outcome', 'upstream_error_code'] as const,
    registers: [registry],
  });
  const upstreamDuration = new Histogram({
    name: 'tradegraph_upstream_call_duration_seconds',
    help: 'Partner API call duration, retries included, by partner operation and outcome.',
    labelNames: ['operation', 'outcome'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const upstreamCoalesced = knownLabelCounter(
    registry,
    'tradegraph_upstream_calls_coalesced_total',
    'Partner API calls not sent because an identical call (same request, same credential) was in flight: calls saved, by partner operation.',
    'operation',
    PARTNER_OPERATIONS,
  );
  const upstreamRetries = knownLabelCounter(registry, 'tradegraph_upstream_retries_total', 'Partner API attempts beyond the first, by partner operation.', 'operation', PARTNER_OPERATIONS);

  const seenEnvelopeCode = boundedLabel(MAX_ENVELOPE_CODES);
  const envelopeCodeLabel = (code: unknown): string => {
    if (code === undefined || code === null) return '';
    const text = String(code);
    return ENVELOPE_CODE.test(text) ? seenEnvelopeCode(text) : 'other';
  };

  return {
    callEnded(event: PartnerCallEvent) {
      upstreamCalls.inc({ operation: event.operation, outcome: event.outcome, upstream_error_code: envelopeCodeLabel(event.upstreamErrorCode) });
      upstreamDuration.observe({ operation: event.operation, outcome: event.outcome }, event.durationMs / 1000);
      if (event.attempts > 1) upstreamRetries.inc({ operation: event.operation }, event.attempts - 1);
    },
    callCoalesced(call) {
      upstreamCoalesced.inc({ operation: call.operation });
    },
  };
}

/** The series by client: its operations, and its uses of deprecated schema coordinates. */
function clientMetrics(registry: Registry) {
  // Apart from the duration histogram, whose buckets would multiply the series by clients and versions.
  const clientOperations = new Counter({
    name: 'tradegraph_client_operations_total',
    help: 'GraphQL operations by client (graphql-client-name or apollographql-client-name header), client version and outcome.',
    labelNames: ['client_name', 'client_version', 'outcome'] as const,
    registers: [registry],
  });
  const deprecatedUsage = new Counter({
    name: 'tradegraph_deprecated_field_usage_total',
    help: 'Operations that used a deprecated field, argument, input field or enum value, by schema coordinate and client name.',
    labelNames: ['field', 'client_name'] as const,
    registers: [registry],
  });
  // Coordinates come from the schema's own deprecations, names are bounded: both label sets are finite.
  return { operations: clientOperations, deprecatedUsage };
}

/** Live inventories' (docs/live-inventories.md): open subscriptions, polls, and polls saved by sharing. */
function liveMetrics(registry: Registry): Pick<TradegraphMetrics, 'countLivePoll' | 'watchLiveSubscriptions'> {
  const polls = new Counter({ name: 'tradegraph_live_polls_total', help: 'Polls of live inventories: one per group of subscribers per interval.', registers: [registry] });
  const saved = new Counter({
    name: 'tradegraph_live_polls_saved_total',
    help: "Polls of live inventories saved by sharing: the subscribers a poll served beyond the first, and every subscriber served a poll heard from another replica (Redis).",
    registers: [registry],
  });
  return {
    countLivePoll(subscribers, heard = false) {
      if (heard) return void saved.inc(subscribers);
      polls.inc();
      if (subscribers > 1) saved.inc(subscribers - 1);
    },
    watchLiveSubscriptions(read) {
      scrapeTimeGauge(registry, 'tradegraph_live_subscriptions', 'Live inventory subscriptions open on this replica.', read);
    },
  };
}

/** The HTTP server's: the operations it works on, and the answers it cut. */
function httpServerMetrics(
  registry: Registry,
): Pick<TradegraphMetrics, 'watchOperationsInFlight' | 'countAnswerCut' | 'countShed' | 'countCompression' | 'countAnswerRefused'> {
  const answersCut = new Counter({
    name: 'tradegraph_http_answers_cut_total',
    help: 'Answers cut because their client stopped reading them: nothing more of them left within HTTP_WRITE_TIMEOUT_MS.',
    registers: [registry],
  });
  // Apart from the operations' series: a shed request never reaches Yoga, so nothing else counts it.
  const shed = new Counter({
    name: 'tradegraph_http_requests_shed_total',
    help: 'GraphQL requests refused with 503 (OVERLOADED) because MAX_OPERATIONS_IN_FLIGHT were being worked on.',
    registers: [registry],
  });
  const compressions = knownLabelCounter(
    registry,
    'tradegraph_http_compressions_total',
    'Compressions started, by encoding: one per answer compressed, and one per cached answer and encoding, whose hits reuse it.',
    'encoding',
    ['br', 'gzip'],
  );
  const answersRefused = new Counter({
    name: 'tradegraph_http_answers_refused_total',
    help: 'Answers dropped and refused with 503 (OVERLOADED) because the answers in flight held ANSWER_BYTES_IN_FLIGHT.',
    registers: [registry],
  });
  return {
    countCompression(encoding) {
      compressions.labels(encoding).inc();
    },
    countAnswerRefused() {
      answersRefused.inc();
    },
    watchOperationsInFlight(read) {
      scrapeTimeGauge(
        registry,
        'tradegraph_operations_in_flight',
        'GraphQL requests admitted and not yet answered; at MAX_OPERATIONS_IN_FLIGHT, more are refused with 503.',
        read,
      );
    },
    countAnswerCut() {
      answersCut.inc();
    },
    countShed() {
      shed.inc();
    },
  };
}

/** The in-process response cache's size and budget, read at scrape time. */
function responseCacheGauges(registry: Registry, read: () => { bytes: number; entries: number; maxBytes: number }): void {
  scrapeTimeGauge(
    registry,
    'tradegraph_response_cache_bytes',
    'Bytes of heap the in-process response cache\'s answers are weighed at (at most RESPONSE_CACHE_MAX_BYTES).',
    () => read().bytes,
  );
  scrapeTimeGauge(registry, 'tradegraph_response_cache_entries', 'Answers the in-process response cache holds, stale ones kept for an outage included.', () => read().entries);
  scrapeTimeGauge(registry, 'tradegraph_response_cache_max_bytes', "The in-process response cache's budget (RESPONSE_CACHE_MAX_BYTES).", () => read().maxBytes);
}

/** A gauge without labels whose value is read when /metrics is scraped (prom-client's `collect`). */
function scrapeTimeGauge(registry: Registry, name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}

/** A gauge of 1 while `what` is reachable, else 0 (`meanwhile`: what the service does then), read at scrape time. */
function upGauge(registry: Registry, name: string, what: string, meanwhile: string, isUp: () => boolean): void {
  scrapeTimeGauge(registry, name, `1 while ${what} is reachable, else 0 (${meanwhile}).`, () => (isUp() ? 1 : 0));
}
