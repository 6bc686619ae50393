// The service's structured JSON logger. Secrets are redacted by path as a second line of defence;
// the first is that no code logs a token, a key or an upstream query string.
import pino, { type DestinationStream, type Logger } from 'pino';

export const REDACT_PATHS = [
  'accessToken',
  'access_token',
  'appKey',
  'authorization',
  '*.accessToken',
  '*.access_token',
  '*.appKey',
  '*.authorization',
  'headers.authorization',
  'headers["app-key"]',
  'req.headers.authorization',
  'req.headers["app-key"]',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      name: 'tradegraph',
      level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      base: { service: 'tradegraph' },
    },
    // Asynchronous writes: logging never blocks a request on stdout.
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

/** Yoga's own log lines go to pino, so every line of the service is structured JSON. */
export function yogaLogging(logger: Logger) {
  const forward =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]) => {
      // Yoga logs a few debug lines per request: build none of them when the level is off.
      if (!logger.isLevelEnabled(level)) return;
      const [first, ...rest] = args;
      if (first instanceof Error) logger[level]({ err: first }, rest.map(String).join(' ') || first.message);
      else logger[level](args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' '));
    };
  return { debug: forward('debug'), info: forward('info'), warn: forward('warn'), error: forward('error') };
}
