// The library behaviour that each departure of docs/decisions/library-departures.md relies on,
// checked against the libraries themselves (not through the service), so that an upgrade that
// changes it fails here, naming the entry to revisit. The graphql-jit entries check that its known
// differences are still there: once one is gone, its workaround can go too.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { useResponseCache, type Cache } from '@graphql-yoga/plugin-response-cache';
import { CircuitState } from 'cockatiel';
import { buildSchema, execute, GraphQLError, parse, print } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { createSchema, createYoga, isAsyncIterable, type Plugin } from 'graphql-yoga';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { OperationLimitError } from '../../src/errors.js';
import { ReadBody } from '../../src/http/request-body.js';
import { CSRF_HEADER, useCsrfPrevention } from '../../src/plugins/csrf-prevention.js';
import { acceptsIncrementalDelivery } from '../../src/plugins/defer-stream.js';
import { createInProcessStore } from '../../src/plugins/response-cache/in-process-store.js';
import type { CachedResult, StoredResult } from '../../src/plugins/response-cache/store-contract.js';
import { servedFromResponseCache } from '../../src/plugins/response-cache.js';
import { useTrustedDocuments } from '../../src/plugins/trusted-documents.js';
import { REDIS_COMMAND_TIMED_OUT } from '../../src/redis.js';
import { promotedShare } from '../support/promotion.js';
import { startRedisServer, type RedisServer } from '../support/redis.js';

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
  const echoServer = () => {
    const yoga = createYoga({
      schema: createSchema({ typeDefs: 'type Query { echo(text: String!): String }', resolvers: { Query: { echo: (_: unknown, { text }: { text: string }) => text } } }),
      // As the service runs it: Yoga's own limit would read every body as a stream.
      maxRequestBodySize: false,
      logging: false,
    });
    return listen((req, res) => {
      const chunks: Buffer<ArrayBuffer>[] = [];
      req.on('data', (chunk: Buffer<ArrayBuffer>) => chunks.push(chunk));
      req.on('end', () => {
        (req as IncomingMessage & { body?: ReadBody }).body = new ReadBody(Buffer.concat(chunks), yoga.fetchAPI.ReadableStream);
        void yoga.requestListener(req, res);
      });
    });
  };

  it('is used in place of the request stream, as a Blob read through its buffer()', async () => {
    const url = await echoServer();
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

  it("is streamed through the fetch API's ReadableStream to Yoga's multipart parser", async () => {
    const url = await echoServer();
    const operations = JSON.stringify({ query: '{ echo(text: "multipart") }' });
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: `--x\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${operations}\r\n--x\r\nContent-Disposition: form-data; name="map"\r\n\r\n{}\r\n--x--\r\n`,
    });
    expect(await response.json()).toEqual({ data: { echo: 'multipart' } });
  });
});

describe("Yoga's extensions.http.spec (errors.ts, plugins/refusal-bodies.ts)", () => {
  const refusal = (spec: boolean | undefined) =>
    createYoga({
      schema: createSchema({ typeDefs: 'type Query { a: Int }' }),
      plugins: [
        {
          onExecute({ setResultAndStopExecution }) {
            setResultAndStopExecution({ errors: [new GraphQLError('refused', { extensions: { http: { status: 400, ...(spec === undefined ? {} : { spec }) } } })] });
          },
        } satisfies Plugin,
      ],
      logging: false,
    });
  const post = (yoga: ReturnType<typeof refusal>, accept: string, body = '{"query":"{ a }"}') =>
    yoga.fetch('http://yoga/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept }, body });

  it('makes an error answer 200 to application/json and its status to application/graphql-response+json', async () => {
    expect((await post(refusal(true), 'application/json')).status).toBe(200);
    expect((await post(refusal(true), 'application/graphql-response+json')).status).toBe(400);
    expect((await post(refusal(undefined), 'application/json')).status).toBe(400);
  });

  it("answers a malformed body 400 to application/json because of the parser's originalError", async () => {
    const response = await post(refusal(undefined), 'application/json', '{"query":');
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: Array<{ extensions: Record<string, unknown> }> };
    expect(body.errors[0]!.extensions.originalError).toBeDefined();
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

describe("the response cache's results (plugins/response-cache/in-process-store.ts keeps them parsed again)", () => {
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

describe("Yoga's response cache marks a hit with Symbol.for('servedFromResponseCache') (response-cache.ts, operation-observability.ts, rate-limit.ts)", () => {
  it('answers a hit in onParams, so that no onExecute runs for it, with the mark the service reads in onExecutionResult and onResultProcess', async () => {
    const seen = { executed: 0, executionResults: [] as boolean[], processed: [] as boolean[] };
    const yoga = createYoga({
      schema: createSchema({ typeDefs: 'type Query { a: Int }', resolvers: { Query: { a: () => 1 } } }),
      plugins: [
        // Listed before the cache, as the service's observers and rate limit are.
        {
          onExecute: () => void (seen.executed += 1),
          onExecutionResult: ({ result }) => void seen.executionResults.push(servedFromResponseCache(result)),
          onResultProcess: ({ result }) => void seen.processed.push(servedFromResponseCache(result)),
        },
        useResponseCache({ session: () => 'one', ttl: 60_000 }),
      ],
      logging: false,
    });
    for (let round = 0; round < 2; round++) {
      const response = await yoga.fetch('http://yoga/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ a }' }),
      });
      expect(await response.json()).toEqual({ data: { a: 1 } });
    }
    // Once this fails, a hit is no longer told apart (its log line, its one rate-limit unit, its 304).
    expect(seen).toEqual({ executed: 1, executionResults: [false, true], processed: [false, true] });
  });
});

describe("a scalar's refusal of a value, as each executor reports it (error-codes.ts tells it apart by type, not by message)", () => {
  const schema = createSchema({ typeDefs: 'type Query { n: Int }', resolvers: { Query: { n: () => 'x' } } });
  /** The original errors of every error of every payload the operation answered. */
  async function originalErrorsOf(query: string, accept: string): Promise<unknown[]> {
    const originals: unknown[] = [];
    const collect = (result: { errors?: readonly GraphQLError[]; incremental?: readonly { errors?: readonly GraphQLError[] }[] }) => {
      for (const error of [...(result.errors ?? []), ...(result.incremental ?? []).flatMap((part) => part.errors ?? [])]) {
        originals.push(error.originalError);
      }
    };
    const capture: Plugin = {
      onExecute: () => ({
        onExecuteDone: ({ result }) => {
          if (isAsyncIterable(result)) return { onNext: ({ result: payload }) => collect(payload as never) };
          collect(result as never);
          return undefined;
        },
      }),
    };
    const yoga = createYoga({ schema, plugins: [useDeferStream(), capture], logging: false, maskedErrors: false });
    const response = await yoga.fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept },
      body: JSON.stringify({ query }),
    });
    await response.text();
    return originals;
  }

  it.each([
    ['in a single result', '{ n }', 'application/json'],
    ['in a deferred part', '{ ... @defer { n } }', 'multipart/mixed'],
  ])("is a plain Error from Yoga's executor %s, graphql-js's GraphQLError rethrown with its message", async (_where, query, accept) => {
    const originals = await originalErrorsOf(query, accept);
    expect(originals).toHaveLength(1);
    // Once this fails, error-codes.ts's `constructor === Error` case can go (or must change).
    expect((originals[0] as Error).constructor).toBe(Error);
    expect((originals[0] as Error).message).toBe('Int cannot represent non-integer value: "x"');
  });

  it('has no original error, or a GraphQLError, from graphql-jit', async () => {
    const compiled = compileQuery(schema, parse('{ n }'));
    if (!isCompiledQuery(compiled)) throw new Error('graphql-jit did not compile');
    const result = (await compiled.query({}, {}, {})) as { errors?: GraphQLError[] };
    expect(result.errors).toHaveLength(1);
    const original = result.errors![0]!.originalError;
    expect(original === undefined || original instanceof GraphQLError).toBe(true);
  });
});

describe("ioredis's error for a command past its commandTimeout (redis.ts marks Redis down on /timed out/)", () => {
  let redis: RedisServer | undefined;
  afterEach(async () => {
    redis?.resume();
    await redis?.stop();
  });

  it('says it timed out', async () => {
    redis = await startRedisServer();
    // The options redis.ts connects with.
    const client = new Redis(redis.url, { enableOfflineQueue: false, commandTimeout: 200, maxRetriesPerRequest: 0 });
    try {
      await once(client, 'ready');
      expect(await client.ping()).toBe('PONG');
      redis.pause();
      const failure = await client.get('key').then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toMatch(REDIS_COMMAND_TIMED_OUT);
    } finally {
      client.disconnect();
    }
  });
});

describe('graphql-armor\'s refusals, worded as graphql-js\'s syntax errors (operation-limits.ts strips "Syntax Error: ")', () => {
  const schema = createSchema({ typeDefs: 'type Query { a: A } type A { b: Int }', resolvers: { Query: { a: () => ({ b: 1 }) } } });
  it.each([
    ['max-tokens', (onReject: Reject) => maxTokensPlugin({ n: 3, onReject: [onReject], propagateOnRejection: false }), '{ a { b } }'],
    ['max-depth', (onReject: Reject) => maxDepthPlugin({ n: 1, onReject: [onReject], propagateOnRejection: false }), '{ a { b } }'],
    ['max-aliases', (onReject: Reject) => maxAliasesPlugin({ n: 1, onReject: [onReject], propagateOnRejection: false }), '{ x: a { b } y: a { b } }'],
    ['max-directives', (onReject: Reject) => maxDirectivesPlugin({ n: 1, onReject: [onReject], propagateOnRejection: false }), '{ a @skip(if: false) @include(if: true) { b } }'],
  ])('%s', async (_name, plugin, query) => {
    const messages: string[] = [];
    const yoga = createYoga({ schema, plugins: [plugin((_context, error) => void messages.push(error.message))], logging: false });
    await yoga.fetch('http://yoga/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(message).toMatch(/^Syntax Error: /);
  });
});
type Reject = (context: unknown, error: GraphQLError) => void;

describe("Yoga's CSRF plugin, whose refusal csrf-prevention.ts replaces by calling its hook", () => {
  it('has onRequestParse as its only hook, so that the wrapper drops nothing', () => {
    expect(Object.keys(useCSRFPrevention({ requestHeaders: ['x-graphql-csrf'] }))).toEqual(['onRequestParse']);
  });

  it('refuses through it a GET without the header, which the wrapper answers with its own code', async () => {
    const yoga = createYoga({
      schema: createSchema({ typeDefs: 'type Query { a: Int }', resolvers: { Query: { a: () => 1 } } }),
      plugins: [useCsrfPrevention()],
      logging: false,
    });
    const refused = await yoga.fetch('http://yoga/graphql?query=%7Ba%7D');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('CSRF_HEADER_REQUIRED');
    const allowed = await yoga.fetch('http://yoga/graphql?query=%7Ba%7D', { headers: { [CSRF_HEADER]: '1' } });
    expect(await allowed.json()).toEqual({ data: { a: 1 } });
  });
});

describe("Yoga's persisted-operations plugin, whose onParams trusted-documents.ts calls for a request that names a document", () => {
  it('looks the document up in that hook: a known id runs, an unknown one is refused with the code given', async () => {
    const documents = new Map([['a'.repeat(64), parse('{ a }')]]);
    const yoga = createYoga({
      schema: createSchema({ typeDefs: 'type Query { a: Int }', resolvers: { Query: { a: () => 1 } } }),
      plugins: [useTrustedDocuments({ documents, only: true })],
      logging: false,
    });
    const ask = async (documentId: string) => {
      const response = await yoga.fetch('http://yoga/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ documentId }),
      });
      return (await response.json()) as { data?: unknown; errors?: { extensions: { code: string } }[] };
    };
    expect(await ask(`sha256:${'a'.repeat(64)}`)).toEqual({ data: { a: 1 } });
    expect((await ask(`sha256:${'b'.repeat(64)}`)).errors?.[0]?.extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });
});

describe("Node's socket._httpMessage in a clientError (http/refusals.ts)", () => {
  it('is the response still being written when a pipelined request after it is malformed, with its head sent', async () => {
    const seen: unknown[] = [];
    let first: ServerResponse | undefined;
    const server = createServer((_req, res) => {
      first = res;
      // The head and part of the body, and the rest never: the response stays in flight.
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    });
    servers.push(server);
    server.on('clientError', (_error, socket: Socket & { _httpMessage?: { headersSent?: boolean } }) => {
      seen.push(socket._httpMessage === first, socket._httpMessage?.headersSent);
      socket.destroy();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    socket.on('error', () => undefined);
    await once(socket, 'connect');
    socket.write('GET / HTTP/1.1\r\nhost: x\r\n\r\nNOT HTTP AT ALL\r\n\r\n');
    await expect.poll(() => seen).toEqual([true, true]);
    socket.destroy();
  });
});

describe("cockatiel's CircuitState, by whose values breaker.ts names a circuit's state", () => {
  it('numbers Closed, Open, HalfOpen and Isolated 0 to 3', () => {
    expect([CircuitState.Closed, CircuitState.Open, CircuitState.HalfOpen, CircuitState.Isolated]).toEqual([0, 1, 2, 3]);
  });
});

describe("the order Yoga and envelop run later plugins' hooks in, which the limits rely on", () => {
  const run = async (first: Plugin) => {
    const later = { params: 0, execute: 0 };
    const yoga = createYoga({
      schema: createSchema({ typeDefs: 'type Query { a: Int }', resolvers: { Query: { a: () => 1 } } }),
      plugins: [first, { onParams: () => void (later.params += 1), onExecute: () => void (later.execute += 1) }],
      logging: false,
    });
    const response = await yoga.fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ a }' }),
    });
    return { later, status: response.status, body: await response.json() };
  };

  it('an onParams hook that throws stops the later ones, and its error is answered with its status (query-size-limit.ts, variables-depth-limit.ts)', async () => {
    const thrown = await run({ onParams: () => { throw new OperationLimitError('queryBytes', 'Too large.', 1); } });
    expect(thrown.later.params).toBe(0);
    expect(thrown.status).toBe(400);
    expect(thrown.body).toMatchObject({ errors: [{ extensions: { code: 'OPERATION_LIMIT_EXCEEDED' } }] });
    // A result set in onParams does not stop them: the reason the limits throw.
    const set = await run({ onParams: ({ setResult }) => setResult({ data: { a: 2 } }) });
    expect(set.later.params).toBe(1);
  });

  it('setResultAndStopExecution stops the later onExecute hooks (the rate limit after the cost limit)', async () => {
    const stopped = await run({ onExecute: ({ setResultAndStopExecution }) => setResultAndStopExecution({ data: { a: 2 } }) });
    expect(stopped.later.execute).toBe(0);
    expect(stopped.body).toEqual({ data: { a: 2 } });
  });
});

describe("Yoga's response cache runs the execute function an earlier plugin set (compiled-execution.ts wraps it, listed before the cache)", () => {
  it('calls it with its own rewritten document, which selects __typename', async () => {
    const documents: string[] = [];
    const wrapping: Plugin = {
      onExecute: ({ executeFn, setExecuteFn }) =>
        setExecuteFn((args) => {
          documents.push(print(args.document));
          return executeFn(args);
        }),
    };
    const yoga = createYoga({
      schema: createSchema({ typeDefs: 'type Query { a: A } type A { b: Int }', resolvers: { Query: { a: () => ({ b: 1 }) } } }),
      plugins: [wrapping, useResponseCache({ session: () => 'one', ttl: 60_000 })],
      logging: false,
    });
    const response = await yoga.fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ a { b } }' }),
    });
    expect(await response.json()).toEqual({ data: { a: { b: 1 } } });
    // Once this fails, the cache runs operations past compiled execution, on graphql-js.
    expect(documents).toHaveLength(1);
    expect(documents[0]).toContain('__typename');
  });
});
