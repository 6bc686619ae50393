// A closed load for the bench (autocannon): each connection sends its next request as soon as the
// last one is answered, for a while or for an amount of requests.
import autocannon from 'autocannon';
import { freshCallerPrefix, freshCallerToken, rotatingCallerToken, type BenchRequest } from './scenarios.js';
import { percentile, round } from './stats.js';

export interface RoundResult {
  rps: number;
  /** CPU time the target process spent per request, in ms. */
  cpuMsPerRequest?: number;
  /** CPU time the partner simulator spent per request of the target, in ms. */
  simulatorCpuMsPerRequest?: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Response bytes (headers and body) per request, where the generator counts them (wrk). */
  bytesPerResponse?: number;
}

/** Drives one target with one scenario's requests (round robin when there are several, one user each). */
export async function drive(
  url: string,
  requests: BenchRequest[],
  connections: number,
  limit: { durationS: number } | { amount: number },
  onResponse?: () => void,
): Promise<RoundResult> {
  let next = 0;
  const single = requests.length === 1 && !requests[0]!.freshCaller && !requests[0]!.rotatingCaller ? requests[0]! : null;
  const prefix = freshCallerPrefix();
  const options: autocannon.Options = {
    url,
    connections,
    pipelining: 1,
    ...('amount' in limit ? { amount: limit.amount } : { duration: limit.durationS }),
    ...(single
      ? { method: single.method, headers: single.headers, body: single.body, requests: [{ path: single.path }] }
      : {
          // Distinct users: each request takes the next user's request, round robin.
          requests: [
            {
              setupRequest: (request: autocannon.Request) => {
                const sent = next++;
                const user = requests[sent % requests.length]!;
                const rotating = user.rotatingCaller;
                const headers = user.freshCaller
                  ? { ...user.headers, authorization: `Bearer ${freshCallerToken(prefix, sent)}` }
                  : rotating
                    ? { ...user.headers, authorization: `Bearer ${rotatingCallerToken(rotating.prefix, (rotating.from + sent) % rotating.count)}` }
                    : user.headers;
                return { ...request, method: user.method, path: user.path, headers, body: user.body };
              },
            },
          ],
        }),
  };
  // Raw latencies in ms: autocannon's own histogram has 1 ms resolution, these are sub-ms.
  const latencies: number[] = [];
  const collect = !('amount' in limit);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (error: unknown, done: autocannon.Result) => (error ? reject(error) : resolve(done)));
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      if (collect) latencies.push(responseTime);
      onResponse?.();
    });
  });
  return {
    rps: round(result.requests.total / result.duration, 1),
    p50: round(percentile(latencies, 50), 3),
    p99: round(percentile(latencies, 99), 3),
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
