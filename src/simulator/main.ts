// Runs the partner simulator alone (`npm run simulator`): SIMULATOR_PORT (default 4010),
// SIMULATOR_START_INCLUSIVE=true|false, SIMULATOR_COUNT_CAP=<n>, SIMULATOR_LATENCY_MS=<n>,
// SIMULATOR_LISTING_FEE_LATENCY_MS=<n> (added to fee answers only: shows @defer's first payload early).
import { startSimulator } from './server.js';

const env = process.env;
const simulator = await startSimulator({
  port: Number(env.SIMULATOR_PORT ?? 4010),
  host: env.SIMULATOR_HOST ?? '127.0.0.1',
  startInclusive: env.SIMULATOR_START_INCLUSIVE === 'true',
  countCap: env.SIMULATOR_COUNT_CAP ? Number(env.SIMULATOR_COUNT_CAP) : null,
  latencyMs: Number(env.SIMULATOR_LATENCY_MS ?? 0),
  listingFeeLatencyMs: Number(env.SIMULATOR_LISTING_FEE_LATENCY_MS ?? 0),
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
