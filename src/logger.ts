// The service's structured JSON logger (in development on a terminal, the same lines made readable
// by pino-pretty). Secrets are redacted by path as a second line of defence;
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

/**
 * Where development logs go when a person reads them: on a terminal (stdout is a TTY) outside
 * production, pino-pretty's one readable line per entry, written synchronously (a terminal, not a
 * log pipeline, and no line lost at exit); undefined otherwise, for the JSON lines a log collector
 * reads. pino-pretty is loaded only then.
 */
export async function terminalDestination(production: boolean, stdout: { isTTY?: boolean } = process.stdout): Promise<DestinationStream | undefined> {
  if (production || !stdout.isTTY) return undefined;
  const { default: pretty } = await import('pino-pretty');
  return pretty({ destination: 1, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,name,service' });
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
