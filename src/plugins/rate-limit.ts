// Rate limits per credential: a budget of RATE_LIMIT_MAX operations per RATE_LIMIT_WINDOW_MS,
// checked when the request's parameters are known, before any cache lookup or partner call. With
// Redis the counts are shared by every replica; without it (or while it is away) they are the
// replica's own.
import type { Plugin } from 'graphql-yoga';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { credentialKeyOf, type TradegraphContext } from '../context.js';
import { OperationRateLimitedError } from '../errors.js';
import type { SharedRedis } from '../redis.js';

export interface RateLimitOptions {
  max: number;
  windowMs: number;
  redis?: SharedRedis;
}

/** Every counter this limiter writes in Redis starts so; the rest is a SHA-256 hash or `anonymous`. */
export const REDIS_KEY_PREFIX = 'tradegraph:rate-limit';

/**
 * Requests without a credential (or with a malformed one, which the context then refuses) share
 * one bucket: behind a load balancer the client address would be the balancer's, and a credential
 * is what the partner itself limits by.
 */
const ANONYMOUS = 'anonymous';

export function useRateLimit({ max, windowMs, redis }: RateLimitOptions): Plugin<TradegraphContext> {
  const limits = { points: max, duration: windowMs / 1000 };
  const ownCounts = new RateLimiterMemory(limits);
  const limiter: RateLimiterAbstract = redis
    ? new RateLimiterRedis({
        ...limits,
        storeClient: redis.client,
        keyPrefix: REDIS_KEY_PREFIX,
        // While Redis is away (or a command fails), the replica counts on its own.
        rejectIfRedisNotReady: true,
        insuranceLimiter: ownCounts,
      })
    : ownCounts;
  return {
    async onParams({ request }) {
      try {
        await limiter.consume(credentialKeyOf(request) ?? ANONYMOUS);
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        throw new OperationRateLimitedError(max, windowMs, Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)));
      }
    },
  };
}
