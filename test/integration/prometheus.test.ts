// A real Prometheus (Debian's) scraping a real service every second with the rules of ops/prometheus/:
// every rule group evaluates without error, every query of the dashboard is PromQL it accepts, and
// when the partner stops, the partner alert goes pending. Prometheus runs in a directory of its own
// on a free loopback port, and is stopped (its directory removed) at the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ruleFiles } from '../../src/federation/prometheus.js';
import { startSimulator, type PartnerSimulator } from '../../src/simulator/server.js';
import { startPrometheus, type RunningPrometheus } from '../support/prometheus.js';
import { dashboardExpressions } from '../support/promql.js';
import { startTestkit, type Testkit } from '../support/testkit.js';

let simulator: PartnerSimulator;
let kit: Testkit;
let prometheus: RunningPrometheus;

beforeAll(async () => {
  simulator = await startSimulator();
  kit = await startTestkit({ sharedSimulator: simulator, config: { upstreamMaxRetries: 0 } });
  prometheus = await startPrometheus({ targets: [new URL(kit.url).host], ruleFiles: ruleFiles() });
}, 90_000);

afterAll(async () => {
  await prometheus?.stop();
  await kit?.close();
  await simulator?.close();
});

const pageQuery = (n: number) => ({ query: `{ inventory(platformId: "7656119800000${String(n).padStart(4, '0')}", appId: 730) { totalCount } }` });

describe('Prometheus with the rules of ops/prometheus/, scraping the service', () => {
  it('scrapes the service and evaluates every rule group without error', async () => {
    await expect.poll(() => prometheus.targetHealth(), { timeout: 30_000, interval: 500 }).toEqual(['up']);
    await kit.post(pageQuery(240));
    // A group's health is "unknown" until its first evaluation, every second here.
    await expect
      .poll(
        async () =>
          (await prometheus.ruleGroups()).flatMap((group) =>
            group.rules.filter((rule) => rule.health !== 'ok' || rule.lastError).map((rule) => `${group.name}/${rule.name}: ${rule.health} ${rule.lastError ?? ''}`),
          ),
        { timeout: 30_000, interval: 500 },
      )
      .toEqual([]);
    const groups = await prometheus.ruleGroups();
    expect(groups.flatMap((group) => group.rules).length).toBeGreaterThan(20);
  }, 90_000);

  it('accepts every query of the dashboard', async () => {
    const refused: string[] = [];
    for (const { where, expr } of dashboardExpressions()) {
      const query = expr.replaceAll('$__rate_interval', '1m').replaceAll('$job', '.+');
      const answer = (await (await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(query)}`)).json()) as { status: string; error?: string };
      if (answer.status !== 'success') refused.push(`${where}: ${answer.error}`);
    }
    expect(refused).toEqual([]);
  });

  it('puts the partner alert in pending once the partner stops answering', async () => {
    const partnerAlert = async () =>
      (await prometheus.alerts()).filter((alert) => alert.labels.alertname === 'TradegraphPartnerUnavailable').map((alert) => alert.state);
    expect(await partnerAlert()).toEqual([]);
    await simulator.close();
    // Requests keep coming while the partner is away; each partner call fails as UPSTREAM_UNAVAILABLE.
    let n = 0;
    await expect
      .poll(
        async () => {
          await kit.post(pageQuery(++n));
          return partnerAlert();
        },
        { timeout: 60_000, interval: 500 },
      )
      .toContainEqual(expect.stringMatching(/^(pending|firing)$/));
  }, 90_000);
});
