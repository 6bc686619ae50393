// Hive Gateway's config in the cluster (mounted as /gateway/gateway.config.ts of the official
// image): the repository's gateway.config.ts, and X-Forwarded-For passed on as the ingress
// controller wrote it, so that the replicas' rate limits see the client's address
// (RATE_LIMIT_PROXY_HOPS=1). test/deploy/manifests.test.ts holds the two configs to each other.
import { defineConfig } from '@graphql-hive/gateway';

/**
 * The client's own headers the facade reads, passed on as the client sent them: the caller's token
 * (the facade acts for the caller: it forwards the token to the partner API, so the token must
 * reach it through the gateway, and any subgraph that checks it), and the client's name and
 * version in Hive's and Apollo's spellings (client awareness: the facade's metrics and logs count
 * operations by client, docs/operations.md).
 */
export const PROPAGATED_HEADERS = [
  'authorization',
  'graphql-client-name',
  'graphql-client-version',
  'apollographql-client-name',
  'apollographql-client-version',
  'x-forwarded-for',
] as const;

/**
 * The facade's answer headers a client reads, passed back from the subgraph: the caller's budget
 * (RateLimit-Policy, RateLimit: docs/operation-limits.md) and, on a refusal, when to retry. The
 * gateway passes on no subgraph response header unless told to.
 */
export const PROPAGATED_RESPONSE_HEADERS = ['ratelimit-policy', 'ratelimit', 'retry-after'] as const;

/** Per client request (its context), the RateLimit field with the least budget left so far. */
const leastRateLimit = new WeakMap<object, string>();
/** The `r` (remaining) of a RateLimit field such as `"default";r=974;t=37`. */
const remainingOf = (field: string) => Number(/;r=(\d+)/.exec(field)?.[1] ?? Infinity);

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
      // The gateway reads a subscription from the facade over SSE with a GET, which the facade's CSRF
      // rule refuses without this header: the gateway is a server, not a browser a page could steer.
      headers['x-graphql-csrf'] = '1';
      return headers;
    },
    fromSubgraphsToClient: ({ response, context }) => {
      const headers: Record<string, string> = {};
      for (const name of PROPAGATED_RESPONSE_HEADERS) {
        const value = response.headers.get(name);
        if (value !== null) headers[name] = value;
      }
      // One operation may take the facade several times, each call spending from the caller's
      // budget, and their answers may arrive in any order: the client is told the least budget any
      // of them reported (what is left after all of them), as one field, not a list of every call's.
      if (headers.ratelimit !== undefined) {
        const least = leastRateLimit.get(context);
        if (least !== undefined && remainingOf(least) <= remainingOf(headers.ratelimit)) headers.ratelimit = least;
        leastRateLimit.set(context, headers.ratelimit);
      }
      return headers;
    },
    // Each call's fields replace the previous call's rather than add to them (see above).
    deduplicateHeaders: true,
  },
});
