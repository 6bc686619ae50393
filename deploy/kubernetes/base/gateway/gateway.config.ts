// Hive Gateway's config in the cluster (mounted as /gateway/gateway.config.ts of the official
// image): the repository's gateway.config.ts, and X-Forwarded-For passed on as the ingress
// controller wrote it, so that the replicas' rate limits see the client's address
// (RATE_LIMIT_PROXY_HOPS=1). test/deploy/manifests.test.ts holds the two configs to each other.
import { defineConfig } from '@graphql-hive/gateway';

export const PROPAGATED_HEADERS = [
  'authorization',
  'graphql-client-name',
  'graphql-client-version',
  'apollographql-client-name',
  'apollographql-client-version',
  'x-forwarded-for',
] as const;

export const gatewayConfig = defineConfig({
  supergraph: 'supergraph.graphql',
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
