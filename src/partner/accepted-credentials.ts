// The credentials the partner has accepted: evidence of a caller that a client cannot make up. A
// token counts as a caller of its own (a distinct caller for the circuit breaker, a budget of its
// own for listing fees, which spend the merchant's key) only once the partner has answered a read
// made with it; before that, every made-up token is one and the same unproven caller.

/** A credential's digest (context.ts `credentialDigest`); the secret itself is never held here. */
export type CredentialDigest = string;

export interface AcceptedCredentialsOptions {
  /** Digests remembered at most; the ones accepted longest ago are forgotten first. */
  maxEntries?: number;
  /** How long one acceptance counts as evidence; the document does not say how long tokens live. */
  ttlMs?: number;
}

export class AcceptedCredentials {
  /** Each digest and when the partner last accepted it, oldest first. */
  private readonly acceptedAt = new Map<CredentialDigest, number>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;

  constructor({ maxEntries = 100_000, ttlMs = 60 * 60 * 1000 }: AcceptedCredentialsOptions = {}) {
    this.maxEntries = maxEntries;
    this.ttlMs = ttlMs;
  }

  /** The partner answered a call made with this credential. */
  accept(digest: CredentialDigest): void {
    // Re-inserted so that the map stays ordered by the last acceptance.
    this.acceptedAt.delete(digest);
    this.acceptedAt.set(digest, Date.now());
    if (this.acceptedAt.size > this.maxEntries) {
      this.acceptedAt.delete(this.acceptedAt.keys().next().value!);
    }
  }

  has(digest: CredentialDigest): boolean {
    const at = this.acceptedAt.get(digest);
    if (at === undefined) return false;
    if (Date.now() - at <= this.ttlMs) return true;
    this.acceptedAt.delete(digest);
    return false;
  }
}
