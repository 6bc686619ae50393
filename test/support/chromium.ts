// Debian's Chromium for the browser tests. Playwright never downloads a browser here; when the
// package is missing and the tests run as root (as on these machines and in CI), it is installed
// with apt-get, so that `npm test` needs nothing else.
import { existsSync } from 'node:fs';
import { aptInstall } from '../../src/federation/apt.js';

export const CHROMIUM = '/usr/bin/chromium';

export function ensureChromium(): string {
  if (existsSync(CHROMIUM) || aptInstall('chromium')) return CHROMIUM;
  throw new Error(`The browser tests need Debian's chromium at ${CHROMIUM}: run 'apt-get install chromium'.`);
}
