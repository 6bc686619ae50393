// `npm run supergraph`'s pieces without a network: the config file's checks, this service's SDL
// read from schema/, and composition errors reported whole.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { composeSupergraph, loadSubgraphSdl, readSupergraphConfig, SupergraphError } from '../../src/federation/compose.js';

const SCHEMA_DIR = fileURLToPath(new URL('../../schema', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'tradegraph-supergraph-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function configFile(content: unknown): string {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

const LINK = 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])';

describe('supergraph composition', () => {
  it('reads a config, taking its paths from the config file folder', () => {
    const config = readSupergraphConfig(
      configFile({ output: 'out.graphql', subgraphs: [{ name: 'tradegraph', url: 'http://127.0.0.1:4000/graphql', sdl: 'schema' }] }),
    );
    expect(config).toEqual({
      output: join(dir, 'out.graphql'),
      subgraphs: [{ name: 'tradegraph', url: 'http://127.0.0.1:4000/graphql', sdl: join(dir, 'schema') }],
    });
  });

  it('names every problem of a bad config', () => {
    const path = configFile({ subgraphs: [{ name: '1 bad', url: 'not a url' }] });
    expect(() => readSupergraphConfig(path)).toThrow(SupergraphError);
    expect(() => readSupergraphConfig(path)).toThrow(/output: a file to write the supergraph to[\s\S]*subgraphs\.0\.name: a subgraph name[\s\S]*subgraphs\.0\.url: an absolute URL/);
  });

  it("composes this service's SDL from schema/ alone", async () => {
    const sdl = await loadSubgraphSdl({ name: 'tradegraph', url: 'http://127.0.0.1:4000/graphql', sdl: SCHEMA_DIR });
    const supergraph = composeSupergraph([{ name: 'tradegraph', url: 'http://127.0.0.1:4000/graphql', sdl }]);
    expect(supergraph).toContain('@join__type(graph: TRADEGRAPH, key: "platformId appId")');
    expect(supergraph).toContain('@join__type(graph: TRADEGRAPH, key: "id")');
  });

  it('says which subgraph gave no SDL when asked for it', async () => {
    const server = createServer((_req, res) => res.writeHead(404).end('not here'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
    try {
      await expect(loadSubgraphSdl({ name: 'wishlist', url })).rejects.toThrow(
        `Subgraph 'wishlist' at ${url} answered no _service { sdl } (HTTP 404).`,
      );
    } finally {
      server.close();
    }
  });

  it('reports why subgraphs do not compose', async () => {
    const sdl = await loadSubgraphSdl({ name: 'tradegraph', url: 'http://127.0.0.1:4000/graphql', sdl: SCHEMA_DIR });
    // Another subgraph that gives Inventory.appId another type.
    const clash = `${LINK}\ntype Inventory @key(fields: "platformId appId") { platformId: String! appId: String! }\ntype Query { x: Int }`;
    expect(() =>
      composeSupergraph([
        { name: 'tradegraph', url: 'http://127.0.0.1:4000/graphql', sdl },
        { name: 'clash', url: 'http://127.0.0.1:4001/graphql', sdl: clash },
      ]),
    ).toThrow(/do not compose:[\s\S]*Inventory\.appId/);
  });
});
