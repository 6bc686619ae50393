// The credentials the partner has accepted: evidence of a caller that a client cannot make up. A
// token counts as a caller of its own (a distinct caller for the circuit breaker, a budget of its
// own for listing fees, which spend the merchant's key) only once the partner has answered a read
// made with it; before that, every made-up token is one and the same unproven caller.

import { LRUCache } from 'lru-cache';

/** A credential's digest (credentials.ts `credentialKeyOf`); the secret itself is never held here. */
export type CredentialDigest = string;

export interface AcceptedCredentialsOptions {
  /** Digests remembered at most; the ones accepted longest ago are forgotten first. */
  maxEntries?: number;
  /** How long one acceptance counts as evidence; the document does not say how long tokens live. */
  ttlMs?: number;
}

export class AcceptedCredentials {
  /** Each digest the partner accepted, forgotten `ttlMs` after its last acceptance or when crowded out. */
  private readonly accepted: LRUCache<CredentialDigest, true>;

  constructor({ maxEntries = 100_000, ttlMs = 60 * 60 * 1000 }: AcceptedCredentialsOptions = {}) {
    this.accepted = new LRUCache({ max: maxEntries, ttl: ttlMs });
  }

  /** The partner answered a call made with this credential: its evidence counts for `ttlMs` more. */
  accept(digest: CredentialDigest): void {
    this.accepted.set(digest, true);
  }

  has(digest: CredentialDigest): boolean {
    return this.accepted.has(digest);
  }
}
