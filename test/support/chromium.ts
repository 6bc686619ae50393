// Debian's Chromium for the browser tests. Playwright never downloads a browser here; when the
// package is missing and the tests run as root (as on these machines and in CI), it is installed
// with apt-get, so that `npm test` needs nothing else.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

export function ensureChromium(): string {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    throw new Error(`The browser tests need Debian's chromium at ${CHROMIUM}: run 'apt-get install chromium'.`);
  }
  const apt = (args: string[]) =>
    execFileSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', 'chromium']);
  return CHROMIUM;
}
