// Hive Gateway in front of the supergraph: `npx hive-gateway supergraph` reads this file from the
// working directory and serves supergraph.graphql (written by `npm run supergraph`).
import { defineConfig } from '@graphql-hive/gateway';

/**
 * The client's own headers the facade reads, passed on as the client sent them: the caller's token
 * (the facade acts for the caller: it forwards the token to the partner API, so the token must
 * reach it through the gateway, and any subgraph that checks it), and the client's name and
 * version in Hive's and Apollo's spellings (client awareness: the facade's metrics and logs count
 * operations by client, docs/observability.md).
 */
export const PROPAGATED_HEADERS = [
  'authorization',
  'graphql-client-name',
  'graphql-client-version',
  'apollographql-client-name',
  'apollographql-client-version',
] as const;

export const gatewayConfig = defineConfig({
  supergraph: 'supergraph.graphql',
  // @defer and @stream pass through to the subgraphs and back as incremental parts; without it the
  // gateway refuses them ("Unknown directive").
  deferStream: true,
  propagateHeaders: {
    fromClientToSubgraphs: ({ request }) => {
      const headers: Record<string, string> = {};
      for (const name of PROPAGATED_HEADERS) {
        const value = request.headers.get(name);
        if (value !== null) headers[name] = value;
      }
      return headers;
    },
  },
});
