// The parts the service's plugin list is built from (src/plugins/index.ts), for tests that build it
// without a server: the configuration from an environment, and the rest as the server makes them.
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { graphiqlOptions, graphiqlPage } from '../../src/graphiql.js';
import { createClientIdentities } from '../../src/observability/client-identity.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { AcceptedCredentials } from '../../src/partner/accepted-credentials.js';
import type { PluginParts } from '../../src/plugins/index.js';
import { createRateLimit } from '../../src/plugins/rate-limit.js';

export function pluginPartsWith(env: Record<string, string>): PluginParts {
  const config = loadConfig(env);
  return {
    config,
    logger: pino({ level: 'silent' }),
    metrics: createMetrics(),
    clients: createClientIdentities({ maxNames: config.clientNamesMax }),
    redis: null,
    rateLimit: config.rateLimit ? createRateLimit({ ...config.rateLimit, accepted: new AcceptedCredentials() }) : null,
    trustedDocuments: new Map(),
    // As the server has it: GraphiQL outside production only.
    graphiql: config.production ? null : { page: graphiqlPage(graphiqlOptions({})), graphqlPath: '/graphql' },
  };
}
