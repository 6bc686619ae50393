// Everything one GraphQL request carries: the caller's credential, its request id, and its own
// loaders. Built fresh for every request, so no loaded data can reach another request or user.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { YogaInitialContext } from 'graphql-yoga';
import { credentialKeyOf, credentialsOf, type Credentials } from './credentials.js';
import { UnauthenticatedError } from './errors.js';
import { createInventoryPageLoader, type InventoryPageLoader } from './inventory/page-loader.js';
import { createListingFeeLoader, type FeeBudget, type FeeCaller, type ListingFeeLoader } from './listing-fee/fee-loader.js';
import type { OperationDeadline, PartnerApi } from './partner/index.js';
import { callWork } from './cost/request-cost.js';
import { scopeOf, type RequestCost } from './request-scope.js';

export interface Loaders {
  inventoryPage: InventoryPageLoader;
  listingFee: ListingFeeLoader;
}

export interface TradegraphContext {
  credentials: Credentials;
  loaders: Loaders;
  requestId: string;
  /** Partner calls still running when it passes fail UPSTREAM_TIMEOUT, and later ones are not sent. */
  deadline: OperationDeadline;
  /** Chained partner calls one `items` page may make (PAGE_MAX_PARTNER_CALLS). */
  pageMaxPartnerCalls: number;
}

export interface ContextDependencies {
  partner: PartnerApi;
  listingFeeBatchMax: number;
  operationTimeoutMs: number;
  pageMaxPartnerCalls: number;
  /** The rate limit's budget of fee calls made with the merchant's key, when one is on. */
  feeBudget?: FeeBudget;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The caller's x-request-id when it is a sane token, otherwise a fresh one; the same for one
 * request (kept in its scope), shared by the context, the operation log line and the response header.
 */
export function requestIdOf(request: Request): string {
  const scope = scopeOf(request);
  if (scope.id === undefined) {
    const given = request.headers.get('x-request-id');
    scope.id = given && REQUEST_ID.test(given) ? given : randomUUID();
  }
  return scope.id;
}

/** What a request's partner calls carry besides their own arguments. */
export interface RequestCall {
  signal?: AbortSignal;
  deadline?: OperationDeadline;
  requestId: string;
}

/**
 * A request's loaders. A class rather than an object literal: V8 makes an accessor written in a
 * literal (the lazy `listingFee`) in the old generation, so the getter's scope, and the whole
 * request it reaches, lived through every scavenge and every request was promoted
 * (docs/decisions/request-lifetimes.md). A prototype's accessor is made once, for all.
 */
class RequestLoaders implements Loaders {
  readonly inventoryPage: InventoryPageLoader;
  #listingFee: ListingFeeLoader | undefined;

  constructor(
    private readonly dependencies: Pick<ContextDependencies, 'partner' | 'listingFeeBatchMax' | 'feeBudget'>,
    accessToken: string | null,
    /**
     * The request's credential digest, null without a token: credentials.ts's credentialKeyOf,
     * worked out once per request for the rate limit, the response cache and these calls alike.
     */
    private readonly credentialKey: () => string | null,
    private readonly call: RequestCall,
    /** Where the partner work of the request's calls is counted (the request scope's). */
    private readonly cost: RequestCost = { requested: null, actual: 0 },
    /** Whom the fee budget charges for this request's fee calls (none: not charged). */
    private readonly feeCaller?: FeeCaller,
  ) {
    const { partner } = dependencies;
    this.inventoryPage = createInventoryPageLoader((page) => {
      // Without a token the partner can only refuse: say what to send, and send nothing.
      const credential = accessToken === null ? null : credentialKey();
      if (accessToken === null || credential === null) throw new UnauthenticatedError(MISSING_TOKEN);
      // A call joined in flight is the partner's work for its first caller: it counts in that
      // request's actualQueryCost only, so that summed over requests the cost is the partner's work.
      let joined = false;
      // Written out rather than spread: one object shape for every call, built on every page.
      return partner
        .readInventoryPage({
          platformId: page.platformId,
          appId: page.appId,
          startAssetId: page.startAssetId,
          count: page.count,
          accessToken,
          credential,
          signal: call.signal,
          deadline: call.deadline,
          requestId: call.requestId,
          onJoined: () => (joined = true),
        })
        .then((answered) => {
          if (!joined) cost.actual += callWork(answered.list?.length ?? 0);
          return answered;
        });
    });
  }

  /** Made on first use: most operations ask for no fee. */
  get listingFee(): ListingFeeLoader {
    return (this.#listingFee ??= createListingFeeLoader(async (items) => {
      // Fees made with the merchant's key for a caller the partner has not accepted spend the rate
      // limit's shared budget per call made, not per call priced: refused here, before the call.
      if (this.feeCaller) await this.dependencies.feeBudget?.spend(this.feeCaller, items.length);
      let joined = false;
      const fees = await this.dependencies.partner.calculateListingFees({
        items,
        credential: this.credentialKey(),
        ...this.call,
        onJoined: () => (joined = true),
      });
      if (!joined) this.cost.actual += callWork(items.length);
      return fees;
    }, this.dependencies.listingFeeBatchMax));
  }
}

export function createLoaders(
  dependencies: Pick<ContextDependencies, 'partner' | 'listingFeeBatchMax' | 'feeBudget'>,
  credentials: Credentials,
  credentialKey: () => string | null,
  call: RequestCall,
  cost?: RequestCost,
  feeCaller?: FeeCaller,
): Loaders {
  return new RequestLoaders(dependencies, credentials.accessToken, credentialKey, call, cost, feeCaller);
}

const MISSING_TOKEN =
  "Reading an inventory needs the caller's partner access token: send it as 'Authorization: Bearer <token>'.";

/**
 * Tells partner calls when the client's connection closes before its answer is sent. Built on the
 * node response's own `close` event rather than on the server adapter's `request.signal`, a Proxy
 * whose every property access costs a string search. A response that closes after its answer was
 * written is no departure: its signal never fires.
 *
 * The calls in flight listen on the controller's signal, not on the response: what a call holds
 * must not lead back to the response, its request and their buffers, which would then live as long
 * as the call's timer and the pool's bookkeeping keep the call, and leave the young generation with
 * them (see docs/decisions/request-lifetimes.md).
 */
export function clientGoneSignal(res: ServerResponse): AbortSignal {
  const departure = new AbortController();
  // Closed already (the client left while its request was read): no `close` event is to come.
  if (res.closed) {
    if (!res.writableFinished) departure.abort();
  } else {
    res.once('close', () => {
      if (!res.writableFinished) departure.abort();
    });
  }
  return departure.signal;
}

/** What one operation's context is made of: a request's (below) or a live poll's (live/inventories.ts). */
export interface ContextParts {
  credentials: Credentials;
  /** The credential's digest (credentials.ts's credentialKeyOf), null without a token; worked out on first use. */
  credentialKey: () => string | null;
  requestId: string;
  /** Aborts the operation's partner calls: the client left, or the poll ended. */
  signal?: AbortSignal;
  /** Where the partner work of the operation's calls is counted. */
  cost?: RequestCost;
  /** Whom the fee budget charges for the operation's fee calls (none: not charged). */
  feeCaller?: FeeCaller;
}

/** One operation's context, with its own loaders and a deadline that starts now. */
export function buildContext(dependencies: ContextDependencies, parts: ContextParts): TradegraphContext {
  const { credentials, credentialKey, requestId, signal, cost, feeCaller } = parts;
  const deadline = { at: performance.now() + dependencies.operationTimeoutMs, ms: dependencies.operationTimeoutMs };
  return {
    credentials,
    requestId,
    deadline,
    pageMaxPartnerCalls: dependencies.pageMaxPartnerCalls,
    loaders: createLoaders(dependencies, credentials, credentialKey, { signal, deadline, requestId }, cost, feeCaller),
  };
}

export function createContextFactory(dependencies: ContextDependencies) {
  return (initial: YogaInitialContext & FeeCaller & { res?: ServerResponse }): TradegraphContext => {
    const { request, res } = initial;
    return buildContext(dependencies, {
      credentials: credentialsOf(request),
      credentialKey: () => credentialKeyOf(request),
      requestId: requestIdOf(request),
      signal: res ? clientGoneSignal(res) : request.signal,
      cost: scopeOf(request).cost,
      // The fee budget charges the request and its connection: the initial context holds both.
      // Without a budget the loaders keep neither.
      feeCaller: dependencies.feeBudget && initial,
    });
  };
}
