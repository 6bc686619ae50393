// The paging walk against an in-memory partner that reads startAssetId either way and may cap
// count: the walk must be exact under every combination.
import { describe, expect, it } from 'vitest';
import { createInventoryPageLoader } from '../../src/inventory/page-loader.js';
import { loadItemConnection, parseItemsArgs } from '../../src/inventory/paging.js';
import type { TradeInventoryResponseDTO } from '../../src/partner/models.js';

function partner(size: number, { inclusive, cap, total = size }: { inclusive: boolean; cap: number | null; total?: number | null }) {
  const assets = Array.from({ length: size }, (_, n) => String(9_007_199_254_740_993n + BigInt(n * 3)));
  const calls: Array<{ start: string | null; count: number }> = [];
  const fetchPage = async ({ startAssetId, count }: { startAssetId: string | null; count: number }): Promise<TradeInventoryResponseDTO> => {
    calls.push({ start: startAssetId, count });
    const at = startAssetId === null ? 0 : assets.indexOf(startAssetId) + (inclusive ? 0 : 1);
    const list = assets.slice(at, at + Math.min(count, cap ?? count)).map((assetId) => ({ assetId }));
    return { total, lastAssetId: list.at(-1)?.assetId ?? null, list };
  };
  return { assets, calls, fetchPage };
}

const INVENTORY = { platformId: 'p', appId: 1 };

async function walk(size: number, first: number, options: Parameters<typeof partner>[1]) {
  const upstream = partner(size, options);
  const seen: string[] = [];
  let after: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const loader = createInventoryPageLoader(upstream.fetchPage);
    // Four calls per page at most, as PAGE_MAX_PARTNER_CALLS defaults: short pages must stay exact.
    const page = await loadItemConnection(loader, INVENTORY, parseItemsArgs(INVENTORY, first, after), 4);
    seen.push(...page.nodes.map((node) => node.assetId));
    if (!page.pageInfo.hasNextPage) return { seen, upstream };
    after = page.pageInfo.endCursor;
  }
  throw new Error('the walk did not end');
}

describe('loadItemConnection', () => {
  const cases = [
    { inclusive: false, cap: null },
    { inclusive: true, cap: null },
    { inclusive: false, cap: 3 },
    { inclusive: true, cap: 3 },
    // (An inclusive partner capped at one item could never page past its start asset, for any
    // client; the smallest cap that can page inclusively is two.)
    { inclusive: true, cap: 2 },
    { inclusive: false, cap: 1 },
    { inclusive: false, cap: 3, total: null },
    { inclusive: true, cap: 3, total: 10_000 },
  ];
  for (const options of cases) {
    for (const [size, first] of [[0, 5], [1, 1], [10, 5], [11, 5], [97, 10], [50, 100]] as const) {
      it(`is exact for ${size} items, first ${first}, ${JSON.stringify(options)}`, async () => {
        const { seen, upstream } = await walk(size, first, options);
        expect(seen).toEqual(upstream.assets);
      });
    }
  }

  it('makes one call per page when the partner neither caps nor lies about total', async () => {
    const { upstream } = await walk(97, 10, { inclusive: false, cap: null });
    expect(upstream.calls).toHaveLength(10);
  });

  it('refuses a partner that answers an asset twice within one page', async () => {
    const loader = createInventoryPageLoader(async () => ({ total: 5, lastAssetId: null, list: [{ assetId: '1' }, { assetId: '1' }] }));
    await expect(loadItemConnection(loader, INVENTORY, parseItemsArgs(INVENTORY, 5, null), 4)).rejects.toThrow(/answered twice/);
  });

  it('stops after maxCalls partner calls with a short page that continues', async () => {
    const upstream = partner(50, { inclusive: false, cap: 2 });
    const loader = createInventoryPageLoader(upstream.fetchPage);
    const page = await loadItemConnection(loader, INVENTORY, parseItemsArgs(INVENTORY, 100, null), 3);
    expect(upstream.calls).toHaveLength(3);
    expect(page.nodes.map((node) => node.assetId)).toEqual(upstream.assets.slice(0, 6));
    expect(page.pageInfo.hasNextPage).toBe(true);
    const next = await loadItemConnection(
      createInventoryPageLoader(upstream.fetchPage),
      INVENTORY,
      parseItemsArgs(INVENTORY, 100, page.pageInfo.endCursor),
      3,
    );
    expect(next.nodes[0]!.assetId).toBe(upstream.assets[6]);
  });

  it('refuses a cursor of another inventory', () => {
    const upstream = partner(5, { inclusive: false, cap: null });
    return loadItemConnection(createInventoryPageLoader(upstream.fetchPage), INVENTORY, parseItemsArgs(INVENTORY, 2, null), 4).then((page) => {
      expect(() => parseItemsArgs({ platformId: 'q', appId: 1 }, 2, page.pageInfo.endCursor)).toThrow(
        /belongs to another inventory's items/,
      );
      expect(() => parseItemsArgs({ platformId: 'p', appId: 2 }, 2, page.pageInfo.endCursor)).toThrow(
        /belongs to another inventory's items/,
      );
    });
  });

  it.each([101, -1, 2.5])('refuses first: %d', (first) => {
    expect(() => parseItemsArgs(INVENTORY, first, null)).toThrow(/Argument 'first' must be an integer from 0 to 100/);
  });
});
