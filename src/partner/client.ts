// The one HTTP client of the partner API, one instance per upstream base, in small steps after
// Apollo's RESTDataSource (see PartnerClient). Observers (metrics, logs, tracing) hear of each
// call; none is imported here.
import { hash } from 'node:crypto';
import { Pool } from 'undici';
import { OverloadedError, TradegraphError, UpstreamTimeoutError, UpstreamUnavailableError, type ErrorCode } from '../errors.js';
import { PartnerCircuit, circuitBreakerPolicy, circuitOpen, isBrokenCircuit, type CircuitOptions } from './breaker.js';
import { CallAbort } from './call-abort.js';
import { composeUpstream, type PartnerCall, type SendUpstream, type UpstreamCall } from './call.js';
import { coalescingPolicy, WaiterLeft } from './coalesce.js';
import { ConnectionClaims } from './connection-claims.js';
import { ConnectionSlots, connectionSlotPolicy } from './connection-slots.js';
import {
  ClientGoneError,
  RetryableFailure,
  errorFromRequestFailure,
  errorFromStatus,
} from './error-from-response.js';
import type { PartnerCallEvent, PartnerCallInfo, PartnerCallObserver } from './observer.js';
import { parseBody } from './parse-body.js';
import { retryPolicy } from './retry.js';
import { pathAndQuery, sendAttempt, type AttemptResponse } from './send.js';
import { timeoutPolicy } from './timeout.js';
import { UPSTREAM_DOMAIN_SHARE, UPSTREAM_KEEP_ALIVE_MS } from '../tunables.js';

export interface PartnerClientOptions {
  /** The upstream base, e.g. https://partner.example/api-prefix (a path prefix is kept). */
  baseUrl: string;
  timeoutMs: number;
  /** Retries after the first attempt, for idempotent calls only. */
  maxRetries: number;
  circuit: CircuitOptions;
  /** The facade's connections to this base, and how long a call may wait for one. */
  connections: number;
  connectionWaitMs: number;
  /** The most connections one fault domain (an inventory, a caller) may hold; null: a quarter of `connections`, at least one. */
  connectionsPerDomain: number | null;
  observers?: readonly PartnerCallObserver[];
  /** Secrets of the service itself (the merchant app-key), scrubbed from every call's errors. */
  secrets?: readonly string[];
}

/**
 * A partner call runs through these steps, in this order, each a protected method a subclass may
 * override, as RESTDataSource's are:
 *
 * 1. `resolveURL`: the path below the base and the query string (send.ts).
 * 2. `refusalBeforeSending`: an open circuit, or a caller out of time or gone, is answered at once.
 * 3. `cacheKeyFor`: what identifies the answer of a call its operation shares in flight
 *    (`shareInFlight`); an identical call in flight is joined.
 * 4. `willSendRequest`: the headers every attempt sends (observers add theirs as the call starts).
 * 5. `fetch`: one attempt over the pool, its body read as JSON under its cap (send.ts).
 * 6. `didEncounterError`: a failure to get an answer, as a typed error (error-from-response.ts).
 * 7. `errorFromResponse`: a status other than 200, as a typed error (error-from-response.ts).
 * 8. `parseBody`: the envelope's `data`, or its failure (parse-body.ts).
 * 9. `errorFromCall`: the one typed error the whole call answers when it fails.
 *
 * From step 3 on, the call passes the upstream policies, each a module of its own, composed in the
 * constructor's one list, outermost first: coalescing (coalesce.ts); the client's report to its
 * observers, where step 4 runs and step 9 types the error; a connection slot
 * (connection-slots.ts); the timeout at the partner (timeout.ts); the breaker (breaker.ts); the
 * retries (retry.ts). Steps 5 to 8 are one attempt, inside them all.
 */
export class PartnerClient {
  private readonly pool: Pool;
  private readonly origin: string;
  private readonly pathPrefix: string;
  private readonly circuit: PartnerCircuit;
  private readonly observers: readonly PartnerCallObserver[];
  /** A call through every upstream policy to its attempts. */
  private readonly sendUpstream: SendUpstream<ClientCall>;

  constructor(private readonly options: PartnerClientOptions) {
    const base = new URL(options.baseUrl);
    this.origin = base.origin;
    this.pathPrefix = base.pathname.replace(/\/+$/, '');
    this.observers = options.observers ?? [];
    // One slot per pool connection: a call holding a slot never queues inside the pool.
    const slots = new ConnectionSlots(
      options.connections,
      options.connectionWaitMs,
      options.connectionsPerDomain ?? Math.max(1, Math.floor(options.connections * UPSTREAM_DOMAIN_SHARE)),
    );
    this.pool = new Pool(this.origin, {
      connections: options.connections,
      keepAliveTimeout: UPSTREAM_KEEP_ALIVE_MS,
      connect: { timeout: options.timeoutMs },
    });
    this.circuit = new PartnerCircuit(options.circuit);
    // The upstream policies, outermost first: the order a call passes through them.
    this.sendUpstream = composeUpstream<ClientCall>(
      [
        // An identical call in flight is joined, not sent: the rest runs once for all its callers.
        coalescingPolicy((upstream) => {
          upstream.call.onJoined?.();
          for (const observer of this.observers) observer.callCoalesced?.(upstream.info);
        }),
        // The client's own: observers hear of the call as it starts and ends; its error is typed.
        { wrap: (next) => (upstream) => this.reported(upstream, next) },
        // Waiting for a connection is the facade's own saturation: OVERLOADED, outside the
        // timeout and the breaker, never counted toward the circuit.
        connectionSlotPolicy(slots),
        // The time at the partner only, one clock for every attempt.
        timeoutPolicy(),
        // Refused while open; one outcome per call, its retries included.
        circuitBreakerPolicy(this.circuit),
        retryPolicy(options.maxRetries),
      ],
      (upstream) => this.attempt(upstream),
    );
  }

  /**
   * Sends one partner call and returns the envelope's `data`, or throws a TradegraphError. A call
   * its operation shares in flight, identical to one in flight (the same method, path, query,
   * headers and body: the same credential), waits for that one's answer instead of being sent
   * (coalesce.ts).
   */
  async call(call: PartnerCall): Promise<unknown> {
    const url = this.resolveURL(call);
    const info: PartnerCallInfo = {
      operation: call.operation,
      method: call.method,
      origin: this.origin,
      path: url.path,
      requestId: call.requestId,
    };
    // An open circuit answers at once, before the call waits for anything; a caller already gone
    // or out of time sends nothing and joins nothing.
    const refused = this.refusalBeforeSending(call);
    if (refused !== undefined) {
      this.observe(call, info, this.willSendRequest(call), NOTHING_SENT).finish(refused.outcome, refused.error);
      throw refused.error;
    }
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    // The abort of the call sent for this caller: a call that joins one in flight leaves its own unused.
    const upstream: ClientCall = {
      call,
      info,
      key: call.shareInFlight ? this.cacheKeyFor(call, url.pathAndQuery, body) : undefined,
      abort: new CallAbort(this.options.timeoutMs),
      claims: new ConnectionClaims(call.connectionDomains),
      pathAndQuery: url.pathAndQuery,
      body,
      headers: {},
      attempts: 0,
      httpStatus: undefined,
    };
    try {
      return await this.sendUpstream(upstream);
    } catch (caught) {
      if (!(caught instanceof WaiterLeft)) throw caught;
      if (caught.departure === 'clientGone') throw clientClosed(call.operation);
      // Out of time while the call still waited for a connection: the facade's own saturation.
      if (!caught.atPartner) throw new OverloadedError(CONNECTION_WAIT_PAST_DEADLINE, 1);
      throw new UpstreamTimeoutError(call.operation, this.limits(call).deadlineMs, true);
    }
  }

  /** Step 1: the path below the base (without its query, for observers) and with it. */
  protected resolveURL(call: PartnerCall): { path: string; pathAndQuery: string } {
    return pathAndQuery(this.pathPrefix, call.segments, call.query);
  }

  /** Step 2: why a call is answered before it is sent or joins one: an open circuit, or a caller out of time or gone. */
  protected refusalBeforeSending(call: PartnerCall): { error: TradegraphError; outcome: PartnerCallEvent['outcome'] } | undefined {
    const refusedFor = this.circuit.refusal();
    if (refusedFor !== undefined) {
      const error = circuitOpen(call.operation, refusedFor);
      return { error, outcome: error.code };
    }
    if (call.deadline !== undefined && call.deadline.at <= performance.now()) {
      const error = new UpstreamTimeoutError(call.operation, call.deadline.ms, true);
      return { error, outcome: error.code };
    }
    if (call.signal?.aborted) return { error: clientClosed(call.operation), outcome: 'cancelled' };
    return undefined;
  }

  /**
   * Step 3: what identifies a call's answer: the digest of its method, URL and headers, then its
   * body as sent. The access token rides in the query and the merchant key in a header, so two
   * credentials never share a key, and the key holds neither; a body carries no credential (a fee
   * call's items), and is kept as it is rather than hashed, a digest's work growing with its size.
   */
  protected cacheKeyFor(call: PartnerCall, pathAndQuery: string, body: string | undefined): string {
    let text = `${call.method} ${pathAndQuery}\n`;
    if (call.headers) for (const name of Object.keys(call.headers).sort()) text += `${name.toLowerCase()}: ${call.headers[name]}\n`;
    const digest = hash('sha256', text, 'base64');
    // A digest is of fixed length and holds no line break: the key splits in one way only.
    return body === undefined ? digest : `${digest}\n${body}`;
  }

  /** Step 4: the headers every attempt of the call sends, before observers add theirs. */
  protected willSendRequest(call: PartnerCall): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
    if (call.requestId) headers['x-request-id'] = call.requestId;
    return headers;
  }

  /** Step 5: one attempt over the pool; throws what undici throws, or UPSTREAM_BAD_RESPONSE for a body over its cap or not JSON. */
  protected fetch(
    call: PartnerCall,
    pathAndQuery: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal,
  ): Promise<AttemptResponse> {
    return sendAttempt(this.pool, {
      operation: call.operation,
      method: call.method,
      pathAndQuery,
      headers,
      body,
      signal,
      maxResponseBytes: call.maxResponseBytes,
    });
  }

  /** Step 6: a failure to get an answer (timeout, deadline, departure, connection), as a typed error. */
  protected didEncounterError(call: PartnerCall, error: unknown, abort: CallAbort): Error {
    return errorFromRequestFailure(call.operation, error, abort, this.limits(call));
  }

  /** Step 7: a status other than 200, as a typed error (a RetryableFailure when another attempt may help). */
  protected errorFromResponse(call: PartnerCall, response: AttemptResponse): Error {
    return errorFromStatus(call.operation, response.status, response.headers);
  }

  /** Step 8: a 200 body, the envelope, as its `data`; its failure with every secret scrubbed. */
  protected parseBody(call: PartnerCall, json: unknown): unknown {
    return parseBody(call.operation, json, () => [...(call.secrets ?? []), ...(this.options.secrets ?? [])]);
  }

  /**
   * The call that its callers share, as its observers hear of it: as it starts (in the first
   * caller's async context, with the headers every attempt sends) and as it ends, with the one
   * typed error it answers (errorFromCall).
   */
  private async reported(upstream: ClientCall, next: SendUpstream<ClientCall>): Promise<unknown> {
    const { call, abort } = upstream;
    upstream.headers = this.willSendRequest(call);
    const report = this.observe(call, upstream.info, upstream.headers, upstream);
    if (upstream.body !== undefined) upstream.headers['content-type'] = 'application/json';
    try {
      const data = await next(upstream);
      report.finish('ok');
      return data;
    } catch (caught) {
      const { error, unexpected } = this.errorFromCall(call, caught, abort);
      // A caller that left is not a partner outage: it must not page anyone through logs or metrics.
      report.finish(abort.clientGone ? 'cancelled' : (error.code as ErrorCode), error, unexpected);
      throw error;
    }
  }

  /** One attempt, inside every upstream policy: steps 5 to 8. */
  private async attempt(upstream: ClientCall): Promise<unknown> {
    const { call, abort } = upstream;
    upstream.attempts += 1;
    let response;
    try {
      response = await this.fetch(call, upstream.pathAndQuery, upstream.headers, upstream.body, abort.signal);
    } catch (error) {
      throw this.didEncounterError(call, error, abort);
    }
    upstream.httpStatus = response.status;
    if (response.status !== 200) throw this.errorFromResponse(call, response);
    return this.parseBody(call, response.json);
  }

  /** Tells the observers of a call as it starts (in the caller's async context), and as it ends. */
  private observe(call: PartnerCall, info: PartnerCallInfo, headers: Record<string, string>, progress: CallProgress): CallReport {
    const started = performance.now();
    const endListeners = this.observers.map((observer) => observer.callStarted?.(info, headers));
    return {
      finish: (outcome, error, unexpected) => {
        const event: PartnerCallEvent = {
          operation: call.operation,
          method: call.method,
          path: info.path,
          requestId: call.requestId,
          outcome,
          httpStatus: progress.httpStatus,
          durationMs: performance.now() - started,
          attempts: progress.attempts,
        };
        if (unexpected) event.unexpected = unexpected;
        if (error && 'upstream' in error) event.upstreamErrorCode = (error.upstream as { errorCode?: unknown }).errorCode;
        for (const listener of endListeners) listener?.(event);
        for (const observer of this.observers) observer.callEnded?.(event);
      },
    };
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  /** 'closed', 'halfOpen', 'open' or 'isolated'; for readiness and metrics. */
  get circuitState(): string {
    return this.circuit.state;
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

  private limits(call: PartnerCall) {
    return { timeoutMs: this.options.timeoutMs, deadlineMs: call.deadline?.ms ?? this.options.timeoutMs };
  }

  /** Step 9: the typed error a failed call answers; `unexpected` describes a failure of the client itself. */
  protected errorFromCall(
    call: PartnerCall,
    caught: unknown,
    abort: CallAbort,
  ): { error: TradegraphError; unexpected?: string } {
    if (caught instanceof RetryableFailure) return { error: caught.failure };
    if (caught instanceof TradegraphError) return { error: caught };
    if (isBrokenCircuit(caught)) return { error: circuitOpen(call.operation, this.circuit.refusal() ?? 1) };
    const limits = this.limits(call);
    if (abort.deadlinePassed) {
      return {
        error: abort.reachedPartner ? new UpstreamTimeoutError(call.operation, limits.deadlineMs, true) : new OverloadedError(CONNECTION_WAIT_PAST_DEADLINE, 1),
      };
    }
    if (abort.timedOut) return { error: new UpstreamTimeoutError(call.operation, limits.timeoutMs) };
    if (caught instanceof ClientGoneError || abort.clientGone) return { error: clientClosed(call.operation) };
    return {
      error: new UpstreamUnavailableError(call.operation, 'an unexpected client failure'),
      unexpected: describeUnexpected(caught),
    };
  }
}

/** Names a failure without its message, which could quote a URL and so a token. */
function describeUnexpected(caught: unknown): string {
  const name = caught instanceof Error ? caught.name : typeof caught;
  const code = (caught as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? `${name} ${code}` : name;
}

/** What a call's observers hear at its end of its attempts. */
interface CallProgress {
  /** Attempts sent to the partner. */
  attempts: number;
  /** The last attempt's HTTP status. */
  httpStatus: number | undefined;
}

const NOTHING_SENT: CallProgress = { attempts: 0, httpStatus: undefined };

/** A call as the client sends it: what the upstream policies read, and what its attempts need. */
interface ClientCall extends UpstreamCall, CallProgress {
  pathAndQuery: string;
  body: string | undefined;
  /** The headers every attempt sends, set as the call starts (observers add theirs then). */
  headers: Record<string, string>;
}

/** One call's report to its observers. */
interface CallReport {
  finish(outcome: PartnerCallEvent['outcome'], error?: TradegraphError, unexpected?: string): void;
}

const CONNECTION_WAIT_PAST_DEADLINE =
  "No connection to the partner API came free for this call before the operation's deadline; retry shortly.";

const clientClosed = (operation: string) => new UpstreamUnavailableError(operation, 'the client closed the request');
