// `npm run supergraph [-- --config <file>]`: composes the subgraphs that supergraph.config.json
// names and writes the supergraph SDL for Hive Gateway (see docs/gateway-and-federation.md).
import { parseArgs } from 'node:util';
import { readSupergraphConfig, SupergraphError, writeSupergraph } from './compose.js';

const { values } = parseArgs({ options: { config: { type: 'string', default: 'supergraph.config.json' } } });
try {
  const config = readSupergraphConfig(values.config);
  const output = await writeSupergraph(config);
  const names = config.subgraphs.map((subgraph) => subgraph.name).join(', ');
  process.stdout.write(`supergraph of ${config.subgraphs.length} subgraph(s) (${names}) written to ${output}\n`);
} catch (error) {
  process.stderr.write(`${error instanceof SupergraphError ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
