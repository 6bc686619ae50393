// The library behaviour that each departure of docs/decisions/library-departures.md relies on,
// checked against the libraries themselves (not through the service), so that an upgrade that
// changes it fails here, naming the entry to revisit. The graphql-jit entries check that its known
// differences are still there: once one is gone, its workaround can go too.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { useResponseCache, type Cache } from '@graphql-yoga/plugin-response-cache';
import { buildSchema, execute, GraphQLError, parse } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { createSchema, createYoga, isAsyncIterable, type Plugin } from 'graphql-yoga';
import { afterEach, describe, expect, it } from 'vitest';
import { acceptsIncrementalDelivery } from '../../src/plugins/defer-stream.js';
import { createInProcessStore, type CachedResult, type StoredResult } from '../../src/plugins/response-cache-store.js';
import { promotedShare } from '../support/promotion.js';

// V8's own answer to whether an object keeps fast (shape-indexed) properties or has become a
// dictionary; the flag takes effect for functions compiled after it is set.
setFlagsFromString('--allow-natives-syntax');
const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (object: object) => boolean;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("Node's socket._httpMessage (http/shutdown.ts)", () => {
  it('names the response a socket carries, and nothing once it is answered', async () => {
    const seen: unknown[] = [];
    const url = await listen((req, res) => {
      const socket = req.socket as Socket & { _httpMessage?: unknown };
      seen.push(socket._httpMessage === res);
      res.once('finish', () => setImmediate(() => seen.push(socket._httpMessage ?? null)));
      res.end('ok');
    });
    await (await fetch(url)).text();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toEqual([true, null]);
  });
});

describe("a pre-read body handed to Yoga's node adapter as req.body (http/request-body.ts)", () => {
  it('is used in place of the request stream', async () => {
    const yoga = createYoga({
      schema: createSchema({ typeDefs: 'type Query { echo(text: String!): String }', resolvers: { Query: { echo: (_: unknown, { text }: { text: string }) => text } } }),
      logging: false,
    });
    const url = await listen((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        (req as IncomingMessage & { body?: Buffer }).body = Buffer.concat(chunks);
        void yoga.requestListener(req, res);
      });
    });
    // A streamed (chunked) body; the service reads those of a declared length alike.
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(JSON.stringify({ query: '{ echo(text: "pre-read") }' })));
        controller.close();
      },
    });
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(await response.json()).toEqual({ data: { echo: 'pre-read' } });
  });
});

describe("the Accept check for @defer/@stream (plugins/defer-stream.ts) agrees with Yoga's own", () => {
  const yoga = createYoga({
    schema: createSchema({ typeDefs: 'type Query { a: A } type A { b: Int }', resolvers: { Query: { a: () => ({ b: 1 }) } } }),
    plugins: [useDeferStream()],
    logging: false,
  });
  it.each([
    '*/*',
    'multipart/mixed',
    'text/event-stream',
    'application/json, multipart/mixed;deferSpec=20220824',
    'application/graphql-response+json, application/json;q=0.9',
    'application/json',
    'Multipart/Mixed; charset=UTF-8',
    'multipart/mixed; charset=iso-8859-1',
    'text/*',
  ])('%s', async (accept) => {
    const response = await yoga.fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept },
      body: JSON.stringify({ query: '{ a { ... @defer { b } } }' }),
    });
    await response.arrayBuffer();
    expect(response.status !== 406).toBe(acceptsIncrementalDelivery(accept));
  });
});

describe('graphql-jit 0.8, where it still differs from graphql-js (the workarounds go once these fail)', () => {
  const schema = buildSchema('type Query { echo(text: String!): String, list: [Int] }');
  const root = { echo: ({ text }: { text: string }) => text };

  it("ignores a non-null variable's default (compiled-execution.ts runs such operations on graphql-js)", () => {
    const document = parse('query ($t: String! = "x") { echo(text: $t) }');
    const compiled = compileQuery(schema, document);
    if (!isCompiledQuery(compiled)) throw new Error('graphql-jit did not compile');
    const jit = compiled.query(root, {}, {}) as { data?: unknown; errors?: GraphQLError[] };
    expect(execute({ schema, document, rootValue: root })).toEqual({ data: { echo: 'x' } });
    expect(jit.errors?.length).toBeGreaterThan(0);
  });

  it("leaves its errors without AST nodes (compiled-execution.ts's locateErrors gives Yoga their positions)", async () => {
    const document = parse('{ list }');
    const compiled = compileQuery(schema, document);
    if (!isCompiledQuery(compiled)) throw new Error('graphql-jit did not compile');
    const result = (await compiled.query({ list: () => { throw new Error('boom'); } }, {}, {})) as { errors?: GraphQLError[] };
    expect(result.errors?.[0]?.locations).toEqual([{ line: 1, column: 3 }]);
    expect(result.errors?.[0]?.nodes).toBeUndefined();
  });

  it("keeps a mutation's serial run through the scavenges after it, context and all (compiled-execution.ts compiles a one-field mutation as a query, and runs others on graphql-js)", () => {
    const echo = (_root: unknown, { text }: { text: string }) => text;
    const withMutation = createSchema({
      typeDefs: 'type Query { echo(text: String!): String } type Mutation { echo(text: String!): String }',
      resolvers: { Query: { echo }, Mutation: { echo } },
    });
    const compiledOf = (text: string) => {
      const compiled = compileQuery(withMutation, parse(text));
      if (!isCompiledQuery(compiled)) throw new Error('graphql-jit did not compile');
      return compiled;
    };
    const mutation = compiledOf('mutation { echo(text: "x") }');
    const query = compiledOf('query { echo(text: "x") }');
    // The payload is only in the run's context, which the resolver never reads.
    const run = (compiled: typeof query) => (payload: number[]) => compiled.query(undefined, { payload }, {});
    expect(run(mutation)([1])).toEqual({ data: { echo: 'x' } });
    expect(promotedShare(run(query))).toBeLessThan(0.1);
    expect(promotedShare(run(mutation))).toBeGreaterThan(0.8);
  });
});

describe("the response cache's results (plugins/response-cache-store.ts keeps them parsed again)", () => {
  /** Yoga over a list of items, with these plugins. */
  const itemsYoga = (items: { id: string; name: string }[], plugins: Plugin[]) =>
    createYoga({
      schema: createSchema({ typeDefs: 'type Query { items: [Item!]! } type Item { id: ID! name: String! }', resolvers: { Query: { items: () => items } } }),
      plugins,
      logging: false,
    });
  /** The items' names, asked of `yoga`. */
  const askNames = (yoga: ReturnType<typeof itemsYoga>) =>
    yoga.fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ items { name } }' }),
    });

  it('reach the store as objects V8 holds as dictionaries, with the metadata fields deleted', async () => {
    let stored: CachedResult | undefined;
    const cache: Cache = { get: () => undefined, set: (_id, result) => void (stored = result), invalidate: () => undefined };
    const yoga = itemsYoga(
      [
        { id: '1', name: 'one' },
        { id: '2', name: 'two' },
      ],
      [useResponseCache({ session: () => 'one', cache })],
    );
    const response = await askNames(yoga);
    expect(await response.json()).toEqual({ data: { items: [{ name: 'one' }, { name: 'two' }] } });
    const item = (stored?.data as { items: object[] } | undefined)?.items[0];
    expect(item).toEqual({ name: 'one' });
    // Once this fails, the plugin hands over fast objects and the store can keep them as they come.
    expect(hasFastProperties(item!)).toBe(false);

    const store = createInProcessStore({ maxBytes: 1 << 20, maxEntryBytes: 1 << 20 });
    await store.set('key', stored!, [], Number.POSITIVE_INFINITY);
    const kept = ((await store.get('key'))?.data as { items: object[] }).items[0]!;
    expect(kept).toEqual({ name: 'one' });
    expect(hasFastProperties(kept)).toBe(true);
  });

  it("are written by Yoga through the result's own stringify, given the data as stored and no extensions once the cache's http headers are taken", async () => {
    const data = { items: [{ name: 'stored' }] };
    const given: unknown[] = [];
    const yoga = itemsYoga(
      [],
      [
        {
          onExecute: ({ setResultAndStopExecution }) =>
            setResultAndStopExecution({
              data,
              extensions: { http: { headers: { ETag: 'tag' } } },
              stringify: (value: unknown) => (given.push(value), '{"data":"from stringify"}'),
            } as never),
        },
      ],
    );
    const response = await askNames(yoga);
    // Once this fails, Yoga serialises every answer itself and the store's text is never used.
    expect(await response.text()).toBe('{"data":"from stringify"}');
    expect(response.headers.get('etag')).toBe('tag');
    expect(given).toHaveLength(1);
    const value = given[0] as { data: unknown; extensions?: unknown; errors?: unknown };
    expect(value.data).toBe(data);
    expect(value.extensions).toBeUndefined();
    expect(value.errors).toBeUndefined();
  });

  it('are served as the text the store made, and serialised again once a plugin changes them', async () => {
    const hits: StoredResult[] = [];
    const yoga = (extra: Plugin[]) => {
      const store = createInProcessStore({ maxBytes: 1 << 20, maxEntryBytes: 1 << 20 });
      const cache: Cache = {
        ...store,
        get: (id) => {
          const hit = store.get(id) as StoredResult | undefined;
          if (hit) hits.push(hit);
          return hit;
        },
      };
      return itemsYoga([{ id: '1', name: 'one' }], [useResponseCache({ session: () => 'one', cache }), ...extra]);
    };
    const ask = async (server: ReturnType<typeof yoga>) => (await askNames(server)).text();
    const plain = yoga([]);
    const first = await ask(plain);
    expect(first).toBe('{"data":{"items":[{"name":"one"}]}}');
    expect(await ask(plain)).toBe(first);
    // The hit carried the store's text, which Yoga writes as the test above shows.
    expect(hits).toHaveLength(1);
    expect(hits[0]!.stringify({ ...hits[0], extensions: undefined })).toBe(first);
    // A plugin that adds to a hit's answer is heard: the stored text would leave its addition out.
    const adding = yoga([
      {
        onResultProcess: ({ result, setResult }) => {
          if (!Array.isArray(result) && !isAsyncIterable(result)) setResult({ ...result, extensions: { added: true } });
        },
      },
    ]);
    await ask(adding);
    expect(JSON.parse(await ask(adding))).toEqual({ data: { items: [{ name: 'one' }] }, extensions: { added: true } });
  });
});
