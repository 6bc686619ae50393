// prom-client's default series describe the process: every service in it (several, in a test fork
// or a bench) scrapes the one set, whose collectors (a GC observer, an event-loop delay monitor)
// are made once, not once more per service and never stopped.
import { expect, it } from 'vitest';
import { createMetrics } from '../../src/observability/metrics.js';

it("serves the process's default series from one set of collectors, in every service's scrape", async () => {
  const [first, second] = [createMetrics(), createMetrics()];
  for (const name of ['process_cpu_user_seconds_total', 'nodejs_eventloop_lag_seconds', 'nodejs_gc_duration_seconds']) {
    const metric = first.registry.getSingleMetric(name);
    expect(metric, name).toBeDefined();
    expect(second.registry.getSingleMetric(name), name).toBe(metric);
  }
  for (const metrics of [first, second]) {
    const scrape = await metrics.registry.metrics();
    expect(scrape).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(scrape).toMatch(/^# HELP tradegraph_graphql_errors_total /m);
  }
});
