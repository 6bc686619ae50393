// Debian's packages that `npm run fleet` and the tests run (redis-server, prometheus, chromium):
// installed with apt-get when one is missing and this process may install it (root, on a machine
// with apt-get), as CI does. One place, so that every package is installed the same way.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface AptInstallOptions {
  /** Told before apt-get runs. */
  onInstall?: () => void;
  /** Whether apt-get's own output is shown (its errors always are). */
  showInstall?: boolean;
  /** More arguments for `apt-get install`, before the package's name. */
  installArgs?: string[];
}

/** Installs a Debian package; false, without trying, when this process may not. */
export function aptInstall(packageName: string, { onInstall, showInstall = false, installArgs = [] }: AptInstallOptions = {}): boolean {
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) return false;
  onInstall?.();
  const apt = (args: string[]) =>
    execFileSync('apt-get', args, {
      stdio: ['ignore', showInstall ? 'inherit' : 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', ...installArgs, packageName]);
  return true;
}
