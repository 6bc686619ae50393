// A closed load from wrk (Debian's /usr/bin/wrk), the generator of the pinned bench: one C thread
// whose event loop costs a fraction of what autocannon's costs per request, so that the core the
// generator shares with the partner simulator keeps the target's core busy. A Lua script of wrk's
// API sends the scenario's requests (round robin when there are several) and prints the result as
// one JSON line: request count, bytes, errors, and the p50 and p99 of wrk's latency histogram.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RoundResult } from './drive.js';
import { freshCallerPrefix, type BenchRequest } from './scenarios.js';
import { round } from './stats.js';

export const WRK = '/usr/bin/wrk';

const luaString = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"`;

/**
 * wrk's script: the requests, formatted once, sent in turn; `done` prints the figures as JSON. A
 * request of a caller never seen before (freshCaller) is formatted at each send instead, with the
 * next token of this run's own prefix (`prefix`) in its authorization header.
 */
export function wrkScript(requests: BenchRequest[], prefix = freshCallerPrefix()): string {
  const formatted = requests.map((request) => {
    const headers = Object.entries(request.headers)
      .filter(([name]) => !(request.freshCaller && name === 'authorization'))
      .map(([name, value]) => `[${luaString(name)}] = ${luaString(value)}`);
    const body = request.body === undefined ? 'nil' : luaString(request.body);
    return request.freshCaller
      ? `{ fresh = true, method = ${luaString(request.method)}, path = ${luaString(request.path)}, headers = { ${headers.join(', ')} }, body = ${body} }`
      : `wrk.format(${luaString(request.method)}, ${luaString(request.path)}, { ${headers.join(', ')} }, ${body})`;
  });
  return `local requests = {}
local next = 0
local sent = 0
init = function(args)
  ${formatted.map((text, i) => `requests[${i + 1}] = ${text}`).join('\n  ')}
end
request = function()
  next = next % #requests + 1
  local r = requests[next]
  if type(r) == "table" then
    -- freshCallerToken's form: the run's prefix, a dash and the count of fresh requests sent.
    r.headers["authorization"] = "Bearer " .. ${luaString(prefix)} .. "-" .. sent
    sent = sent + 1
    return wrk.format(r.method, r.path, r.headers, r.body)
  end
  return r
end
done = function(summary, latency, _)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"durationUs":%d,"bytes":%d,"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"non2xx":%d,"timeouts":%d,"p50Us":%d,"p99Us":%d}\\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
`;
}

/** Drives one target for `durationS` with `connections` from wrk's one thread. */
export async function driveWrk(url: string, requests: BenchRequest[], connections: number, durationS: number): Promise<RoundResult> {
  // wrk's rounds are timed: a rotation that must see each caller is sent by a count (drive.ts).
  if (requests.some((request) => request.rotatingCaller)) throw new Error('requests over rotating callers are sent by drive(), not wrk');
  const dir = mkdtempSync(join(tmpdir(), 'tradegraph-wrk-'));
  try {
    const script = join(dir, 'bench.lua');
    writeFileSync(script, wrkScript(requests));
    const args = ['-t1', `-c${connections}`, `-d${durationS}s`, '--timeout', '30s', '-s', script, url];
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(WRK, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`wrk exited ${code}: ${stderr}${stdout}`))));
    });
    const line = output.trim().split('\n').findLast((text) => text.startsWith('{'));
    if (!line) throw new Error(`wrk printed no result:\n${output}`);
    const r = JSON.parse(line) as Record<string, number>;
    return {
      rps: round(r.requests! / (r.durationUs! / 1e6), 1),
      p50: round(r.p50Us! / 1000, 3),
      p99: round(r.p99Us! / 1000, 3),
      requests: r.requests!,
      non2xx: r.non2xx!,
      errors: r.connectErrors! + r.readErrors! + r.writeErrors! + r.timeouts!,
      bytesPerResponse: r.requests ? round(r.bytes! / r.requests, 0) : 0,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
