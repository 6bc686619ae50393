// Hive Gateway in front of the supergraph: `npx hive-gateway supergraph` reads this file from the
// working directory and serves supergraph.graphql (written by `npm run supergraph`).
import { defineConfig } from '@graphql-hive/gateway';

export const gatewayConfig = defineConfig({
  supergraph: 'supergraph.graphql',
  // @defer and @stream pass through to the subgraphs and back as incremental parts; without it the
  // gateway refuses them ("Unknown directive").
  deferStream: true,
  propagateHeaders: {
    // The facade acts for the caller: it forwards the caller's token to the partner API, so the
    // token must reach it through the gateway (and any subgraph that checks it).
    fromClientToSubgraphs: ({ request }) => {
      const authorization = request.headers.get('authorization');
      return authorization ? { authorization } : {};
    },
  },
});
