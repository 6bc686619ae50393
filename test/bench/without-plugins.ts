// The facade without some of its plugins, for the bench only: what one per-request feature costs is
// the facade's cost less this build's, measured in the same rounds (npm run bench --
// --compare-without-plugin=<name>) or counted by callgrind (WITHOUT_PLUGINS=<name> test/bench/instructions.sh).
// BENCH_WITHOUT_PLUGINS names entries of src/plugins/index.ts's PLUGIN_ORDER, comma-separated; they
// are taken out of the list before the service starts, so nothing else about the facade changes.
// Built as the facade is (one esbuild bundle, beside it in dist/, where the service finds schema/ at
// ../schema), so that the entry and the service share one module graph.
import { PLUGIN_ORDER } from '../../src/plugins/index.js';

const names = (process.env.BENCH_WITHOUT_PLUGINS ?? '').split(',').filter(Boolean);
const order = PLUGIN_ORDER as Array<(typeof PLUGIN_ORDER)[number]>;
for (const name of names) {
  const at = order.findIndex((entry) => entry.name === name);
  if (at === -1) throw new Error(`BENCH_WITHOUT_PLUGINS: no plugin '${name}' (there are ${order.map((entry) => entry.name).join(', ')})`);
  order.splice(at, 1);
}
await import('../../src/main.js');
