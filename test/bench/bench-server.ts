// What the bench's hand-written servers (the baseline and the Yoga floor) share: their partner
// calls, with the facade's PartnerClient pool settings and per-call timeout and none of the facade's
// retries, breaker, metrics or shape checks; and how they listen and stop.
import type { Server } from 'node:http';
import { Pool } from 'undici';
import { LISTING_FEE_BATCH_MAX } from './scenarios.js';

export type Json = Record<string, unknown>;

export class UpstreamFailure extends Error {}

// The facade's default per-call timeout; instructions.sh raises it, as it does the facade's, for valgrind's pace.
const TIMEOUT_MS = Number(process.env.UPSTREAM_TIMEOUT_MS ?? 5_000);

/** The partner's calls at `upstreamUrl`; `appKey` is the merchant's key, which the listing-fee call sends. */
export function createPartnerCaller(upstreamUrl: string, appKey = '') {
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

  /** One inventory page of `first` items, asking one more than that, as the facade does, to know whether more follow. */
  async function readInventoryPage(platformId: string, appId: number, first: number, accessToken: string): Promise<Json> {
    const query = new URLSearchParams({ count: String(first + 1), access_token: accessToken });
    return (await callPartner('GET', `/api/user/v2/${encodeURIComponent(platformId)}/${appId}?${query}`)) as Json;
  }

  /** Fees for the entries, in calls of at most the facade's batch size, matched by position. */
  async function calculateListingFees(entries: Json[]): Promise<Json[]> {
    const chunks: Json[][] = [];
    for (let start = 0; start < entries.length; start += LISTING_FEE_BATCH_MAX) chunks.push(entries.slice(start, start + LISTING_FEE_BATCH_MAX));
    const answers = await Promise.all(
      chunks.map(async (chunk) => {
        const data = await callPartner('POST', '/merchant/sale/v1/calculate', JSON.stringify({ dataList: chunk }), { 'app-key': appKey });
        if (!Array.isArray(data) || data.length !== chunk.length) throw new UpstreamFailure('fee count mismatch');
        return data as Json[];
      }),
    );
    return answers.flat();
  }

  return { callPartner, readInventoryPage, calculateListingFees, close: () => pool.close() };
}

/** Listens on 127.0.0.1:port; on SIGTERM or SIGINT closes the server and the pool, then exits. */
export function listenUntilStopped(server: Server, port: number, name: string, partner: { close(): Promise<void> }): void {
  server.listen(port, '127.0.0.1', () => process.stdout.write(`${name} listening on http://127.0.0.1:${port}\n`));
  const stop = () => {
    server.close();
    server.closeAllConnections();
    void partner.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
