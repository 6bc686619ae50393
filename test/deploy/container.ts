// A container engine for the image test: podman (or docker) with the flags this kind of machine
// needs, and a base image for the Containerfile's BASE_IMAGE where the default cannot be pulled.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ContainerEngine {
  name: 'podman' | 'docker';
  /** Flags for `build` and `run` on this machine: the OCI runtime, the ulimits, the host's network. */
  flags: string[];
  exec(args: string[], timeoutMs?: number): Promise<{ stdout: string; stderr: string }>;
}

/**
 * Podman, else docker with a daemon; null where neither can run a container. On hosts with hybrid
 * cgroups crun refuses to start containers, so Debian's runc is chosen when it is there; the
 * default ulimits may exceed the host's hard limits, so they are given; and the host's network
 * lets the container reach the simulator on loopback (and the build reach the npm registry).
 */
export async function findContainerEngine(): Promise<ContainerEngine | null> {
  for (const name of ['podman', 'docker'] as const) {
    try {
      await run(name, ['info'], { timeout: 30_000 });
    } catch {
      continue;
    }
    const runtime = name === 'podman' && existsSync('/usr/sbin/runc') ? ['--runtime', '/usr/sbin/runc'] : [];
    return {
      name,
      flags: [...runtime, '--network', 'host', '--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1024:1024'],
      exec: (args, timeoutMs = 60_000) => run(name, args, { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }),
    };
  }
  return null;
}

/** Debian packages the official Node image adds to its Debian: Node's binaries link libatomic. */
const BASE_PACKAGES = ['libatomic1'];
/** Names the base's recipe in its tag, so that a changed recipe builds a new base instead of reusing the cached one. */
const BASE_RECIPE = 'r2';

/** The default base when it can be pulled, else a Debian bookworm minbase with the pinned Node and npm (cached by tag). */
export async function baseImage(engine: ContainerEngine, defaultBase: string, nodeBinary: string): Promise<string> {
  try {
    // Where no registry answers, podman retries for minutes: a minute is enough for one that does.
    await engine.exec(['pull', '--quiet', defaultBase], 60_000);
    return defaultBase;
  } catch {
    // No registry here: build a base of the same layout from Debian's packages.
  }
  const { stdout: nodeVersion } = await run(nodeBinary, ['--version']);
  const { stdout: npmRoot } = await run('npm', ['root', '--global']);
  const { stdout: npmVersion } = await run('npm', ['--version']);
  // Node's extra certificate authorities of this machine (a TLS-inspecting proxy before the npm
  // registry, say): the base trusts them too, as an organisation's own base image would.
  const extraCa = process.env.NODE_EXTRA_CA_CERTS !== undefined && existsSync(process.env.NODE_EXTRA_CA_CERTS) ? readFileSync(process.env.NODE_EXTRA_CA_CERTS) : null;
  const caTag = extraCa === null ? '' : `-ca${createHash('sha256').update(extraCa).digest('hex').slice(0, 12)}`;
  const tag = `localhost/tradegraph-test-base:bookworm-${BASE_RECIPE}-node${nodeVersion.trim().replace(/^v/, '')}-npm${npmVersion.trim()}${caTag}`;
  try {
    await engine.exec(['image', 'exists', tag]);
    return tag;
  } catch {
    // not built yet on this machine
  }
  const dir = mkdtempSync(join(tmpdir(), 'tradegraph-base-'));
  const root = join(dir, 'root');
  try {
    // The mirror and suite apt already uses on this machine (Debian 12).
    await run('debootstrap', ['--variant=minbase', `--include=${BASE_PACKAGES.join(',')}`, 'bookworm', root, debianMirror()], { timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
    // Where the official Node image has them: Node in /usr/local/bin, npm in /usr/local/lib/node_modules.
    mkdirSync(join(root, 'usr/local/lib/node_modules'), { recursive: true });
    copyFileSync(nodeBinary, join(root, 'usr/local/bin/node'));
    cpSync(join(npmRoot.trim(), 'npm'), join(root, 'usr/local/lib/node_modules/npm'), { recursive: true });
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(root, 'usr/local/bin/npm'));
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(root, 'usr/local/bin/npx'));
    const changes: string[] = [];
    if (extraCa !== null) {
      mkdirSync(join(root, 'etc/ssl'), { recursive: true });
      writeFileSync(join(root, 'etc/ssl/host-extra-ca.crt'), extraCa);
      changes.push('--change', 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/host-extra-ca.crt');
    }
    const importArgs = [...changes, '-', tag].map((arg) => `'${arg}'`).join(' ');
    await run('sh', ['-c', `tar -C '${root}' --exclude=./proc/* --exclude=./sys/* --exclude=./dev/* -c . | ${engine.name} import ${importArgs}`], {
      timeout: 300_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return tag;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The Debian mirror apt is set up with (deb822 .sources or a one-line sources.list), for bookworm. */
function debianMirror(): string {
  const texts = ['/etc/apt/sources.list', ...listSources()].filter((path) => existsSync(path)).map((path) => readFileSync(path, 'utf8'));
  for (const text of texts) {
    // deb822: a stanza with `URIs:` whose `Suites:` name bookworm itself.
    for (const stanza of text.split(/\n\s*\n/)) {
      const uri = /^URIs:\s*(\S+)/m.exec(stanza)?.[1];
      if (uri !== undefined && /^Suites:.*\bbookworm(\s|$)/m.test(stanza)) return uri;
    }
    const line = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+bookworm\s/m.exec(text);
    if (line) return line[1]!;
  }
  return 'http://deb.debian.org/debian';
}

function listSources(): string[] {
  const dir = '/etc/apt/sources.list.d';
  return existsSync(dir) ? readdirSync(dir).filter((name) => /\.(list|sources)$/.test(name)).map((name) => join(dir, name)) : [];
}
