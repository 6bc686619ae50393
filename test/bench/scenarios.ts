// The benchmark's scenarios: for each, the GraphQL request the facade gets, the plain request the
// hand-written baseline gets for the same page and fields, and the least upstream calls it can cost.
import { createHash } from 'node:crypto';
import { DEMO_APP_ID, DEMO_APP_KEY, itemAt } from '../../src/simulator/data.js';

/** The 10 item fields of a "card" view (scenarios a, b, e), in the order both servers write them. */
export const CARD_FIELDS = [
  'id',
  'assetId',
  'name',
  'marketHashName',
  'imageUrl',
  'price',
  'status',
  'ifTradable',
  'tradableTime',
  'itemId',
] as const;

/** All 30 upstream item fields plus `id` (scenario c); itemInfo and assetInfo are nested objects. */
export const ITEM_FIELDS = [
  'id', 'token', 'styleToken', 'status', 'tradableTime', 'appId', 'assetId', 'platformId', 'classId',
  'instanceId', 'inspect', 'itemId', 'classInfoId', 'name', 'shortName', 'marketHashName', 'imageUrl',
  'price', 'tradable', 'ifTradable', 'systemTime', 'remark', 'customTag', 'itemInfo', 'assetInfo',
  'activityTag', 'isNew', 'isLock', 'isPrivate', 'isRented', 'inspectOriginalUrl',
] as const;

export const ITEM_INFO_FIELDS = [
  'quality', 'qualityName', 'qualityColor', 'rarity', 'rarityName', 'rarityColor', 'type', 'typeName',
  'slot', 'slotName', 'hero', 'heroName', 'heroAvatar', 'exterior', 'exteriorName', 'exteriorColor',
  'weapon', 'weaponName', 'itemSet', 'itemSetName', 'stickerCapsule', 'stickerCapsuleName',
  'patchCapsule', 'patchCapsuleName', 'customPlayer', 'customPlayerName', 'category', 'categoryName',
  'item', 'itemName',
] as const;

export const ASSET_INFO_FIELDS = [
  'classInfoId', 'classId', 'instanceId', 'assetId', 'styleId', 'lastStyle', 'styleProgress', 'wear',
  'paintIndex', 'paintSeed', 'levelName', 'levelColor', 'gradient', 'fadeColor', 'inspectImageUrl',
  'gems', 'stickers', 'styles', 'itemSets', 'ext', 'fraudwarning',
] as const;

export const FEE_FIELDS = ['assetId', 'fee', 'freeFeePrice'] as const;
export const MUTATION_FEE_FIELDS = ['assetId', 'itemId', 'fee', 'freeFeePrice'] as const;

const FULL_SELECTION = ITEM_FIELDS.map((field) =>
  field === 'itemInfo'
    ? `itemInfo { ${ITEM_INFO_FIELDS.join(' ')} }`
    : field === 'assetInfo'
      ? `assetInfo { ${ASSET_INFO_FIELDS.join(' ')} }`
      : field,
).join(' ');

const pageQuery = (name: string, nodeSelection: string, extraVariables = '') => `query ${name}($platformId: String!, $appId: Int!, $first: Int!${extraVariables}) {
  inventory(platformId: $platformId, appId: $appId) {
    totalCount
    items(first: $first) {
      pageInfo { hasNextPage endCursor }
      nodes { ${nodeSelection} }
    }
  }
}`;

export const CARD_QUERY = pageQuery('BenchCardPage', CARD_FIELDS.join(' '));
export const CARD_WITH_FEES_QUERY = pageQuery(
  'BenchCardPageWithFees',
  `${CARD_FIELDS.join(' ')} listingFee(price: $price) { ${FEE_FIELDS.join(' ')} }`,
  ', $price: Int!',
);
export const FULL_QUERY = pageQuery('BenchFullPage', FULL_SELECTION);
export const FEE_MUTATION = `mutation BenchListingFees($input: CalculateListingFeeInput!) {
  calculateListingFee(input: $input) { fees { ${MUTATION_FEE_FIELDS.join(' ')} } }
}`;

/** One HTTP request as autocannon sends it. */
export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /**
   * Sent each time as a caller never seen before: the generator replaces the authorization
   * header's token with one of its own, new at every send (freshCallerToken).
   */
  freshCaller?: boolean;
  /**
   * Sent as one of `count` callers in turn: the generator replaces the authorization header's token
   * with rotatingCallerToken(prefix, (from + sent) % count), so that a run of `count` requests sees
   * each caller once (the growth measurement, test/bench/growth.ts).
   */
  rotatingCaller?: { prefix: string; count: number; from: number };
}

/**
 * The token of the `sent`-th request of a generator run whose tokens start with `runPrefix` (a
 * prefix of its own per run, so that no two runs, nor two rounds, send the same caller).
 */
export const freshCallerToken = (runPrefix: string, sent: number) => `${runPrefix}-${sent}`;
/** The token of the `index`-th caller of a rotation over many (BenchRequest.rotatingCaller). */
export const rotatingCallerToken = (prefix: string, index: number) => `${prefix}-${index}`;
/** A prefix for one generator run's fresh callers: the process, the time and a random part. */
export const freshCallerPrefix = () => `bench-new-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/** A scenario where each request is its own caller reading its own inventory: `${id}-many`. */
export type ManyId = 'a-many' | 'a32-many' | 'b-many' | 'c-many' | 'd-many' | 'e-many' | 'p1-many' | 'p100-many' | 'p100f-many' | 'm100-many';
export type ScenarioId = 'a' | 'a32' | 'ad' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'i' | 'p1' | 'p100' | 'p100f' | 'm100' | ManyId | 'e-new';

/**
 * The like-for-like scenarios, first in a full bench: the shared-call scenario of the same name
 * with its requests rotating over MANY_CALLERS callers and MANY_INVENTORIES inventories, so that no
 * two requests in flight can share a partner call; (e-new) a caller never seen before each request.
 */
export const LIKE_FOR_LIKE: readonly ScenarioId[] = ['a-many', 'a32-many', 'b-many', 'c-many', 'd-many', 'e-many', 'm100-many', 'p1-many', 'p100-many', 'p100f-many', 'e-new'];

/** Every scenario, in the order a full bench runs them: like for like first, then the shared calls' work avoided. */
export const ALL_SCENARIOS: readonly ScenarioId[] = [
  ...LIKE_FOR_LIKE,
  'a', 'a32', 'ad', 'b', 'c', 'd', 'e', 'f', 'g', 'i', 'p1', 'p100', 'p100f', 'm100',
];

/** Distinct callers (authorization tokens) and inventories the like-for-like scenarios rotate over. */
export const MANY_CALLERS = 1_000;
export const MANY_INVENTORIES = 500;

/**
 * Cost as work grows: the scenario of each cell, by page size (items of the card view) and fee
 * count (listingFee on every item of the page, or the fee mutation's items).
 */
export const GROWTH_TABLE: ReadonlyArray<{ row: string; cells: Record<'0' | '20' | '100', ScenarioId | null> }> = [
  { row: 'page of 1 item', cells: { 0: 'p1', 20: null, 100: null } },
  { row: 'page of 20 items', cells: { 0: 'a', 20: 'b', 100: null } },
  { row: 'page of 100 items', cells: { 0: 'p100', 20: null, 100: 'p100f' } },
  { row: 'fee mutation', cells: { 0: null, 20: 'd', 100: 'm100' } },
];
/** GROWTH_TABLE like for like: each cell's scenario over many callers and inventories. */
export const GROWTH_TABLE_MANY: typeof GROWTH_TABLE = GROWTH_TABLE.map(({ row, cells }) => ({
  row,
  cells: {
    0: cells[0] && (`${cells[0]}-many` as ScenarioId),
    20: cells[20] && (`${cells[20]}-many` as ScenarioId),
    100: cells[100] && (`${cells[100]}-many` as ScenarioId),
  },
}));

/**
 * The Yoga floor's target name (test/bench/yoga-floor.ts): it answers every scenario, (f)'s cached
 * reads with Yoga's response cache, (ad)'s documentIds with Yoga's persisted-operations plugin.
 */
export const FLOOR_TARGET = 'yoga-floor';
/**
 * A second Yoga floor in the same rounds (`--floor-again`): two servers alike, whose figures differ
 * by the machine's noise alone (an A/A comparison), the yardstick for a target set within 10 %.
 */
export const FLOOR_AGAIN_TARGET = 'yoga-floor[again]';
export const FLOOR_SCENARIOS: ReadonlySet<ScenarioId> = new Set(ALL_SCENARIOS);

/**
 * The floor's environment in a scenario: the scenario's own (the response cache's in (f)) and, as
 * every bench facade has, the trusted-documents manifest written at `manifestPath`.
 */
export function floorEnvOf(scenario: Scenario, manifestPath: string): Record<string, string> {
  return { ...scenario.floorEnv, FLOOR_TRUSTED_DOCUMENTS: manifestPath };
}
/** The peer (test/bench/apollo-peer.ts) answers (a)'s query, at both connection counts. */
export const PEER_TARGET = 'apollo-peer';
export const PEER_SCENARIOS: ReadonlySet<ScenarioId> = new Set(['a-many', 'a32-many', 'a', 'a32']);

/**
 * The trusted-documents manifest every bench facade starts with (TRUSTED_DOCUMENTS, with
 * TRUSTED_DOCUMENTS_ONLY=false so that the other scenarios still send text): (a)'s query, which
 * scenario (ad) names by its documentId, in the `sha256:<hex>` form the client preset writes.
 */
export const CARD_DOCUMENT_ID = `sha256:${createHash('sha256').update(CARD_QUERY).digest('hex')}`;
export function trustedDocumentsManifest(): Record<string, string> {
  return { [CARD_DOCUMENT_ID]: CARD_QUERY };
}

/** The listing-fee batch size of every bench facade. */
export const LISTING_FEE_BATCH_MAX = 50;

/**
 * The environment of a facade in the bench and in its tools (profile.ts): as production runs it,
 * over the simulator at `partnerUrl`, with the trusted-documents manifest written at `manifestPath`
 * (trustedDocumentsManifest); `extra` (a scenario's own settings) last.
 */
export function benchFacadeEnv(port: number, partnerUrl: string, manifestPath: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    PARTNER_API_URL: partnerUrl,
    PARTNER_APP_KEY: DEMO_APP_KEY,
    LISTING_FEE_BATCH_MAX: String(LISTING_FEE_BATCH_MAX),
    TRUSTED_DOCUMENTS: manifestPath,
    TRUSTED_DOCUMENTS_ONLY: 'false',
    // The shared-call scenarios are one caller reading one inventory: the share of the partner
    // connections one of them may hold (a quarter by default) would cap (a32) and (i) at 16 partner
    // calls at once, a policy against one caller taking every connection rather than a cost, while
    // the baseline's requests share all 64 of its pool.
    UPSTREAM_CONNECTIONS_PER_DOMAIN: '64',
    ...extra,
  };
}

/** Node flags given as one option's text (`--facade-node-options`), in order. */
export const nodeFlagsOf = (text: string): string[] => text.split(/\s+/).filter(Boolean);

export interface Scenario {
  id: ScenarioId;
  title: string;
  /** Concurrent connections of the load generator. */
  connections: number;
  /** The requests of each distinct user; requests cycle through them. */
  facade: BenchRequest[];
  baseline: BenchRequest[];
  /** The least partner calls one operation can cost, by partner operation. */
  minimumUpstream: { readInventory: number; calculateListingFee: number };
  /**
   * Environment of a facade of its own for this scenario (and the soak); the other scenarios'
   * facade runs without it.
   */
  facadeEnv?: Record<string, string>;
  /** Environment of a Yoga floor of its own for this scenario (with the facade's of its own). */
  floorEnv?: Record<string, string>;
  /** Upstream calls are counted for operations repeated after one that filled the cache. */
  repeated?: boolean;
  /** How long the simulator takes to answer each partner call in this scenario. */
  simulatorLatencyMs?: number;
  /**
   * Requests per second of an open load (Poisson arrivals over all connections), for a scenario
   * that measures added latency below saturation; without it, every connection sends its next
   * request as soon as the last is answered.
   */
  offeredRate?: number;
  /**
   * Partner calls are also counted under the scenario's load (from the simulator's call records):
   * where many requests for one page are in flight at once, a facade that joins them makes fewer.
   */
  callsInRounds?: boolean;
  /** Sent also with an Accept-Encoding header, as a target of its own, when the bench is asked to. */
  compressible?: boolean;
}

/** The response cache's TTL in scenario (f) and the soak: far longer than a round. */
export const RESPONSE_CACHE_TTL_MS = 60_000;

/** Items per inventory of the bench users: more than the largest page asks for (100 + 1). */
const INVENTORY_SIZE = 240;
export const FEE_PRICE = 15_000;

/** A digit platformId whose last four digits give the simulator's inventory size. */
export const platformIdOf = (user: number) =>
  `7656119800${String(user).padStart(3, '0')}${String(INVENTORY_SIZE).padStart(4, '0')}`;
const tokenOf = (user: number) => `bench-token-${user}`;
/** A caller of the like-for-like scenarios: its own token, apart from the shared scenarios' users. */
const callerTokenOf = (caller: number) => `bench-caller-${caller}`;

/** Whose request: a user of the shared scenarios (its number) or a caller's own token. */
type Who = number | { token: string };
const bearerOf = (who: Who) => `Bearer ${typeof who === 'number' ? tokenOf(who) : who.token}`;

const graphqlHeaders = (who: Who) => ({
  'content-type': 'application/json',
  accept: 'application/graphql-response+json',
  authorization: bearerOf(who),
});

const graphql = (who: Who, query: string, variables: Record<string, unknown>): BenchRequest => ({
  method: 'POST',
  path: '/graphql',
  headers: graphqlHeaders(who),
  body: JSON.stringify({ query, variables }),
});

/** The same operation named by its documentId (trusted documents) instead of sent as text. */
const graphqlById = (user: number, documentId: string, variables: Record<string, unknown>): BenchRequest => ({
  method: 'POST',
  path: '/graphql',
  headers: graphqlHeaders(user),
  body: JSON.stringify({ documentId, variables }),
});

const baselineGet = (who: Who, path: string, params: Record<string, string | number>): BenchRequest => ({
  method: 'GET',
  path: `${path}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`,
  headers: { authorization: bearerOf(who) },
});

/** The mutation's input: n items of one inventory with their real tokens, at distinct prices. */
export function feeInputItems(user: number, n: number) {
  return Array.from({ length: n }, (_, index) => {
    const item = itemAt(platformIdOf(user), DEMO_APP_ID, index);
    return { price: FEE_PRICE + index * 100, token: item.token!, styleToken: item.styleToken! };
  });
}

const users = (count: number) => Array.from({ length: count }, (_, user) => user);

/**
 * The like-for-like rotation: request k is caller k's, reading inventory k mod MANY_INVENTORIES,
 * so that any MANY_INVENTORIES requests in a row (far more than a scenario's connections) are of
 * distinct callers and inventories, and a run of many rounds sees each of them many times.
 */
export const manyRotation = () =>
  Array.from({ length: MANY_CALLERS }, (_, k) => ({ caller: { token: callerTokenOf(k) }, inventory: k % MANY_INVENTORIES }));

/** The growth measurement's callers' token prefix (test/bench/growth.ts), apart from every scenario's. */
export const GROWTH_CALLER_PREFIX = 'bench-growth-caller';

/**
 * Scenario (a-many)'s page sent as `callers` distinct callers in turn, from the `from`-th, reading
 * MANY_INVENTORIES inventories in turn: the requests of the growth measurement (test/bench/growth.ts).
 */
export function rotatingCallersRequests(callers: number, from = 0): BenchRequest[] {
  return Array.from({ length: MANY_INVENTORIES }, (_, inventory) => ({
    ...graphql(0, CARD_QUERY, { platformId: platformIdOf(inventory), appId: DEMO_APP_ID, first: 20 }),
    rotatingCaller: { prefix: GROWTH_CALLER_PREFIX, count: callers, from },
  }));
}

export function buildScenarios(): Scenario[] {
  const appId = DEMO_APP_ID;
  // One request of a scenario, by whose it is (`who`) and which inventory it reads (`inventory`).
  type One = (who: Who, inventory: number) => { facade: BenchRequest; baseline: BenchRequest };
  const cardOf = (first: number): One => (who, inventory) => ({
    facade: graphql(who, CARD_QUERY, { platformId: platformIdOf(inventory), appId, first }),
    baseline: baselineGet(who, '/inventory', { platformId: platformIdOf(inventory), appId, first, view: 'card' }),
  });
  const card = (user: number, first = 20) => cardOf(first)(user, user);
  const feeMutationOf = (items: number): One => (who, inventory) => ({
    facade: graphql(who, FEE_MUTATION, { input: { items: feeInputItems(inventory, items) } }),
    baseline: {
      method: 'POST' as const,
      path: '/listing-fees',
      headers: { 'content-type': 'application/json', authorization: bearerOf(who) },
      body: JSON.stringify({ items: feeInputItems(inventory, items) }),
    },
  });
  const cardWithFeesOf = (first: number): One => (who, inventory) => ({
    facade: graphql(who, CARD_WITH_FEES_QUERY, { platformId: platformIdOf(inventory), appId, first, price: FEE_PRICE }),
    baseline: baselineGet(who, '/inventory', { platformId: platformIdOf(inventory), appId, first, view: 'card', feePrice: FEE_PRICE }),
  });
  const fullOf: One = (who, inventory) => ({
    facade: graphql(who, FULL_QUERY, { platformId: platformIdOf(inventory), appId, first: 100 }),
    baseline: baselineGet(who, '/inventory', { platformId: platformIdOf(inventory), appId, first: 100, view: 'full' }),
  });
  const shared = (one: One) => {
    const { facade, baseline } = one(0, 0);
    return { facade: [facade], baseline: [baseline] };
  };
  const rotation = manyRotation();
  const many = (one: One) => {
    const requests = rotation.map(({ caller, inventory }) => one(caller, inventory));
    return { facade: requests.map((r) => r.facade), baseline: requests.map((r) => r.baseline) };
  };
  const feeMutation = (items: number) => shared(feeMutationOf(items));
  const cardWithFees = (first: number) => shared(cardWithFeesOf(first));
  const noShare = '; each request its own caller and inventory, rotating over 1,000 callers and 500 inventories';
  /** The like-for-like form of a shared-call scenario: its requests, titles and least calls. */
  const manyOf = (id: ManyId, title: string, connections: number, one: One, minimumUpstream: Scenario['minimumUpstream']): Scenario => ({
    id,
    title: `${title}${noShare}`,
    connections,
    ...many(one),
    minimumUpstream,
  });
  const page = { readInventory: 1, calculateListingFee: 0 };
  const likeForLike: Scenario[] = [
    manyOf('a-many', 'one page: 20 items x 10 fields + totalCount', 10, cardOf(20), page),
    manyOf('a32-many', 'scenario (a-many) at 32 connections', 32, cardOf(20), page),
    manyOf('b-many', 'the same page with listingFee on every item', 10, cardWithFeesOf(20), { readInventory: 1, calculateListingFee: 1 }),
    manyOf('c-many', 'one page: 100 items x all 30 fields + nested objects', 10, fullOf, page),
    manyOf('d-many', 'calculateListingFee mutation with 20 items', 10, feeMutationOf(20), { readInventory: 0, calculateListingFee: 1 }),
    manyOf('e-many', 'scenario (e): 50 connections', 50, cardOf(20), page),
    manyOf('m100-many', 'calculateListingFee mutation with 100 items', 10, feeMutationOf(100), {
      readInventory: 0,
      calculateListingFee: Math.ceil(100 / LISTING_FEE_BATCH_MAX),
    }),
    manyOf('p1-many', 'one page of 1 item x 10 fields + totalCount', 10, cardOf(1), page),
    manyOf('p100-many', 'one page of 100 items x 10 fields + totalCount', 10, cardOf(100), page),
    manyOf('p100f-many', 'one page of 100 items with listingFee on every item', 10, cardWithFeesOf(100), {
      readInventory: 1,
      calculateListingFee: Math.ceil(100 / LISTING_FEE_BATCH_MAX),
    }),
    {
      id: 'e-new',
      title: 'scenario (a) from a caller never seen before at every request, rotating over 500 inventories',
      connections: 50,
      // The tokens here stand for the shape of the request; the generator sends a new one each time.
      ...(({ facade, baseline }) => ({
        facade: facade.map((request) => ({ ...request, freshCaller: true })),
        baseline: baseline.map((request) => ({ ...request, freshCaller: true })),
      }))(many(cardOf(20))),
      minimumUpstream: page,
    },
  ];
  // Scenario (a)'s one request each, which (f) and (g) send under other conditions.
  const pageA = { facade: [card(0).facade], baseline: [card(0).baseline] };
  // The shared-call scenarios: one caller reading one inventory, so that identical requests in
  // flight at once can share a partner call, the work the facade avoids beside the like for like.
  return [
    ...likeForLike,
    {
      id: 'a',
      title: 'one page: 20 items x 10 fields + totalCount (one caller, one inventory: shared calls, work avoided)',
      connections: 10,
      ...pageA,
      minimumUpstream: { readInventory: 1, calculateListingFee: 0 },
      compressible: true,
    },
    {
      id: 'a32',
      title: 'scenario (a) at 32 connections',
      connections: 32,
      ...pageA,
      minimumUpstream: { readInventory: 1, calculateListingFee: 0 },
    },
    {
      id: 'ad',
      title: 'scenario (a) named by its documentId (trusted documents) instead of sent as text',
      connections: 10,
      facade: [graphqlById(0, CARD_DOCUMENT_ID, { platformId: platformIdOf(0), appId, first: 20 })],
      baseline: pageA.baseline,
      minimumUpstream: { readInventory: 1, calculateListingFee: 0 },
    },
    {
      id: 'b',
      title: 'the same page with listingFee on every item',
      connections: 10,
      ...cardWithFees(20),
      minimumUpstream: { readInventory: 1, calculateListingFee: 1 },
    },
    {
      id: 'c',
      title: 'one page: 100 items x all 30 fields + nested objects',
      connections: 10,
      ...shared(fullOf),
      minimumUpstream: { readInventory: 1, calculateListingFee: 0 },
      compressible: true,
    },
    {
      id: 'd',
      title: 'calculateListingFee mutation with 20 items',
      connections: 10,
      ...feeMutation(20),
      minimumUpstream: { readInventory: 0, calculateListingFee: 1 },
    },
    {
      id: 'e',
      title: '50 concurrent distinct users (scenario a, distinct tokens and platformIds)',
      connections: 50,
      facade: users(50).map((user) => card(user).facade),
      baseline: users(50).map((user) => card(user).baseline),
      minimumUpstream: { readInventory: 1, calculateListingFee: 0 },
    },
    {
      id: 'f',
      title: 'scenario (a) read again by the same credential within the response cache TTL',
      connections: 10,
      ...pageA,
      minimumUpstream: { readInventory: 0, calculateListingFee: 0 },
      facadeEnv: { RESPONSE_CACHE_TTL_MS: String(RESPONSE_CACHE_TTL_MS) },
      floorEnv: { FLOOR_RESPONSE_CACHE_TTL_MS: String(RESPONSE_CACHE_TTL_MS) },
      repeated: true,
    },
    {
      id: 'g',
      title: 'scenario (a) with the partner answering in 50 ms: 200 connections, 200 req/s arriving at random',
      connections: 200,
      ...pageA,
      minimumUpstream: { readInventory: 1, calculateListingFee: 0 },
      simulatorLatencyMs: 50,
      offeredRate: 200,
    },
    {
      id: 'i',
      title: 'burst: (g) at full load, each of the 200 connections of one user sending again as soon as it is answered',
      connections: 200,
      ...pageA,
      minimumUpstream: { readInventory: 1, calculateListingFee: 0 },
      simulatorLatencyMs: 50,
      callsInRounds: true,
    },
    {
      id: 'p1',
      title: 'one page of 1 item x 10 fields + totalCount',
      connections: 10,
      facade: [card(0, 1).facade],
      baseline: [card(0, 1).baseline],
      minimumUpstream: { readInventory: 1, calculateListingFee: 0 },
    },
    {
      id: 'p100',
      title: 'one page of 100 items x 10 fields + totalCount',
      connections: 10,
      facade: [card(0, 100).facade],
      baseline: [card(0, 100).baseline],
      minimumUpstream: { readInventory: 1, calculateListingFee: 0 },
    },
    {
      id: 'p100f',
      title: 'one page of 100 items with listingFee on every item',
      connections: 10,
      ...cardWithFees(100),
      minimumUpstream: { readInventory: 1, calculateListingFee: Math.ceil(100 / LISTING_FEE_BATCH_MAX) },
    },
    {
      id: 'm100',
      title: 'calculateListingFee mutation with 100 items',
      connections: 10,
      ...feeMutation(100),
      minimumUpstream: { readInventory: 0, calculateListingFee: Math.ceil(100 / LISTING_FEE_BATCH_MAX) },
    },
  ];
}

/** A count-only check (not timed): 100 listingFee fields cost ceil(100 / LISTING_FEE_BATCH_MAX) POSTs. */
export function hundredFeesRequest(): BenchRequest {
  return graphql(0, CARD_WITH_FEES_QUERY, { platformId: platformIdOf(0), appId: DEMO_APP_ID, first: 100, price: FEE_PRICE });
}

/**
 * Scenario (h), page with deferred fees: scenario (b)'s page with each item's listingFee under
 * @defer, the fee answer slowed by `listingFeeLatencyMs`. Measured by test/bench/deferred-fees.ts
 * (`npm run bench:deferred`), not by autocannon: what it compares is the time to the first payload
 * (the page, drawable) against the time to the whole answer (the fees), over multipart/mixed.
 */
export const DEFERRED_FEES_SCENARIO = {
  id: 'h',
  title: 'page with deferred fees: time to first payload vs time to whole answer',
  /** Sequential requests measured, after `warmup` unmeasured ones. */
  requests: 200,
  warmup: 20,
  /** The fee call's extra latency upstream, so that the two times differ by something real. */
  listingFeeLatencyMs: 50,
  query: pageQuery(
    'BenchCardPageWithDeferredFees',
    `${CARD_FIELDS.join(' ')} ... @defer { listingFee(price: $price) { ${FEE_FIELDS.join(' ')} } }`,
    ', $price: Int!',
  ),
  variables: { platformId: platformIdOf(0), appId: DEMO_APP_ID, first: 20, price: FEE_PRICE },
  minimumUpstream: { readInventory: 1, calculateListingFee: 1 },
} as const;
