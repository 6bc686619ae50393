// Scenario (h), page with deferred fees (scenarios.ts): sequential requests for a 20-item page whose
// fees are deferred, each timed to its first payload (the page) and to its last (the fees), beside
// the same page without @defer. The simulator and the service run in this process, on 127.0.0.1.
// `npm run bench:deferred [-- --requests N --out file.json]`: prints the figures, writes them with --out.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { payloadsOf } from '../support/incremental.js';
import { startTestkit } from '../support/testkit.js';
import { CARD_WITH_FEES_QUERY, DEFERRED_FEES_SCENARIO as H } from './scenarios.js';
import { median, percentile, round } from './stats.js';

const { values: args } = parseArgs({
  options: { requests: { type: 'string' }, warmup: { type: 'string' }, out: { type: 'string' } },
});
const requests = Number(args.requests ?? H.requests);
const warmup = Number(args.warmup ?? H.warmup);

const kit = await startTestkit({ simulator: { listingFeeLatencyMs: H.listingFeeLatencyMs } });
const headers = { authorization: 'Bearer bench-token-0' };

/** One deferred request: ms to the first payload and to the last; throws on any error. */
async function deferred(): Promise<{ firstMs: number; wholeMs: number; payloads: number }> {
  const started = performance.now();
  const response = await kit.post({ query: H.query, variables: H.variables }, { token: null, headers: { ...headers, accept: 'multipart/mixed' } });
  let firstMs = 0;
  let payloads = 0;
  for await (const payload of payloadsOf(response)) {
    if (payloads++ === 0) firstMs = performance.now() - started;
    const errors = [...(payload.errors ?? []), ...(payload.incremental ?? []).flatMap((part) => part.errors ?? [])];
    if (errors.length > 0) throw new Error(`the deferred page answered errors: ${JSON.stringify(errors)}`);
  }
  return { firstMs, wholeMs: performance.now() - started, payloads };
}

async function whole(): Promise<number> {
  const started = performance.now();
  const response = await kit.post({ query: CARD_WITH_FEES_QUERY, variables: H.variables }, { token: null, headers });
  const body = (await response.json()) as { errors?: unknown };
  if (body.errors) throw new Error(`the page with fees answered errors: ${JSON.stringify(body.errors)}`);
  return performance.now() - started;
}

try {
  for (let index = 0; index < warmup; index++) await Promise.all([deferred(), whole()]);
  const first: number[] = [];
  const last: number[] = [];
  const plain: number[] = [];
  let fewestPayloads = Infinity;
  kit.simulator.calls.length = 0;
  for (let index = 0; index < requests; index++) {
    const timing = await deferred();
    first.push(timing.firstMs);
    last.push(timing.wholeMs);
    fewestPayloads = Math.min(fewestPayloads, timing.payloads);
    plain.push(await whole());
  }
  const summary = (samples: number[]) => ({ medianMs: round(median(samples)), p99Ms: round(percentile(samples, 99)) });
  const result = {
    scenario: H.id,
    title: H.title,
    requests,
    listingFeeLatencyMs: H.listingFeeLatencyMs,
    deferredFirstPayload: summary(first),
    deferredWholeAnswer: summary(last),
    withoutDefer: summary(plain),
    fewestPayloads,
    // Both operations together, per pair: one page call and one fee call each.
    upstreamCallsPerRequest: {
      readInventory: kit.simulator.callsOf('readInventory').length / (2 * requests),
      calculateListingFee: kit.simulator.callsOf('calculateListingFee').length / (2 * requests),
    },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (args.out) writeFileSync(args.out, `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await kit.close();
}
