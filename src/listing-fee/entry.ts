// One listing-fee entry (a price, its tokens, its asset) and what tells entries apart: the one
// equality and identity that the input checks (input.ts) and the loader's cache and calls
// (fee-loader.ts) both count by.

export interface ListingFeeKey {
  readonly price: number;
  readonly token: string | null;
  readonly styleToken: string | null;
  /** The asset the fee is for, when known (an item's own fee): its result is matched by it. */
  readonly assetId?: string | null;
}

/**
 * The loader's cache: one value per distinct entry (the same price, token, styleToken and asset
 * id, as sameEntry tells them apart), found among the few entries of its identity field by field.
 * No text is built per entry: a text made for each one would be hashed and internalised anew by
 * the Map it meets, where the entry's own texts are that once for every Map.
 */
export class ListingFeeCache<V> {
  #entries = new ByIdentity<{ key: ListingFeeKey; value: V }[]>();

  get(key: ListingFeeKey): V | undefined {
    return this.#entries.get(key)?.find((entry) => sameEntry(entry.key, key))?.value;
  }

  set(key: ListingFeeKey, value: V): this {
    const entries = this.#entries.get(key);
    if (!entries) {
      this.#entries.set(key, [{ key, value }]);
      return this;
    }
    const at = entries.findIndex((entry) => sameEntry(entry.key, key));
    if (at === -1) entries.push({ key, value });
    else entries[at] = { key, value };
    return this;
  }

  delete(key: ListingFeeKey): boolean {
    const entries = this.#entries.get(key);
    const at = entries ? entries.findIndex((entry) => sameEntry(entry.key, key)) : -1;
    if (at === -1) return false;
    entries!.splice(at, 1);
    return true;
  }

  clear(): void {
    this.#entries = new ByIdentity();
  }

  /** How many distinct entries it holds of `key`'s identity (identityOf), `key`'s own among them if held. */
  entriesOfIdentity(key: ListingFeeKey): number {
    return this.#entries.get(key)?.length ?? 0;
  }
}

/** Whether two entries are one: the same price (a checked integer), token, styleToken and asset id, a missing one as null. */
export const sameEntry = (a: ListingFeeKey, b: ListingFeeKey): boolean =>
  a.price === b.price &&
  (a.token ?? null) === (b.token ?? null) &&
  (a.styleToken ?? null) === (b.styleToken ?? null) &&
  (a.assetId ?? null) === (b.assetId ?? null);

/**
 * What tells an entry's result apart from the others of its call. An entry that names its asset is
 * matched by the asset id of the answer, so it shares a call only with other such entries, each of
 * another asset: an entry without one could get an answer naming that asset and take its place.
 * The others are matched by position, told apart by their token, else their style, else nothing.
 * Entries that share an identity would get results the answer cannot tell apart (the same item at
 * two prices), so each goes to a call of its own.
 */
export const identityOf = (key: ListingFeeKey): string => {
  const kind = identityKindOf(key);
  return kind === 'untokened' ? kind : `${kind} ${identityValueOf(key, kind)}`;
};

type IdentityKind = 'asset' | 'token' | 'style' | 'untokened';

const identityKindOf = (key: ListingFeeKey): IdentityKind =>
  key.assetId ? 'asset' : key.token !== null ? 'token' : key.styleToken !== null ? 'style' : 'untokened';

/** The text an identity of `kind` names (the entry's own); the untokened share one. */
const identityValueOf = (key: ListingFeeKey, kind: IdentityKind): string | null | undefined =>
  kind === 'asset' ? key.assetId : kind === 'token' ? key.token : kind === 'style' ? key.styleToken : null;

/**
 * Values by entry identity (identityOf), kept by its kind and then by the entry's own text, so
 * that no text is built per entry.
 */
export class ByIdentity<T> {
  readonly #byKind = new Map<IdentityKind, Map<string | null | undefined, T>>();

  get(key: ListingFeeKey): T | undefined {
    const kind = identityKindOf(key);
    return this.#byKind.get(kind)?.get(identityValueOf(key, kind));
  }

  set(key: ListingFeeKey, value: T): void {
    const kind = identityKindOf(key);
    let values = this.#byKind.get(kind);
    if (!values) this.#byKind.set(kind, (values = new Map()));
    values.set(identityValueOf(key, kind), value);
  }
}

