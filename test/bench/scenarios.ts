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
}

export type ScenarioId = 'a' | 'a32' | 'ad' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'i' | 'p1' | 'p100' | 'p100f' | 'm100';

/** Every scenario, in the order a full bench runs them. */
export const ALL_SCENARIOS: readonly ScenarioId[] = ['a', 'a32', 'ad', 'b', 'c', 'd', 'e', 'f', 'g', 'i', 'p1', 'p100', 'p100f', 'm100'];

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
export const PEER_SCENARIOS: ReadonlySet<ScenarioId> = new Set(['a', 'a32']);

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
    // Every scenario but (e) is one caller reading one inventory: the share of the partner
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

const graphqlHeaders = (user: number) => ({
  'content-type': 'application/json',
  accept: 'application/graphql-response+json',
  authorization: `Bearer ${tokenOf(user)}`,
});

const graphql = (user: number, query: string, variables: Record<string, unknown>): BenchRequest => ({
  method: 'POST',
  path: '/graphql',
  headers: graphqlHeaders(user),
  body: JSON.stringify({ query, variables }),
});

/** The same operation named by its documentId (trusted documents) instead of sent as text. */
const graphqlById = (user: number, documentId: string, variables: Record<string, unknown>): BenchRequest => ({
  method: 'POST',
  path: '/graphql',
  headers: graphqlHeaders(user),
  body: JSON.stringify({ documentId, variables }),
});

const baselineGet = (user: number, path: string, params: Record<string, string | number>): BenchRequest => ({
  method: 'GET',
  path: `${path}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`,
  headers: { authorization: `Bearer ${tokenOf(user)}` },
});

/** The mutation's input: n items of one inventory with their real tokens, at distinct prices. */
export function feeInputItems(user: number, n: number) {
  return Array.from({ length: n }, (_, index) => {
    const item = itemAt(platformIdOf(user), DEMO_APP_ID, index);
    return { price: FEE_PRICE + index * 100, token: item.token!, styleToken: item.styleToken! };
  });
}

const users = (count: number) => Array.from({ length: count }, (_, user) => user);

export function buildScenarios(): Scenario[] {
  const appId = DEMO_APP_ID;
  const card = (user: number, first = 20) => ({
    facade: graphql(user, CARD_QUERY, { platformId: platformIdOf(user), appId, first }),
    baseline: baselineGet(user, '/inventory', { platformId: platformIdOf(user), appId, first, view: 'card' }),
  });
  const feeMutation = (items: number) => ({
    facade: [graphql(0, FEE_MUTATION, { input: { items: feeInputItems(0, items) } })],
    baseline: [
      {
        method: 'POST' as const,
        path: '/listing-fees',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tokenOf(0)}` },
        body: JSON.stringify({ items: feeInputItems(0, items) }),
      },
    ],
  });
  const cardWithFees = (first: number) => ({
    facade: [graphql(0, CARD_WITH_FEES_QUERY, { platformId: platformIdOf(0), appId, first, price: FEE_PRICE })],
    baseline: [baselineGet(0, '/inventory', { platformId: platformIdOf(0), appId, first, view: 'card', feePrice: FEE_PRICE })],
  });
  // Scenario (a)'s one request each, which (f) and (g) send under other conditions.
  const pageA = { facade: [card(0).facade], baseline: [card(0).baseline] };
  return [
    {
      id: 'a',
      title: 'one page: 20 items x 10 fields + totalCount',
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
      facade: [graphql(0, FULL_QUERY, { platformId: platformIdOf(0), appId, first: 100 })],
      baseline: [baselineGet(0, '/inventory', { platformId: platformIdOf(0), appId, first: 100, view: 'full' })],
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
