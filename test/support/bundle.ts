// The production bundle (`npm run build`) in a folder of one test file's own, beside dist/ (the
// bundle reads ../schema and ../graphiql at run time). Test files run in parallel forks: one
// rebuilding dist/ while another starts a process from it could load a half-written chunk.
// main.test.ts alone builds dist/ itself, since `npm run start:prod` names dist/main.js.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Bundle {
  /** The bundle's entry, relative to the checkout (for startServiceProcess or node). */
  entry: `${string}.js`;
  remove(): void;
}

/** Builds the bundle into `dist-<name>-<pid>/`. */
export function buildBundle(name: string): Bundle {
  const dir = `dist-${name}-${process.pid}`;
  execFileSync('npm', ['run', '--silent', 'build', '--', `--outdir=${dir}`], { cwd: ROOT, stdio: 'ignore' });
  return { entry: `${dir}/main.js`, remove: () => rmSync(join(ROOT, dir), { recursive: true, force: true }) };
}
