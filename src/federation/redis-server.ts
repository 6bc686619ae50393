// Debian's redis-server, which `npm run fleet` and the Redis tests start: where it is, and its
// installation with apt-get when it is missing and this process may install it (root), as CI does.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Where Debian's package puts it, and where the PATH may. */
const REDIS_SERVER_PATHS = ['/usr/bin/redis-server', '/usr/sbin/redis-server', '/usr/local/bin/redis-server'];

interface FindRedisServerOptions {
  /** Told before apt-get runs. */
  onInstall?: () => void;
  /** Whether apt-get's own output is shown (its errors always are). */
  showInstall?: boolean;
}

/** The path of redis-server, installed first when it is missing and may be; null when it is neither. */
export function findRedisServer({ onInstall, showInstall = false }: FindRedisServerOptions = {}): string | null {
  const found = REDIS_SERVER_PATHS.find((path) => existsSync(path));
  if (found) return found;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) return null;
  onInstall?.();
  const apt = (args: string[]) =>
    execFileSync('apt-get', args, {
      stdio: ['ignore', showInstall ? 'inherit' : 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', 'redis-server']);
  return REDIS_SERVER_PATHS.find((path) => existsSync(path)) ?? null;
}
