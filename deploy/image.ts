// `npm run image`: builds the Containerfile as localhost/tradegraph:dev with docker or podman,
// whichever answers, and prints the image's size. Arguments after `--` go to the engine's `build`
// (e.g. `--build-arg BASE_IMAGE=...`, or podman's `--runtime`).
import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const IMAGE_TAG = 'localhost/tradegraph:dev';
export type Engine = 'docker' | 'podman';

/** CONTAINER_ENGINE when set, else docker when its daemon answers, else podman when it runs; null: neither. */
export async function findEngine(preferred = process.env.CONTAINER_ENGINE): Promise<Engine | null> {
  const candidates: Engine[] = preferred === 'docker' || preferred === 'podman' ? [preferred] : ['docker', 'podman'];
  for (const engine of candidates) {
    try {
      await run(engine, ['info'], { timeout: 30_000 });
      return engine;
    } catch {
      // not installed, or no daemon (docker) / no storage (podman): try the next
    }
  }
  return null;
}

/** Runs `<engine> build` on the checkout, its output passed through; rejects when it fails. */
export function buildImage(engine: Engine, flags: readonly string[], tag = IMAGE_TAG): Promise<void> {
  const args = ['build', '--file', 'Containerfile', '--tag', tag, ...flags, '.'];
  return new Promise((resolve, reject) => {
    const child = spawn(engine, args, { cwd: ROOT, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${engine} ${args.join(' ')} failed (${code ?? signal})`)),
    );
  });
}

/** The image's size in bytes, as the engine reports it (its layers, uncompressed). */
export async function imageSize(engine: Engine, tag = IMAGE_TAG): Promise<number> {
  const { stdout } = await run(engine, ['image', 'inspect', '--format', '{{.Size}}', tag]);
  return Number(stdout.trim());
}

async function main(): Promise<void> {
  const engine = await findEngine();
  if (engine === null) {
    process.stderr.write('image: neither docker (with a running daemon) nor podman works here; install one (e.g. apt-get install podman)\n');
    process.exit(1);
  }
  await buildImage(engine, process.argv.slice(2));
  const size = await imageSize(engine);
  process.stdout.write(`image: built ${IMAGE_TAG} with ${engine}; size ${(size / 1e6).toFixed(0)} MB\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`image: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
