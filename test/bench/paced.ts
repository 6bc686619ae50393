// An open load for the bench: requests on seeded Poisson arrival times, whatever the target's
// answers take (autocannon's load is closed: a connection's next request waits for its answer).
import { Client } from 'undici';
import type { BenchRequest } from './scenarios.js';
import { percentile, poissonArrivals, round } from './stats.js';

export interface PacedResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

/**
 * Drives one target with an open load: requests arrive at `ratePerSecond` on Poisson times (the
 * same seeded times for every target), spread round robin over `connections` keep-alive
 * connections, whatever the target's answers take. A closed load (autocannon's) sends each
 * connection's next request when the last one is answered, so at 200 connections every target is
 * saturated and its latency is only connections / throughput; an open load below every target's
 * capacity measures the latency each one adds to the upstream's. Latency counts from a request's
 * scheduled time, so a target that falls behind is charged for the wait.
 */
export async function drivePaced(
  url: string,
  requests: BenchRequest[],
  connections: number,
  ratePerSecond: number,
  durationS: number,
  seed: number,
): Promise<PacedResult> {
  const arrivals = poissonArrivals(ratePerSecond, durationS * 1000, seed);
  const clients = Array.from({ length: connections }, () => new Client(url, { pipelining: 1 }));
  const latencies = new Float64Array(arrivals.length);
  let non2xx = 0;
  let errors = 0;
  const sends: Promise<void>[] = [];
  const start = performance.now();
  const send = (index: number) => {
    const request = requests[index % requests.length]!;
    const scheduled = start + arrivals[index]!;
    return clients[index % connections]!
      .request({ method: request.method, path: request.path, headers: request.headers, body: request.body })
      .then(async (response) => {
        await response.body.arrayBuffer();
        latencies[index] = performance.now() - scheduled;
        if (response.statusCode < 200 || response.statusCode > 299) non2xx++;
      })
      .catch(() => {
        latencies[index] = performance.now() - scheduled;
        errors++;
      });
  };
  for (let index = 0; index < arrivals.length; ) {
    const now = performance.now() - start;
    while (index < arrivals.length && arrivals[index]! <= now) sends.push(send(index++));
    if (index < arrivals.length) await new Promise((resolve) => setTimeout(resolve, Math.max(0, arrivals[index]! - now)));
  }
  await Promise.all(sends);
  const elapsedS = (performance.now() - start) / 1000;
  await Promise.all(clients.map((client) => client.close()));
  return {
    rps: round(arrivals.length / elapsedS, 1),
    p50: round(percentile(latencies, 50), 3),
    p99: round(percentile(latencies, 99), 3),
    requests: arrivals.length,
    non2xx,
    errors,
  };
}

