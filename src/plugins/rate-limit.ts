// Rate limits: a budget of RATE_LIMIT_MAX units of partner work per RATE_LIMIT_WINDOW_MS, the
// units of the cost plan (cost/price.ts), so an operation spends what it may cost the partner
// rather than one. Checked as execution starts (the price needs the document and its variables),
// before any partner call; an answer from the response cache spends one unit as it is answered.
// Reads spend the caller's own budget; the fee mutation, made with the merchant's app-key alone
// (APP_KEY_FIELDS), spends it only once the partner has accepted the token. The fee calls of every
// caller the partner has not accepted share one budget of RATE_LIMIT_MAX fee items, spent as the
// calls are made (a mutation its resolver refuses spends none of it), of which one client (its
// address, its token) may spend only a share. With Redis the counts are shared by every replica;
// without it (or while it is away) they are the replica's own. Every answer of /graphql carries the
// caller's budget in RateLimit-Policy and RateLimit header fields (draft-ietf-httpapi-ratelimit-headers):
// Yoga's through the plugin, and the node:http server's own refusals (503, 413, production's 406)
// through fieldsOf, read from the same counts.
import { hash } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLError } from 'graphql';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitConfig } from '../config.js';
import type { TradegraphContext } from '../context.js';
import { callerKeyOf, clientAddressOf, credentialKeyOf, isProven, UNPROVEN, type CredentialEvidence } from '../credentials.js';
import { OperationRateLimitedError, UnprovenFeeBudgetError } from '../errors.js';
import type { FeeBudget, FeeCaller } from '../listing-fee/fee-loader.js';
import type { RateLimitBudget } from '../observability/metrics.js';
import type { SharedRedis } from '../redis.js';
import { CACHE_HIT_PRICE, ownCharge, type ThrottleStatus } from '../cost/request-cost.js';
import { REDIS_KEY_PREFIXES } from '../redis-keys.js';
import { operationPrice } from '../cost/price.js';
import { scopeOf } from '../request-scope.js';
import { UNPROVEN_FEE_SHARE_DIVISOR } from '../tunables.js';
import { servedFromResponseCache } from './response-cache.js';

export interface RateLimitOptions extends RateLimitConfig {
  /** The credentials the partner has accepted (partner.accepted): who may spend fees of its own. */
  accepted: CredentialEvidence;
  redis?: SharedRedis;
  /** Told of each refusal, once, with the budget that refused it (the metrics count them by it). */
  onRefusal?: (budget: RateLimitBudget) => void;
}

const REDIS_KEY_PREFIX = REDIS_KEY_PREFIXES.rateLimit;

/**
 * Listing fees of every caller the partner has not accepted (and of no token at all) share one
 * bucket: they are made with the merchant's key. Apart from the anonymous caller's, so that
 * requests without a token that cost the partner nothing cannot spend it.
 */
const UNPROVEN_FEES = `${UNPROVEN}-fees`;

/** The share of UNPROVEN_FEES one client may spend (see UNPROVEN_FEE_SHARE_DIVISOR). */
const unprovenFeeShareOf = (max: number): number => Math.max(1, Math.ceil(max / UNPROVEN_FEE_SHARE_DIVISOR));

/** The name of the one policy in the RateLimit-Policy and RateLimit fields. */
const POLICY = '"default"';

/** The rate limit: its plugin, the fee budget the context spends, and the budget fields of a caller for answers made outside Yoga. */
export interface RateLimit {
  plugin: Plugin<TradegraphContext>;
  /** Fee calls of callers the partner has not accepted, charged as they are made (handed to the context). */
  feeBudget: FeeBudget;
  /** The RateLimit-Policy and RateLimit fields of a credential's own budget (null: the anonymous one), read without spending. */
  fieldsOf(credential: string | null): Promise<Record<string, string>>;
  /** Spends `points` of the request's caller's own budget outside an execution (a live subscription's); answers the refusal, if any. */
  spend(request: Request, points: number): Promise<GraphQLError | null>;
}

export function createRateLimit(options: RateLimitOptions): RateLimit {
  const budgets = new Budgets(options);
  return {
    plugin: rateLimitPlugin(budgets, options.accepted),
    feeBudget: { spend: (caller, entries) => budgets.spendUnprovenFees(caller, entries) },
    fieldsOf: async (credential) => budgets.fieldsOfThrottle(await budgets.currentThrottle(callerKeyOf(credential))),
    spend: (request, points) => budgets.spendOwn(request, credentialKeyOf(request), points),
  };
}

function rateLimitPlugin(budgets: Budgets, accepted: CredentialEvidence): Plugin<TradegraphContext> {
  return {
    async onExecute({ args }) {
      const { request } = args.contextValue;
      const credential = credentialKeyOf(request);
      // Null when the variables do not coerce: execution refuses it before any resolver runs.
      const price = operationPrice(args.schema, args.document, args.operationName, args.variableValues);
      const appKeyCost = price?.appKeyCost ?? 0;
      // The fleet's record (Redis) is asked only for an operation that spends the merchant's key.
      const proven = appKeyCost > 0 && (await isProven(credential, accepted));
      // Told here too: a refusal below ends the operation before the cost extension's own hook.
      scopeOf(request).cost.requested = price?.cost ?? null;
      const refusal = await budgets.spendOwn(request, credential, ownCharge(price?.cost ?? 0, appKeyCost, proven));
      if (refusal) throw refusal;
    },
    // Yoga's response cache answers a hit before execution (in onParams), so onExecute above never
    // sees it. The partner does no work for a hit: it is charged as such an operation is, and is
    // refused in place of the cached answer once the budget is spent. Only a credential's reads
    // are cached, so it is always the credential's own budget.
    async onExecutionResult({ request, result, setResult }) {
      if (!servedFromResponseCache(result)) return;
      const refusal = await budgets.spendOwn(request, credentialKeyOf(request), CACHE_HIT_PRICE);
      if (refusal) setResult({ errors: [refusal] });
    },
    // Every answer says what is left of the caller's own budget; one that spent nothing (refused
    // before execution) reads it without spending.
    async onResponse({ request, response }) {
      const record = scopeOf(request).cost;
      record.throttle ??= await budgets.currentThrottle(callerKeyOf(credentialKeyOf(request)));
      for (const [name, value] of Object.entries(budgets.fieldsOfThrottle(record.throttle))) response.headers.set(name, value);
    },
  };
}

/** The counts of one rate limit: the callers' own budgets, the unproven callers' fees and their clients' shares. */
class Budgets {
  readonly #options: RateLimitOptions;
  readonly #share: number;
  // Loaded on first use, and only when a limit is configured.
  #limiters: Promise<Limiters> | undefined;

  constructor(options: RateLimitOptions) {
    this.#options = options;
    this.#share = unprovenFeeShareOf(options.max);
  }

  #limitersOf(): Promise<Limiters> {
    return (this.#limiters ??= createLimiters(this.#options));
  }

  throttleOf(remaining: number, msBeforeNext: number): ThrottleStatus {
    const { max, windowMs } = this.#options;
    return {
      maximumAvailable: max,
      currentlyAvailable: Math.max(0, Math.min(max, remaining)),
      restoreRate: max / (windowMs / 1000),
      msBeforeRestore: Math.max(0, msBeforeNext),
    };
  }

  fieldsOfThrottle({ currentlyAvailable, msBeforeRestore }: ThrottleStatus): Record<string, string> {
    return {
      'RateLimit-Policy': `${POLICY};q=${this.#options.max};w=${this.#options.windowMs / 1000}`,
      RateLimit: `${POLICY};r=${currentlyAvailable};t=${Math.ceil(msBeforeRestore / 1000)}`,
    };
  }

  /** Spends `points` of the caller's own budget, records what is left of it, and answers the refusal if any. */
  async spendOwn(request: Request, credential: string | null, points: number): Promise<OperationRateLimitedError | null> {
    const { max, windowMs, onRefusal } = this.#options;
    const { shared, own } = await this.#limitersOf();
    const key = callerKeyOf(credential);
    const { limiter, outcome, refused } = await this.#consume(shared, own, key, points);
    const record = scopeOf(request).cost;
    if (!refused) {
      record.throttle = this.throttleOf(outcome.remainingPoints, outcome.msBeforeNext);
      return null;
    }
    // A refused spend counts in rate-limiter-flexible: it is given back, so that a smaller operation may still use what is left.
    await this.#refund(shared, limiter, key, points);
    record.throttle = this.throttleOf(max - (outcome.consumedPoints - points), outcome.msBeforeNext);
    onRefusal?.('operation');
    return new OperationRateLimitedError(max, windowMs, retryAfterOf(outcome), points);
  }

  /**
   * Spends a fee call's items from the budget of unproven callers' fees, and from the shares of
   * its client's token and address, unless the partner has accepted the caller's token; throws the
   * refusal, having given back what this call spent.
   */
  async spendUnprovenFees({ request, req }: FeeCaller, entries: number): Promise<void> {
    const { accepted, proxyHops = 0 } = this.#options;
    const credential = credentialKeyOf(request);
    if (await isProven(credential, accepted)) return;
    const { shared, own, sharedShares, ownShares } = await this.#limitersOf();
    const address = clientAddressOf(request, req, proxyHops);
    const spends: FeeSpend[] = [];
    if (credential !== null) spends.push({ shared: sharedShares, own: ownShares, key: `token-${credential}`, scope: 'client' });
    spends.push({ shared: sharedShares, own: ownShares, key: `address-${hash('sha256', address, 'hex')}`, scope: 'client' });
    spends.push({ shared, own, key: UNPROVEN_FEES, scope: 'total' });
    await this.#spendAll(spends, entries);
  }

  /** Spends `entries` from each in turn; at the first refusal, gives back what was spent and throws it. */
  async #spendAll(spends: readonly FeeSpend[], entries: number): Promise<void> {
    const { max, windowMs, onRefusal } = this.#options;
    const spent: Array<[RateLimiterAbstract | null, RateLimiterAbstract, string]> = [];
    for (const spend of spends) {
      const { limiter, outcome, refused } = await this.#consume(spend.shared, spend.own, spend.key, entries);
      spent.push([spend.shared, limiter, spend.key]);
      if (refused) {
        await Promise.all(spent.map(([sharedOne, by, key]) => this.#refund(sharedOne, by, key, entries)));
        onRefusal?.(spend.scope === 'client' ? 'unproven_fees_client_share' : 'unproven_fees_total');
        throw new UnprovenFeeBudgetError(spend.scope, max, this.#share, windowMs, retryAfterOf(outcome));
      }
    }
  }

  /** What is left of a key's budget, read without spending (an empty record: all of it). */
  async currentThrottle(key: string): Promise<ThrottleStatus> {
    const { redis, max, windowMs } = this.#options;
    const { shared, own } = await this.#limitersOf();
    const read = async (limiter: RateLimiterAbstract) => ({ found: await limiter.get(key) });
    const { found } = (shared && redis ? await redis.attempt(() => read(shared)) : undefined) ?? (await read(own).catch(() => ({ found: null })));
    return found ? this.throttleOf(found.remainingPoints, found.msBeforeNext) : this.throttleOf(max, windowMs);
  }

  /**
   * Spends from the shared counts while Redis is up, else from the replica's own, and answers the
   * limiter spent from with its outcome. While Redis is down (also hung, its connection still open)
   * it is not asked at all; a command that fails or misses its deadline is counted by the replica
   * instead, and a missed deadline marks Redis down for every user of it, as a cache command's
   * does. An Error is a failure of the limiter itself; a refusal is its answer.
   */
  async #consume(shared: RateLimiterAbstract | null, own: RateLimiterAbstract, key: string, points: number): Promise<Spent> {
    const { redis } = this.#options;
    const fromShared = shared && redis ? await redis.attempt(() => spendFrom(shared, key, points)) : undefined;
    return fromShared ?? spendFrom(own, key, points);
  }

  /**
   * Gives `points` of `key` back to the limiter they were spent from, the shared one through Redis
   * as consume spends from it. A refund that fails, or that Redis is down for (marked so by another
   * request meanwhile), is lost, and the window ends it.
   */
  async #refund(shared: RateLimiterAbstract | null, limiter: RateLimiterAbstract, key: string, points: number): Promise<void> {
    if (limiter === shared) await this.#options.redis?.attempt(() => limiter.reward(key, points));
    else await limiter.reward(key, points).catch(() => undefined);
  }
}

/** One budget a fee call spends from: its shared and replica counts, its key, and which refusal it makes. */
interface FeeSpend {
  shared: RateLimiterAbstract | null;
  own: RateLimiterAbstract;
  key: string;
  scope: 'client' | 'total';
}

const retryAfterOf = (outcome: RateLimiterRes) => Math.max(1, Math.ceil(outcome.msBeforeNext / 1000));

/** One spend from one limiter: what it answered, and whether that was a refusal. */
interface Spent {
  limiter: RateLimiterAbstract;
  outcome: RateLimiterRes;
  refused: boolean;
}

/** Spends `points` of `key` from one limiter; an Error is a failure of the limiter itself. */
async function spendFrom(limiter: RateLimiterAbstract, key: string, points: number): Promise<Spent> {
  try {
    return { limiter, outcome: await limiter.consume(key, points), refused: false };
  } catch (outcome) {
    if (outcome instanceof Error) throw outcome;
    return { limiter, outcome: outcome as RateLimiterRes, refused: true };
  }
}

/** The replica's own counts, and the counts shared through Redis (null without it); the same for the clients' shares. */
interface Limiters {
  own: RateLimiterAbstract;
  shared: RateLimiterAbstract | null;
  ownShares: RateLimiterAbstract;
  sharedShares: RateLimiterAbstract | null;
}

async function createLimiters({ max, windowMs, redis }: { max: number; windowMs: number; redis?: SharedRedis }): Promise<Limiters> {
  const { RateLimiterMemory, RateLimiterRedis } = await import('rate-limiter-flexible');
  const limits = { points: max, duration: windowMs / 1000 };
  const shares = { points: unprovenFeeShareOf(max), duration: windowMs / 1000 };
  const own = new RateLimiterMemory(limits);
  const ownShares = new RateLimiterMemory(shares);
  if (!redis) return { own, shared: null, ownShares, sharedShares: null };
  const storeClient = await redis.client();
  // A command that cannot be sent fails at once rather than waiting for a reconnection; the
  // replica then counts on its own (consume, above), which also tells Redis of the failure.
  const common = { storeClient, rejectIfRedisNotReady: true };
  return {
    own,
    shared: new RateLimiterRedis({ ...limits, ...common, keyPrefix: REDIS_KEY_PREFIX }),
    ownShares,
    sharedShares: new RateLimiterRedis({ ...shares, ...common, keyPrefix: `${REDIS_KEY_PREFIX}:share` }),
  };
}
