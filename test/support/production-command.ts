// How `npm run start:prod` starts the service, read from a checkout's package.json: the tests and
// the bench start the production bundle with the same Node flags (the heap sizing among them)
// that production gets, and a flag Node refuses fails the tests rather than a deployment.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ProductionCommand {
  /** Node's own flags, in order, e.g. `--max-old-space-size=1536`. */
  nodeArgs: string[];
  /** The script Node runs, relative to the checkout. */
  entry: string;
}

/**
 * The `start:prod` script of the checkout at `root`, which must have the form
 * `[exec] node [--flag ...] <entry>`; null when the checkout has no such script (older revisions).
 */
export function productionCommand(root: string): ProductionCommand | null {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const script = manifest.scripts?.['start:prod'];
  if (script === undefined) return null;
  // `exec` lets the shell npm runs the script with hand its pid to node, so that npm's forwarded
  // signals reach the service (older revisions have none).
  const [command, ...rest] = script.trim().replace(/^exec\s+/, '').split(/\s+/);
  const entry = rest.pop();
  if (command !== 'node' || entry === undefined || entry.startsWith('-') || rest.some((arg) => !arg.startsWith('--'))) {
    throw new Error(`start:prod is not of the form "[exec] node [--flag ...] <entry>": ${script}`);
  }
  return { nodeArgs: rest, entry };
}
