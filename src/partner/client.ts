// The one HTTP client of the partner API, one instance per upstream base: a keep-alive pool, the
// overall per-call timeout, retries of idempotent calls, a circuit breaker, the HTTP status
// mapping and the envelope. Operation modules (inventory.ts, listing-fee.ts) build on `call`.
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';
import {
  BrokenCircuitError,
  ConsecutiveBreaker,
  ExponentialBackoff,
  circuitBreaker,
  handleWhen,
  retry,
  type CircuitBreakerPolicy,
  type RetryPolicy,
} from 'cockatiel';
import type { Logger } from 'pino';
import type { Span } from '@opentelemetry/api';
import {
  ErrorCode,
  ForbiddenError,
  PartnerEnvelopeError,
  RateLimitedError,
  TradegraphError,
  UnauthenticatedError,
  UpstreamBadResponseError,
  UpstreamTimeoutError,
  UpstreamUnavailableError,
} from '../errors.js';
import { endPartnerCallSpan, injectTraceContext, startPartnerCallSpan } from '../observability/partner-spans.js';
import { unwrapEnvelope } from './envelope.js';
import { redactSecrets } from './redact.js';

/** One finished partner call, as reported to observers (metrics, tracing). Never holds a secret. */
export interface PartnerCallEvent {
  operation: string;
  /**
   * 'ok'; 'cancelled' when the client that asked for the call went away (not a partner fault);
   * otherwise the error code the call failed with.
   */
  outcome: 'ok' | 'cancelled' | ErrorCode;
  /** The envelope's errorCode when the outcome is UPSTREAM_ERROR. */
  upstreamErrorCode?: unknown;
  httpStatus?: number;
  durationMs: number;
  attempts: number;
}

export interface PartnerClientOptions {
  /** The upstream base, e.g. https://partner.example/api-prefix (a path prefix is kept). */
  baseUrl: string;
  timeoutMs: number;
  logger: Logger;
  /** Retries after the first attempt, for idempotent calls only. */
  maxRetries?: number;
  /** Consecutive failures that open the circuit, and how long it stays open before a probe. */
  breakerThreshold?: number;
  breakerHalfOpenAfterMs?: number;
  /** Largest response body accepted; a larger one is UPSTREAM_BAD_RESPONSE. */
  maxResponseBytes?: number;
  connections?: number;
  onCall?: (event: PartnerCallEvent) => void;
}

export interface PartnerCall {
  /** A short name for logs, metrics and error messages, e.g. 'readInventory'. */
  operation: string;
  method: 'GET' | 'POST';
  /** Path below the base, starting with '/'. */
  path: string;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  body?: unknown;
  /** Idempotent calls are retried on connection errors and 502/503/504. */
  idempotent: boolean;
  /** Values that must never reach a log or an error (tokens, keys); scrubbed from upstream errors. */
  secrets?: readonly string[];
  /** Aborts the call when the client that asked for it goes away. */
  signal?: AbortSignal;
  requestId?: string;
}

/** A transient failure worth another attempt: no answer, or a gateway that may recover. */
class RetryableFailure extends Error {
  constructor(readonly failure: TradegraphError) {
    super(failure.message);
  }
}

/** The client that asked for the call went away; not an outage of the partner API. */
class ClientGoneError extends Error {
  constructor() {
    super('the client closed the request');
  }
}

const RETRYABLE_STATUS = new Set([502, 503, 504]);

// Indexed by cockatiel's CircuitState enum (Closed, Open, HalfOpen, Isolated).
const CIRCUIT_STATE_NAMES = ['closed', 'open', 'halfOpen', 'isolated'];

export class PartnerClient {
  private readonly pool: Pool;
  private readonly origin: string;
  private readonly pathPrefix: string;
  private readonly breaker: CircuitBreakerPolicy;
  private readonly retryPolicy: RetryPolicy;
  private readonly maxResponseBytes: number;

  constructor(private readonly options: PartnerClientOptions) {
    const base = new URL(options.baseUrl);
    this.origin = base.origin;
    this.pathPrefix = base.pathname.replace(/\/+$/, '');
    this.maxResponseBytes = options.maxResponseBytes ?? 16 * 1024 * 1024;
    this.pool = new Pool(this.origin, {
      connections: options.connections ?? 64,
      keepAliveTimeout: 30_000,
      connect: { timeout: options.timeoutMs },
      // A larger body (declared or streamed) fails the call as UND_ERR_RES_EXCEEDED_MAX_SIZE.
      maxResponseSize: this.maxResponseBytes,
    });
    // Only outages count towards opening the circuit: an envelope error or a 4xx is an answer.
    this.breaker = circuitBreaker(
      handleWhen((error) => isOutage(error)),
      {
        halfOpenAfter: options.breakerHalfOpenAfterMs ?? 5_000,
        breaker: new ConsecutiveBreaker(options.breakerThreshold ?? 5),
      },
    );
    this.retryPolicy = retry(
      handleWhen((error) => error instanceof RetryableFailure),
      {
        maxAttempts: options.maxRetries ?? 2,
        backoff: new ExponentialBackoff({ initialDelay: 50, maxDelay: 400 }),
      },
    );
  }

  /** Sends one partner call and returns the envelope's `data`, or throws a TradegraphError. */
  async call(call: PartnerCall): Promise<unknown> {
    const started = performance.now();
    const span = startPartnerCallSpan(call, this.origin, this.pathPrefix + call.path);
    const abort = new CallAbort(this.options.timeoutMs, call.signal);
    let attempts = 0;
    let httpStatus: number | undefined;
    const attempt = async (): Promise<unknown> => {
      attempts += 1;
      const result = await this.breaker.execute(() => this.send(call, abort, span));
      httpStatus = result.status;
      return result.data;
    };
    try {
      const data = call.idempotent ? await this.retryPolicy.execute(attempt, abort.signal) : await attempt();
      this.report(call, span, started, attempts, 'ok', httpStatus);
      return data;
    } catch (caught) {
      const error = this.toTradegraphError(call, caught, abort);
      // A caller that left is not a partner outage: it must not page anyone through logs or metrics.
      this.report(call, span, started, attempts, abort.clientGone ? 'cancelled' : error.code, httpStatus, error);
      throw error;
    } finally {
      abort.dispose();
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  /** 'closed', 'halfOpen', 'open' or 'isolated'; for readiness and metrics. */
  get circuitState(): string {
    return CIRCUIT_STATE_NAMES[this.breaker.state] ?? 'unknown';
  }

  /**
   * Whether the upstream answers HTTP at all: a HEAD of the base path, with no credential and
   * outside the breaker and retries. Any status proves reachability.
   */
  async probe(timeoutMs: number): Promise<{ reachable: boolean; httpStatus?: number; error?: string }> {
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      const response = await this.pool.request({ method: 'HEAD', path: this.pathPrefix + '/', signal: timeout });
      await response.body.dump().catch(() => undefined);
      return { reachable: true, httpStatus: response.statusCode };
    } catch (error) {
      const code = (error as { code?: string } | null)?.code;
      return { reachable: false, error: timeout.aborted ? 'timeout' : (code ?? 'connection failed') };
    }
  }

  private async send(call: PartnerCall, abort: CallAbort, span: Span): Promise<{ status: number; data: unknown }> {
    const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
    if (call.requestId) headers['x-request-id'] = call.requestId;
    injectTraceContext(span, headers);
    let body: string | undefined;
    if (call.body !== undefined) {
      body = JSON.stringify(call.body);
      headers['content-type'] = 'application/json';
    }
    let response: Dispatcher.ResponseData;
    try {
      response = await this.pool.request({
        method: call.method,
        path: this.pathPrefix + call.path + queryString(call.query),
        headers,
        body,
        signal: abort.signal,
      });
    } catch (error) {
      throw this.requestFailure(call, error, abort);
    }
    const { statusCode } = response;
    if (statusCode !== 200) {
      await response.body.dump().catch(() => undefined);
      throw this.statusFailure(call, statusCode, response.headers);
    }
    let text: string;
    try {
      // undici's own reader: the pool's maxResponseSize bounds it (see the constructor).
      text = await response.body.text();
    } catch (error) {
      throw this.requestFailure(call, error, abort);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new UpstreamBadResponseError(call.operation, 'the body is not JSON');
    }
    try {
      return { status: statusCode, data: unwrapEnvelope(call.operation, parsed) };
    } catch (error) {
      if (error instanceof PartnerEnvelopeError && call.secrets?.length) {
        throw new PartnerEnvelopeError(call.operation, redactSecrets(error.upstream, call.secrets));
      }
      throw error;
    }
  }

  /**
   * Classifies a failure to get an answer: our timeout, the client leaving, a body over the size
   * limit, or the connection.
   */
  private requestFailure(call: PartnerCall, error: unknown, abort: CallAbort): Error {
    if (abort.timedOut) return new UpstreamTimeoutError(call.operation, this.options.timeoutMs);
    if (abort.clientGone) return new ClientGoneError();
    const code = (error as { code?: string } | null)?.code;
    if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
      return new UpstreamBadResponseError(call.operation, `the body exceeds ${this.maxResponseBytes} bytes`);
    }
    return new RetryableFailure(
      new UpstreamUnavailableError(call.operation, `the connection failed (${code ?? 'unknown error'})`),
    );
  }

  private statusFailure(
    call: PartnerCall,
    status: number,
    headers: Dispatcher.ResponseData['headers'],
  ): Error {
    switch (status) {
      case 401:
        return new UnauthenticatedError(`The partner API refused the access token for '${call.operation}' (HTTP 401).`);
      case 403:
        return new ForbiddenError(
          `The access token lacks the permission '${call.operation}' needs (HTTP 403).`,
        );
      case 429:
        return new RateLimitedError(
          `The partner API is rate limiting '${call.operation}' (HTTP 429).`,
          parseRetryAfter(headers['retry-after']),
        );
    }
    if (status >= 500) {
      const failure = new UpstreamUnavailableError(call.operation, `it answered HTTP ${status}`);
      return RETRYABLE_STATUS.has(status) ? new RetryableFailure(failure) : failure;
    }
    return new UpstreamBadResponseError(call.operation, `unexpected HTTP status ${status}`);
  }

  private toTradegraphError(call: PartnerCall, caught: unknown, abort: CallAbort): TradegraphError {
    if (caught instanceof RetryableFailure) return caught.failure;
    if (caught instanceof TradegraphError) return caught;
    if (caught instanceof BrokenCircuitError) {
      return new UpstreamUnavailableError(call.operation, 'its circuit is open after repeated failures');
    }
    if (abort.timedOut) return new UpstreamTimeoutError(call.operation, this.options.timeoutMs);
    if (caught instanceof ClientGoneError || abort.clientGone) {
      return new UpstreamUnavailableError(call.operation, 'the client closed the request');
    }
    this.options.logger.error({ err: caught, operation: call.operation }, 'unexpected partner client failure');
    return new UpstreamUnavailableError(call.operation, 'an unexpected client failure');
  }

  private report(
    call: PartnerCall,
    span: Span,
    started: number,
    attempts: number,
    outcome: PartnerCallEvent['outcome'],
    httpStatus: number | undefined,
    error?: TradegraphError,
  ): void {
    const event: PartnerCallEvent = {
      operation: call.operation,
      outcome,
      httpStatus,
      durationMs: performance.now() - started,
      attempts,
    };
    if (error instanceof PartnerEnvelopeError) event.upstreamErrorCode = error.upstream.errorCode;
    const { logger } = this.options;
    const level = outcome === 'ok' || outcome === 'cancelled' ? 'debug' : 'warn';
    // Built only when the line is written: a successful call logs nothing at the usual info level.
    if (logger.isLevelEnabled(level)) {
      // The path is logged without its query string: the query carries the access token.
      const log = { ...event, method: call.method, path: call.path, requestId: call.requestId };
      if (outcome === 'ok') logger.debug(log, 'partner call');
      else if (outcome === 'cancelled') logger.debug(log, 'partner call cancelled: the client went away');
      else logger.warn(log, 'partner call failed');
    }
    endPartnerCallSpan(span, event);
    this.options.onCall?.(event);
  }
}

function isOutage(error: Error): boolean {
  const failure = error instanceof RetryableFailure ? error.failure : error;
  return failure instanceof UpstreamUnavailableError || failure instanceof UpstreamTimeoutError;
}

function queryString(query: PartnerCall['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.append(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Retry-After is either delta-seconds or an HTTP date; answers whole seconds from now. */
export function parseRetryAfter(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text.trim());
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/**
 * One call's abort signal: it fires when the overall timeout passes or when the client that asked
 * for the call goes away, and says which. One controller and one timer per call, both released
 * when the call settles (AbortSignal.timeout would keep its timer, and AbortSignal.any its links,
 * alive for the whole timeout after the call is done).
 */
class CallAbort {
  timedOut = false;
  clientGone = false;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;

  constructor(
    timeoutMs: number,
    private readonly clientSignal: AbortSignal | undefined,
  ) {
    this.timer = setTimeout(this.onTimeout, timeoutMs);
    if (clientSignal?.aborted) this.onClientGone();
    else clientSignal?.addEventListener('abort', this.onClientGone);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.clientSignal?.removeEventListener('abort', this.onClientGone);
  }

  private readonly onTimeout = () => {
    this.timedOut = true;
    this.controller.abort();
  };

  private readonly onClientGone = () => {
    if (this.timedOut) return;
    this.clientGone = true;
    this.controller.abort();
  };
}
