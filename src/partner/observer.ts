// What the partner client tells the world about its calls: observers (metrics, logging, tracing)
// are handed in at wiring time and listen; the client never imports them.
import type { ErrorCode } from '../errors.js';

/** A call about to be sent, as observers see it. Never holds a secret: the path has no query string. */
export interface PartnerCallInfo {
  operation: string;
  method: 'GET' | 'POST';
  /** The upstream's origin, e.g. http://127.0.0.1:4010. */
  origin: string;
  /** The path as sent, without its query string (which carries the access token). */
  path: string;
  requestId?: string;
}

/** One finished partner call, as reported to observers. Never holds a secret. */
export interface PartnerCallEvent {
  operation: string;
  method: 'GET' | 'POST';
  path: string;
  requestId?: string;
  /**
   * 'ok'; 'cancelled' when the client that asked for the call went away (not a partner fault);
   * otherwise the error code the call failed with.
   */
  outcome: 'ok' | 'cancelled' | ErrorCode;
  /** The envelope's errorCode when the outcome is UPSTREAM_ERROR. */
  upstreamErrorCode?: unknown;
  httpStatus?: number;
  durationMs: number;
  /** Attempts sent to the partner: 0 when the call was refused before sending (open circuit, saturation). */
  attempts: number;
  /** A failure of the client itself (a bug): its name and code, never its message. */
  unexpected?: string;
}

export interface PartnerCallObserver {
  /**
   * Called as a call starts, in the caller's async context. `headers` go with every attempt of
   * the call (tracing adds `traceparent` here). May answer a listener for the call's end.
   */
  callStarted?(call: PartnerCallInfo, headers: Record<string, string>): ((event: PartnerCallEvent) => void) | void;
  /** Called once per call when it ends. */
  callEnded?(event: PartnerCallEvent): void;
  /**
   * Called, in the caller's async context, when a call is not sent because an identical one is
   * in flight: the caller waits for that call's answer (its start and end are reported once).
   */
  callCoalesced?(call: PartnerCallInfo): void;
}

/** What one probe of one upstream base found (GET /readiness). */
export interface UpstreamProbeResult {
  /** 'partner' ({base_url}) or 'openApi' ({open_api_url}); never the URL, which may carry credentials. */
  upstream: string;
  /** Any HTTP answer counts, even 401 or 404: it proves a server is there and speaking HTTP. */
  reachable: boolean;
  httpStatus?: number;
  /** Why it is unreachable: 'timeout' or the connection error's code. */
  error?: string;
  /** 'closed', 'halfOpen', 'open' or 'isolated'; open means calls fail fast without trying. */
  circuit: string;
}
