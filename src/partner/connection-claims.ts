// Whose shares of the partner connections one call may be admitted under (connection-slots.ts):
// a call shared by several callers (coalesce.ts) is made for each of them.

/**
 * Whose shares of the connections a call may be admitted under: the connection domains of the
 * caller that started it, and of each caller that joined it while it waits for a connection. Each
 * distinct set of domains is held once, however many callers of one user joined.
 */
export class ConnectionClaims {
  /** Each distinct set of domains, by its text, with how many joined callers claim it. */
  private readonly claims = new Map<string, { domains: readonly string[]; callers: number }>();
  private added: (() => void) | undefined;

  constructor(starter: readonly string[] = []) {
    // The starter's claim is never taken back: the call is made in its name (its request id, its span).
    this.claims.set(claimKey(starter), { domains: starter, callers: Number.POSITIVE_INFINITY });
  }

  /** Adds a joined caller's domains; answers how to take them back should that caller leave first. */
  add(domains: readonly string[]): () => void {
    const key = claimKey(domains);
    const claim = this.claims.get(key);
    if (claim) claim.callers += 1;
    else this.claims.set(key, { domains, callers: 1 });
    this.added?.();
    let taken = false;
    return () => {
      if (taken) return;
      taken = true;
      const held = this.claims.get(key)!;
      if ((held.callers -= 1) === 0) this.claims.delete(key);
    };
  }

  /** Each distinct set of domains claimed, the starter's first. */
  *[Symbol.iterator](): IterableIterator<readonly string[]> {
    for (const { domains } of this.claims.values()) yield domains;
  }

  /** Tells the slots a wait is watching these claims: a claim added may let it take a slot now. */
  watch(listener: (() => void) | undefined): void {
    this.added = listener;
  }
}

const claimKey = (domains: readonly string[]) => domains.join('\n');
