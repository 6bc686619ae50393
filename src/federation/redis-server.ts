// Debian's redis-server, which `npm run fleet` and the Redis tests start: where it is, and its
// installation with apt-get when it is missing and this process may install it (root), as CI does.
import { existsSync } from 'node:fs';
import { aptInstall, type AptInstallOptions } from './apt.js';

/** Where Debian's package puts it, and where the PATH may. */
const REDIS_SERVER_PATHS = ['/usr/bin/redis-server', '/usr/sbin/redis-server', '/usr/local/bin/redis-server'];

/** The path of redis-server, installed first when it is missing and may be; null when it is neither. */
export function findRedisServer(options: Omit<AptInstallOptions, 'installArgs'> = {}): string | null {
  const found = () => REDIS_SERVER_PATHS.find((path) => existsSync(path)) ?? null;
  return found() ?? (aptInstall('redis-server', options) ? found() : null);
}
