// The credentials the partner has accepted: evidence of a caller that a client cannot make up. A
// token counts as a caller of its own (a distinct caller for the circuit breaker, a budget of its
// own for listing fees, which spend the merchant's key) only once the partner has answered a read
// made with it; before that, every made-up token is one and the same unproven caller. With Redis
// the record is the fleet's: each acceptance is written there too (the digest, with the same time
// to live, and when it ends, tagged as the fleet's own: redis-values.ts), so that a new replica knows
// the callers the others know, and no value another writer planted makes a token accepted.

import { LRUCache } from 'lru-cache';
import type { SharedRedis } from '../redis.js';
import { REDIS_KEY_PREFIXES } from '../redis-keys.js';
import { ACCEPTED_CREDENTIAL_REFRESH_SHARE, ACCEPTED_CREDENTIAL_TTL_MS, ACCEPTED_CREDENTIALS_MAX } from '../tunables.js';

/** A credential's digest (credentials.ts `credentialKeyOf`); the secret itself is never held here. */
export type CredentialDigest = string;

export interface AcceptedCredentialsOptions {
  /** Digests remembered at most; the ones accepted longest ago are forgotten first. */
  maxEntries?: number;
  /** How long one acceptance counts as evidence; the document does not say how long tokens live. */
  ttlMs?: number;
  /** The fleet's Redis (REDIS_URL), where acceptances are shared; each replica keeps its own without. */
  redis?: SharedRedis | null;
}

export class AcceptedCredentials {
  /**
   * Each digest the partner accepted, forgotten `ttlMs` after its last acceptance or when crowded
   * out; its value is when it was last written to Redis.
   */
  private readonly accepted: LRUCache<CredentialDigest, number>;
  private readonly ttlMs: number;
  private readonly redis: SharedRedis | null;
  /** Redis lookups under way, by digest; each entry leaves as its answer arrives. */
  private readonly asking = new Map<CredentialDigest, Promise<boolean>>();

  constructor({ maxEntries = ACCEPTED_CREDENTIALS_MAX, ttlMs = ACCEPTED_CREDENTIAL_TTL_MS, redis = null }: AcceptedCredentialsOptions = {}) {
    this.accepted = new LRUCache({ max: maxEntries, ttl: ttlMs });
    this.ttlMs = ttlMs;
    this.redis = redis;
  }

  /** The partner answered a call made with this credential: its evidence counts for `ttlMs` more. */
  accept(digest: CredentialDigest): void {
    const sharedAt = this.accepted.get(digest);
    const now = Date.now();
    const share = this.redis !== null && (sharedAt === undefined || now - sharedAt > this.ttlMs * ACCEPTED_CREDENTIAL_REFRESH_SHARE);
    this.accepted.set(digest, share ? now : (sharedAt ?? now));
    // Sharing is best effort: while Redis is away each replica keeps its own record.
    if (share) {
      const key = REDIS_KEY_PREFIXES.acceptedCredential + digest;
      const value = this.redis!.values.seal(key, String(now + this.ttlMs));
      void this.redis!.attempt((client) => client.set(key, value, 'PX', this.ttlMs));
    }
  }

  /** Whether this replica knows the credential as accepted (its own record only). */
  has(digest: CredentialDigest): boolean {
    return this.accepted.has(digest);
  }

  /**
   * Whether the fleet knows the credential as accepted: this replica's record, else Redis's (kept
   * here for what remains of its time to live). Answers at once without Redis or on a local hit.
   */
  knows(digest: CredentialDigest): boolean | Promise<boolean> {
    const known = this.accepted.has(digest);
    if (this.redis === null || known) return known;
    // One lookup per digest at a time: a burst of an unknown caller's failures (the breaker asks for
    // each) or of its fee batches waits on the same answer rather than sending a PTTL each.
    let asked = this.asking.get(digest);
    if (asked === undefined) {
      asked = this.lookUp(this.redis, digest).finally(() => this.asking.delete(digest));
      this.asking.set(digest, asked);
    }
    return asked;
  }

  /**
   * Reads the fleet's record of a digest: the value holds when its acceptance ends, tagged; a value
   * without a valid tag for its key is no evidence (a miss, counted). The end is read from the
   * writer's clock: replicas' clocks are assumed to agree to well within the time to live.
   */
  private async lookUp(redis: SharedRedis, digest: CredentialDigest): Promise<boolean> {
    const key = REDIS_KEY_PREFIXES.acceptedCredential + digest;
    const stored = await redis.attempt((client) => client.get(key));
    if (stored === undefined || stored === null) return false;
    const endsAt = redis.values.open(key, stored, 'accepted_credentials');
    if (endsAt === undefined || !/^\d{1,16}$/.test(endsAt)) return false;
    // Never longer than one acceptance lasts, whatever the writer's clock said.
    const remainingMs = Math.min(Number(endsAt) - Date.now(), this.ttlMs);
    if (remainingMs <= 0) return false;
    // As if written when its time to live in Redis began: it is written again as that runs out.
    this.accepted.set(digest, Date.now() - Math.max(0, this.ttlMs - remainingMs), { ttl: remainingMs });
    return true;
  }
}
