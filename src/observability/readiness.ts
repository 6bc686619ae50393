// GET /readiness: whether each partner base answers HTTP at all, and whether its circuit breaker
// lets calls through. Probes are cached and shared, so the endpoint cannot multiply upstream load.
import type { UpstreamProbeResult } from '../partner/index.js';

export type { UpstreamProbeResult } from '../partner/index.js';

export interface ReadinessReport {
  ready: boolean;
  upstreams: UpstreamProbeResult[];
}

export interface ReadinessOptions {
  probe: (timeoutMs: number) => Promise<UpstreamProbeResult[]>;
  /** How long one probe may take before its upstream counts as unreachable. */
  timeoutMs: number;
  /** How long a finished probe's answer is reused. */
  cacheMs: number;
  now?: () => number;
}

export function isReady(upstreams: readonly UpstreamProbeResult[]): boolean {
  return upstreams.every((each) => each.reachable && each.circuit !== 'open' && each.circuit !== 'isolated');
}

/** Answers readiness, probing at most once per `cacheMs` however many callers ask at once. */
export function createReadinessCheck({ probe, timeoutMs, cacheMs, now = () => performance.now() }: ReadinessOptions) {
  let cached: { at: number; report: ReadinessReport } | null = null;
  let inFlight: Promise<ReadinessReport> | null = null;
  return function check(): Promise<ReadinessReport> {
    if (cached && now() - cached.at < cacheMs) return Promise.resolve(cached.report);
    inFlight ??= probe(timeoutMs)
      .then((upstreams) => {
        const report = { ready: isReady(upstreams), upstreams };
        cached = { at: now(), report };
        return report;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };
}
