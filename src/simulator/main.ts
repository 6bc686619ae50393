// Runs the partner simulator alone (`npm run simulator`): SIMULATOR_PORT (default 4010),
// SIMULATOR_START_INCLUSIVE=true|false, SIMULATOR_COUNT_CAP=<n>, SIMULATOR_LATENCY_MS=<n>,
// SIMULATOR_LISTING_FEE_LATENCY_MS=<n> (added to fee answers only: shows @defer's first payload early),
// and faults by percentage as Envoy's fault filter takes them: SIMULATOR_FAULT_ABORT_PERCENT with
// SIMULATOR_FAULT_ABORT_STATUS (a status, or `reset`), SIMULATOR_FAULT_DELAY_PERCENT with
// SIMULATOR_FAULT_DELAY_MS, or any list of faults as JSON in SIMULATOR_FAULTS.
// SIMULATOR_ADMIN_ROUTES=true opens /__simulator/calls, /configure and /reset (the bench drives it so).
import { startSimulator, type Fault } from './server.js';

const env = process.env;

function faultsFromEnv(): Fault[] {
  const faults = env.SIMULATOR_FAULTS ? (JSON.parse(env.SIMULATOR_FAULTS) as Fault[]) : [];
  const abortPercent = Number(env.SIMULATOR_FAULT_ABORT_PERCENT ?? 0);
  if (abortPercent > 0) {
    const status = env.SIMULATOR_FAULT_ABORT_STATUS ?? '503';
    faults.push(status === 'reset' ? { kind: 'reset', rate: abortPercent / 100 } : { kind: 'abort', status: Number(status), rate: abortPercent / 100 });
  }
  const delayPercent = Number(env.SIMULATOR_FAULT_DELAY_PERCENT ?? 0);
  if (delayPercent > 0) faults.push({ kind: 'slow', rate: delayPercent / 100, delayMs: Number(env.SIMULATOR_FAULT_DELAY_MS ?? 1000) });
  return faults;
}

const simulator = await startSimulator({
  port: Number(env.SIMULATOR_PORT ?? 4010),
  host: env.SIMULATOR_HOST ?? '127.0.0.1',
  startInclusive: env.SIMULATOR_START_INCLUSIVE === 'true',
  countCap: env.SIMULATOR_COUNT_CAP ? Number(env.SIMULATOR_COUNT_CAP) : null,
  latencyMs: Number(env.SIMULATOR_LATENCY_MS ?? 0),
  listingFeeLatencyMs: Number(env.SIMULATOR_LISTING_FEE_LATENCY_MS ?? 0),
  faults: faultsFromEnv(),
  adminRoutes: env.SIMULATOR_ADMIN_ROUTES === 'true',
});
process.stdout.write(`partner simulator listening on ${simulator.url}\n`);
// Every signal is heard, once: Ctrl-C under npm arrives twice (the terminal's and npm's forward).
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void simulator.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
