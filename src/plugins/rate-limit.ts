// Rate limits: a budget of RATE_LIMIT_MAX units of partner work per RATE_LIMIT_WINDOW_MS, the
// units of the cost plan (operation-cost.ts), so an operation spends what it may cost the partner
// rather than one. Checked as execution starts (the price needs the document and its variables),
// before any partner call; an answer from the response cache spends one unit as it is answered.
// Reads spend the caller's own budget; the fee mutation, made with the merchant's app-key alone
// (APP_KEY_FIELDS), spends it only once the partner has accepted the token, else the one budget of
// every unproven caller. With Redis the counts are shared by every replica; without it (or while it
// is away) they are the replica's own.
import type { Plugin } from 'graphql-yoga';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { TradegraphContext } from '../context.js';
import { credentialKeyOf } from '../credentials.js';
import { OperationRateLimitedError } from '../errors.js';
import type { AcceptedCredentials } from '../partner/accepted-credentials.js';
import type { SharedRedis } from '../redis.js';
import { operationPrice } from './operation-cost.js';
import { servedFromResponseCache } from './response-cache.js';

export interface RateLimitOptions {
  max: number;
  windowMs: number;
  /** The credentials the partner has accepted (partner.accepted): who may spend fees of its own. */
  accepted: AcceptedCredentials;
  redis?: SharedRedis;
}

/** Every counter this limiter writes in Redis starts so; the rest is a SHA-256 hash, `anonymous` or `unproven-fees`. */
export const REDIS_KEY_PREFIX = 'tradegraph:rate-limit';

/**
 * Requests without a credential (or with a malformed one, which the context then refuses) share
 * one bucket: behind a load balancer the client address would be the balancer's, and a credential
 * is what the partner itself limits by.
 */
const ANONYMOUS = 'anonymous';

/**
 * Listing fees of every caller the partner has not accepted (a made-up token is no one in
 * particular, and no token at all) share one bucket: they are made with the merchant's key. Apart
 * from ANONYMOUS, so that requests without a token that cost the partner nothing cannot spend it.
 */
const UNPROVEN_FEES = 'unproven-fees';

export function useRateLimit({ max, windowMs, accepted, redis }: RateLimitOptions): Plugin<TradegraphContext> {
  // Loaded on first use, and only when a limit is configured.
  let limiters: Promise<Limiters> | undefined;
  const limitersOf = () => (limiters ??= createLimiters({ max, windowMs, redis }));
  return {
    async onExecute({ args }) {
      const { request } = args.contextValue as unknown as { request: Request };
      const credential = credentialKeyOf(request);
      // Null when the variables do not coerce: execution refuses it before any resolver runs.
      const price = operationPrice(args.schema, args.document, args.operationName, args.variableValues);
      const cost = price?.cost ?? 0;
      const appKeyCost = price?.appKeyCost ?? 0;
      const ownKey = credential ?? ANONYMOUS;
      // The fleet's record (Redis) is asked only for an operation that spends the merchant's key.
      const appKeyKey = appKeyCost > 0 && credential !== null && (await accepted.knows(credential)) ? credential : UNPROVEN_FEES;
      // An operation the partner does no work for is still one unit: an answer costs the service too.
      const spend = new Map<string, number>();
      const ownCost = cost === 0 ? 1 : cost - appKeyCost;
      if (ownCost > 0) spend.set(ownKey, ownCost);
      if (appKeyCost > 0) spend.set(appKeyKey, (spend.get(appKeyKey) ?? 0) + appKeyCost);
      const refusal = await spendOrRefuse(credential, spend);
      if (refusal) throw refusal;
    },
    // Yoga's response cache answers a hit before execution (in onParams), so onExecute above never
    // sees it. The partner does no work for a hit: it spends one unit, as such an operation does,
    // and is refused in place of the cached answer once the budget is spent. Only a credential's
    // reads are cached, so it is always the credential's own budget.
    async onExecutionResult({ request, result, setResult }) {
      if (!servedFromResponseCache(result)) return;
      const credential = credentialKeyOf(request);
      const refusal = await spendOrRefuse(credential, new Map([[credential ?? ANONYMOUS, 1]]));
      if (refusal) setResult({ errors: [refusal] });
    },
  };

  /**
   * Spends each key's points in turn; at the first refusal gives back what this operation already
   * spent (a smaller operation may still use what is left) and answers the error to send.
   */
  async function spendOrRefuse(credential: string | null, spend: Map<string, number>): Promise<OperationRateLimitedError | null> {
    const { shared, own } = await limitersOf();
    const spent: [RateLimiterAbstract, string, number][] = [];
    for (const [key, points] of spend) {
      const { limiter, refusal } = await consume(shared, own, key, points);
      spent.push([limiter, key, points]);
      if (refusal) {
        await Promise.all(spent.map(([by, refunded, back]) => refund(shared, by, refunded, back)));
        const retryAfter = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
        return new OperationRateLimitedError(max, windowMs, retryAfter, points, credential !== null && key === UNPROVEN_FEES);
      }
    }
    return null;
  }

  /**
   * Spends from the shared counts while Redis is up, else from the replica's own, and answers the
   * limiter spent from with its refusal, if it refused. While Redis is down (also hung, its
   * connection still open) it is not asked at all; a command that fails or misses its deadline is
   * counted by the replica instead, and a missed deadline marks Redis down for every user of it,
   * as a cache command's does. An Error is a failure of the limiter itself; a refusal is its answer.
   */
  async function consume(
    shared: RateLimiterAbstract | null,
    own: RateLimiterAbstract,
    key: string,
    points: number,
  ): Promise<{ limiter: RateLimiterAbstract; refusal: RateLimiterRes | null }> {
    const fromShared = shared && redis ? await redis.attempt(() => spendFrom(shared, key, points)) : undefined;
    return fromShared ?? spendFrom(own, key, points);
  }

  /**
   * Gives `points` of `key` back to the limiter they were spent from, the shared one through Redis
   * as consume spends from it. A refund that fails, or that Redis is down for (marked so by another
   * request meanwhile), is lost, and the window ends it.
   */
  async function refund(shared: RateLimiterAbstract | null, limiter: RateLimiterAbstract, key: string, points: number): Promise<void> {
    if (limiter === shared) await redis?.attempt(() => limiter.reward(key, points));
    else await limiter.reward(key, points).catch(() => undefined);
  }
}

/** Spends `points` of `key` from one limiter: its refusal, if it refused; an Error is a failure of the limiter itself. */
async function spendFrom(limiter: RateLimiterAbstract, key: string, points: number): Promise<{ limiter: RateLimiterAbstract; refusal: RateLimiterRes | null }> {
  try {
    await limiter.consume(key, points);
    return { limiter, refusal: null };
  } catch (outcome) {
    if (outcome instanceof Error) throw outcome;
    return { limiter, refusal: outcome as RateLimiterRes };
  }
}

/** The replica's own counts, and the counts shared through Redis (null without it). */
interface Limiters {
  own: RateLimiterAbstract;
  shared: RateLimiterAbstract | null;
}

async function createLimiters({ max, windowMs, redis }: Omit<RateLimitOptions, 'accepted'>): Promise<Limiters> {
  const { RateLimiterMemory, RateLimiterRedis } = await import('rate-limiter-flexible');
  const limits = { points: max, duration: windowMs / 1000 };
  const ownCounts = new RateLimiterMemory(limits);
  if (!redis) return { own: ownCounts, shared: null };
  const shared = new RateLimiterRedis({
    ...limits,
    storeClient: await redis.client(),
    keyPrefix: REDIS_KEY_PREFIX,
    // A command that cannot be sent fails at once rather than waiting for a reconnection; the
    // replica then counts on its own (consume, above), which also tells Redis of the failure.
    rejectIfRedisNotReady: true,
  });
  return { own: ownCounts, shared };
}
