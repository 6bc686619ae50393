// The bench's hand-written servers' partner call (the baseline's and the Yoga floor's): the
// facade's PartnerClient pool settings and per-call timeout, and the envelope's `data`, with none
// of the facade's retries, breaker, metrics or shape checks.
import { Pool } from 'undici';

export type Json = Record<string, unknown>;

export class UpstreamFailure extends Error {}

const TIMEOUT_MS = 5_000;

export function createPartnerCaller(upstreamUrl: string) {
  const upstream = new URL(upstreamUrl);
  // The facade's PartnerClient pool settings, so that only what sits above the client differs.
  const pool = new Pool(upstream.origin, { connections: 64, keepAliveTimeout: 30_000, connect: { timeout: TIMEOUT_MS } });

  async function callPartner(method: 'GET' | 'POST', path: string, body?: string, headers: Record<string, string> = {}): Promise<unknown> {
    const response = await pool.request({
      method,
      path,
      headers: { accept: 'application/json', ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (response.statusCode !== 200) {
      await response.body.dump();
      throw new UpstreamFailure(`partner answered HTTP ${response.statusCode}`);
    }
    const envelope = (await response.body.json()) as Json;
    if (envelope.success === false || (envelope.errorCode !== null && envelope.errorCode !== undefined && envelope.errorCode !== 0)) {
      throw new UpstreamFailure(`partner envelope error ${String(envelope.errorCode)}`);
    }
    return envelope.data;
  }

  return { callPartner, close: () => pool.close() };
}
