// The entry point and the only module that reads the environment and listens. Without
// PARTNER_API_URL it starts the embedded partner simulator and points the service at it (in
// production mode only with PARTNER_SIMULATOR=embedded: config.ts refuses the omission).
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { checkHost, ConfigError, loadConfig, type Config } from './config.js';
import { createLogger, terminalDestination } from './logger.js';
import type { Tradegraph } from './server.js';
import type { PartnerSimulator } from './simulator/server.js';
import { DEMO_TRADE_EVERY_MS, SHUTDOWN_GRACE_MS, TRACING_FLUSH_MS } from './tunables.js';

/** The partner the service talks to: the configured one, or the embedded simulator when PARTNER_API_URL is unset. */
async function partnerOf(config: Config, logger: Logger) {
  let simulator: PartnerSimulator | null = null;
  let partnerApiUrl: string | null = config.partnerApiUrl;
  let partnerOpenApiUrl = config.partnerOpenApiUrl;
  let partnerAppKey = config.partnerAppKey;
  let graphiqlHeaders: Record<string, string> = {};
  if (partnerApiUrl === null) {
    // Loaded on demand, like the tracing SDK: a service with a real upstream never holds the demo.
    const [{ startSimulator }, { DEMO_ACCESS_TOKEN, DEMO_APP_KEY, DEMO_APP_ID, LIVE_DEMO_PLATFORM_ID }] = await Promise.all([
      import('./simulator/server.js'),
      import('./simulator/data.js'),
    ]);
    simulator = await startSimulator({ adminRoutes: config.simulatorAdminRoutes });
    // The demo inventory changes (trades, holds ending), so that GraphiQL's live tab shows events (graphiql/live-inventory.graphql).
    simulator.tradeOverTime(LIVE_DEMO_PLATFORM_ID, DEMO_APP_ID, DEMO_TRADE_EVERY_MS);
    graphiqlHeaders = { Authorization: `Bearer ${DEMO_ACCESS_TOKEN}` };
    partnerApiUrl = partnerOpenApiUrl = simulator.url;
    partnerAppKey ??= DEMO_APP_KEY;
    if (config.production) {
      logger.warn({ simulatorUrl: simulator.url }, 'PARTNER_SIMULATOR=embedded: serving demo data from the embedded partner simulator in production mode');
    } else {
      logger.info({ simulatorUrl: simulator.url }, 'PARTNER_API_URL is not set: serving from the embedded partner simulator (demo data)');
    }
    if (simulator.adminRoutes) {
      logger.warn({ simulatorUrl: simulator.url }, "SIMULATOR_ADMIN_ROUTES=true: the embedded simulator's /__simulator/ routes answer any local process");
    }
  } else if (partnerAppKey === null) {
    logger.warn('PARTNER_APP_KEY is not set: listing-fee calls will go upstream without a merchant key');
  }
  return { simulator, partnerApiUrl, partnerOpenApiUrl, partnerAppKey, graphiqlHeaders };
}

async function main(): Promise<void> {
  const config = stopOnConfigError(() => loadConfig(process.env));
  const starting = start(config);
  // Installed in the same tick as the start begins: a signal that arrives while the service is
  // still starting would otherwise meet Node's default action and end the process without a drain.
  onStopSignal(starting);
  await starting;
}

interface Started {
  logger: Logger;
  service: Tradegraph;
  simulator: PartnerSimulator | null;
  tracing: Awaited<ReturnType<typeof startTracing>> | null;
}

async function start(config: Config): Promise<Started> {
  await checkHost(config.host).catch(reportConfigError);
  const logger = createLogger(config.logLevel, await terminalDestination(config.production));
  // A stray rejection is a bug to log and fix, not a reason to drop every request in flight.
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled promise rejection'));
  // Off unless an OTLP endpoint is configured; the SDK is loaded only then.
  const tracing = config.tracing ? await startTracing(config.tracing) : null;
  if (config.tracing) logger.info({ serviceName: config.tracing.serviceName }, 'OpenTelemetry tracing is on (OTLP/HTTP)');
  return { logger, tracing, ...(await startService(config, logger)) };
}

async function startService(config: Config, logger: Logger): Promise<Pick<Started, 'service' | 'simulator'>> {
  // Loaded once the settings are known good: a refused setting stops the process before the
  // service's modules (Yoga, graphql, the partner client) are loaded, which takes most of a start.
  const [{ createTradegraph }, { simulator, partnerApiUrl, partnerOpenApiUrl, partnerAppKey, graphiqlHeaders }] = await Promise.all([
    import('./server.js'),
    partnerOf(config, logger),
  ]);

  // A trusted document that no request could run is a configuration error too (ConfigError).
  const service = stopOnConfigError(() =>
    createTradegraph({
      config: { ...config, partnerApiUrl, partnerOpenApiUrl: partnerOpenApiUrl ?? partnerApiUrl, partnerAppKey },
      logger,
      graphiqlHeaders,
    }),
  );
  const url = await service.listen(config.port, config.host).catch((error: NodeJS.ErrnoException) => {
    const reason =
      error.code === 'EADDRINUSE' ? 'is taken by another process'
      : error.code === 'EACCES' ? 'needs privileges this process lacks'
      : error.code === 'EADDRNOTAVAIL' ? 'is on an address this machine does not have (HOST)'
      : null;
    if (reason === null) throw error;
    // One line naming the setting to change: a stack trace would say nothing more to an operator.
    process.stderr.write(`tradegraph: port ${config.port} on ${config.host} ${reason}: set PORT (and HOST) to a free one.\n`);
    process.exit(1);
  });
  logger.info(
    { url, graphql: `${url}/graphql`, production: config.production },
    config.production ? 'tradegraph is serving' : `tradegraph is serving; GraphiQL at ${url}/graphql`,
  );

  return { service, simulator };
}

/**
 * Drains and stops on SIGTERM, SIGINT and SIGHUP, once, after the service has finished starting.
 * `on`, not `once`: Ctrl-C under `npm start` delivers SIGINT twice (from the terminal, and as npm
 * forwards it), and a second signal must not cut the shutdown short with Node's default exit.
 * SIGHUP (a closed terminal or a supervisor's hang-up) would by default end the process at once,
 * dropping the requests in flight; this service has nothing to reload, so it drains and stops.
 */
function onStopSignal(started: Promise<Started>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // A start that fails ends the process itself (main's catch), with its own message.
    const running = await started.catch(() => null);
    if (!running) return;
    const { logger, service, simulator, tracing } = running;
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    await service.close(SHUTDOWN_GRACE_MS);
    await simulator?.close();
    if (tracing) {
      // Buffered spans are flushed, but an unreachable collector must not hold up the exit.
      const flushed = tracing.shutdown().catch((error: unknown) => logger.warn({ err: error }, 'flushing spans failed'));
      await Promise.race([flushed, delay(TRACING_FLUSH_MS, undefined, { ref: false })]);
    }
    logger.info('stopped');
    logger.flush();
    process.exitCode = 0;
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => void stop(signal));
}

/** A bad setting stops the service with its message (which names the variable) and exit code 1. */
function stopOnConfigError<T>(start: () => T): T {
  try {
    return start();
  } catch (error) {
    return reportConfigError(error);
  }
}

/** One line per refused setting, naming it, without a stack trace: nothing more an operator needs. */
function reportConfigError(error: unknown): never {
  if (!(error instanceof ConfigError)) throw error;
  for (const problem of error.problems) process.stderr.write(`tradegraph: Invalid configuration: ${problem}\n`);
  process.exit(1);
}

async function startTracing({ tracesUrl, serviceName }: NonNullable<Config['tracing']>) {
  const { installTracing, otlpSpanProcessor } = await import('./observability/tracing.js');
  return installTracing({ serviceName, spanProcessor: otlpSpanProcessor(tracesUrl) });
}

main().catch((error: unknown) => {
  process.stderr.write(`tradegraph: failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
