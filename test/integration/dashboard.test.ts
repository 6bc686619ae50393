// Every PromQL expression of ops/ (the Grafana dashboard's queries and the rules' expressions) reads
// only series the service exposes: read from the /metrics of real services over the simulator, one
// with Redis, the response cache and the rate limit on, one with the in-process response cache
// (whose size gauges exist only without Redis). A renamed metric breaks this test, not a page.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD, dashboardExpressions, metricNamesOf, recordedNames, ruleExpressions } from '../support/promql.js';
import { startRedisServer, type RedisServer } from '../support/redis.js';
import { startTestkit, type Testkit } from '../support/testkit.js';
import { ruleFiles } from '../../src/federation/prometheus.js';

let redis: RedisServer;
const kits: Testkit[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  const cache = { responseCacheTtlMs: 10_000, rateLimit: { max: 1000, windowMs: 60_000 } };
  kits.push(await startTestkit({ config: { ...cache, redisUrl: redis.url } }));
  kits.push(await startTestkit({ config: cache }));
}, 60_000);

afterAll(async () => {
  for (const kit of kits) await kit.close();
  await redis?.stop();
});

/** The names a scrape of these services can hold: each metric's, and a histogram's or summary's series. */
async function exposedNames(): Promise<Set<string>> {
  const names = new Set<string>();
  for (const kit of kits) {
    const text = await (await fetch(`${kit.url}/metrics`)).text();
    for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      names.add(name!);
      if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
      if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(`${name}${suffix}`);
    }
  }
  return names;
}

describe('the PromQL of ops/', () => {
  it('finds metric names as PromQL reads them', () => {
    expect(
      metricNamesOf(
        'histogram_quantile(0.99, sum by (le, operation) (rate(a_bucket{le="1", code=~"b|c"}[5m]))) / on (job) group_left (x) b:c:d > bool 1e3 or vector(0) unless sum(x_total offset 5m) without (le)',
      ),
    ).toEqual(['a_bucket', 'b:c:d', 'x_total']);
  });

  it('reads every rule of the rule files', () => {
    const rules = ruleFiles().flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/- (?:alert|record): /g)]);
    expect(ruleExpressions()).toHaveLength(rules.length);
  });

  it('names in the dashboard and the rules only series the service exposes', async () => {
    // Some traffic, so that the service has made the series it makes lazily.
    await kits[0]!.post({ query: '{ inventory(platformId: "76561198000000240", appId: 730) { totalCount } }' });
    const exposed = await exposedNames();
    for (const name of ['tradegraph_redis_up', 'tradegraph_response_cache_bytes', 'tradegraph_http_requests_shed_total']) expect(exposed).toContain(name);
    const recorded = new Set(recordedNames());
    const expressions = [...dashboardExpressions(), ...ruleExpressions()];
    expect(dashboardExpressions().length).toBeGreaterThan(20);
    const unknown = expressions.flatMap(({ where, expr }) =>
      metricNamesOf(expr)
        .filter((name) => !exposed.has(name) && !recorded.has(name))
        .map((name) => `${where}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });

  it('is a dashboard whose panels have unique ids and read the chosen Prometheus', () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { uid: string; panels: { id: number; type: string; datasource?: { uid: string } }[] };
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    const graphs = dashboard.panels.filter((panel) => panel.type !== 'row');
    expect(graphs.filter((panel) => panel.datasource?.uid !== '${datasource}')).toEqual([]);
  });
});
