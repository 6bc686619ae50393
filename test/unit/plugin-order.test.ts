import { describe, expect, it } from 'vitest';
import { PLUGIN_ORDER, type PluginParts } from '../../src/plugins/index.js';
import { pluginPartsWith } from '../support/plugin-parts.js';

/** Yoga runs each hook in plugin order: these are the reasons written beside each entry. */
const ORDER = [
  'observability',
  'tracing',
  'deprecated-usage',
  'accept-negotiation',
  'csrf-prevention',
  'query-size-limit',
  'variables-depth-limit',
  'trusted-documents',
  'incremental-delivery',
  'operation-limits',
  'production',
  'error-codes',
  'refusal-bodies',
  'rate-limit',
  'cost-extension',
  'federation-introspection',
  'compiled-execution',
  'graphiql-caching',
  'compression',
  'response-cache',
  'answer-budget',
];

/** The entries that give Yoga at least one plugin under this configuration. */
function activeEntries(parts: PluginParts): string[] {
  return PLUGIN_ORDER.filter((entry) => entry.build(parts).length > 0).map((entry) => entry.name);
}

describe('the plugin order', () => {
  it('is the one pinned here', () => {
    expect(PLUGIN_ORDER.map((entry) => entry.name)).toEqual(ORDER);
  });

  it('includes every entry when every feature is on', () => {
    const parts = pluginPartsWith({
      NODE_ENV: 'production',
      PARTNER_API_URL: 'http://127.0.0.1:9',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      RATE_LIMIT_MAX: '100',
      RESPONSE_CACHE_TTL_MS: '1000',
    });
    // Production refuses introspection and serves no GraphiQL, so the development-only plugins for them are left out.
    expect(activeEntries(parts)).toEqual(ORDER.filter((name) => !['federation-introspection', 'graphiql-caching'].includes(name)));
  });

  it('leaves out the switched-off features by default (development, where the rate limit is on)', () => {
    expect(activeEntries(pluginPartsWith({}))).toEqual(ORDER.filter((name) => !['tracing', 'production', 'response-cache'].includes(name)));
  });
});
