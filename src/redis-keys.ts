// Every key this service writes in Redis starts with one of these prefixes, one per store: two
// stores never share a namespace, and the fleet's ACL (`~tradegraph:*`, docs/fleet.md) covers them all.
export const REDIS_KEY_PREFIXES = {
  /**
   * Cached answers (plugins/response-cache/); the rest of the key is a SHA-256 hash. It names the
   * envelope's version, so that during a rolling deploy replicas of another version never read
   * these values, nor these replicas theirs.
   */
  responseCache: 'tradegraph:response:v1:',
  /** Credentials the partner accepted (partner/accepted-credentials.ts); the rest is the credential's digest. */
  acceptedCredential: 'tradegraph:accepted-credential:',
  /**
   * The rate limit's counters (plugins/rate-limit.ts); the rest is `:` and a SHA-256 hash,
   * `anonymous`, `unproven-fees`, or `share:` and a client's `address-` or `token-` hash.
   */
  rateLimit: 'tradegraph:rate-limit',
  /** A live group's lease (live/relay.ts): the rest is a SHA-256 hash of the group, whose key holds the credential's digest. */
  liveLease: 'tradegraph:live-lease:',
  /**
   * A live group's channel, on which its lease holder publishes each poll's results; the rest as
   * the lease's. It names the message's version, as the response cache's prefix does.
   */
  liveChannel: 'tradegraph:live:v1:',
} as const;
