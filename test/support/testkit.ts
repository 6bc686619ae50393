// The integration testkit: the partner simulator and the facade, each a real HTTP server on
// loopback, and a client that sends typed documents (test/operations/) over HTTP like a front end.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print, type ExecutionResult, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, beforeEach, expect, inject } from 'vitest';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createTradegraph, GRAPHQL_PATH, type Tradegraph } from '../../src/server.js';
import { DEMO_ACCESS_TOKEN, DEMO_APP_KEY } from '../../src/simulator/data.js';
import { startSimulator, type PartnerSimulator, type SimulatorSettings } from '../../src/simulator/server.js';
import type { LogArchiveEntry } from './secret-scan.js';

export interface TestkitOptions {
  simulator?: Partial<SimulatorSettings>;
  /** A simulator another kit started, to run a second replica over the same partner; left running on close. */
  sharedSimulator?: PartnerSimulator;
  /** Overrides of the service's configuration (the partner URLs default to the simulator's). */
  config?: Partial<Config>;
  /** The service's schema (built from other SDL); the one of schema/ when omitted. */
  schema?: GraphQLSchema;
}

export interface RequestOptions {
  /** The caller's access token; the demo token when omitted, none when null. */
  token?: string | null;
  headers?: Record<string, string>;
}

export type GraphQLResponse<TData> = ExecutionResult<TData> & { errors?: readonly GraphQLFormattedError[] };

export interface Testkit {
  url: string;
  graphqlUrl: string;
  simulator: PartnerSimulator;
  service: Tradegraph;
  config: Config;
  /** Every line the service logged, as JSON text. */
  logs: string[];
  execute<TData, TVariables extends Record<string, unknown>>(
    document: TypedDocumentNode<TData, TVariables>,
    variables: TVariables,
    options?: RequestOptions,
  ): Promise<GraphQLResponse<TData>>;
  /** Sends a raw GraphQL request body and answers the HTTP response. */
  post(body: unknown, options?: RequestOptions): Promise<Response>;
  /** Adds a credential that reached the service another way (through a gateway) to the secret scan. */
  addSecret(secret: string): void;
  close(): Promise<void>;
}

export async function startTestkit(options: TestkitOptions = {}): Promise<Testkit> {
  const simulator = options.sharedSimulator ?? (await startSimulator(options.simulator));
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logs.push(line);
      done();
    },
  });
  const config: Config = {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'debug' }),
    partnerApiUrl: simulator.url,
    partnerOpenApiUrl: simulator.url,
    partnerAppKey: DEMO_APP_KEY,
    ...options.config,
  };
  const service = createTradegraph({
    config: {
      ...config,
      partnerApiUrl: config.partnerApiUrl ?? simulator.url,
      partnerOpenApiUrl: config.partnerOpenApiUrl ?? simulator.url,
    },
    logger: createLogger(config.logLevel, sink),
    schema: options.schema,
  });
  const url = await service.listen(0, '127.0.0.1');
  const graphqlUrl = `${url}${GRAPHQL_PATH}`;

  // Every credential this kit handed out, for the run's secret scan (test/support/secret-scan.ts).
  const secrets = new Set<string>([DEMO_ACCESS_TOKEN, DEMO_APP_KEY]);
  if (config.partnerAppKey) secrets.add(config.partnerAppKey);
  if (options.simulator?.appKey) secrets.add(options.simulator.appKey);
  const post = (body: unknown, { token = DEMO_ACCESS_TOKEN, headers = {} }: RequestOptions = {}) => {
    if (token) secrets.add(token);
    for (const [name, value] of Object.entries(headers)) {
      if (name.toLowerCase() === 'authorization') secrets.add(value.replace(/^\S+\s+/, ''));
    }
    return fetch(graphqlUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json',
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  };

  return {
    url,
    graphqlUrl,
    simulator,
    service,
    config,
    logs,
    post,
    addSecret: (secret) => void secrets.add(secret),
    async execute(document, variables, requestOptions) {
      const response = await post({ query: print(document), variables }, requestOptions);
      return (await response.json()) as never;
    },
    async close() {
      await service.close();
      if (!options.sharedSimulator) await simulator.close();
      const archive = logArchiveDir();
      if (archive) {
        const entry: LogArchiveEntry = { secrets: [...secrets], logs };
        writeFileSync(join(archive, `${randomUUID()}.json`), JSON.stringify(entry));
      }
    },
  };
}

/** Where the run's secret scan collects log lines; undefined outside a vitest run (a bench script). */
function logArchiveDir(): string | undefined {
  try {
    return inject('logArchiveDir');
  } catch {
    return undefined;
  }
}

/**
 * One testkit for a whole test file, its simulator reset before each test. Returns a getter,
 * since the kit exists only once the file's hooks have run.
 */
export function useTestkit(options?: TestkitOptions): () => Testkit {
  let kit: Testkit | undefined;
  beforeAll(async () => {
    kit = await startTestkit(options);
  });
  afterAll(async () => {
    await kit?.close();
  });
  beforeEach(() => {
    kit!.simulator.reset(options?.simulator);
  });
  return () => kit!;
}

/** Asserts a response has data and no errors, and narrows its type. */
export function expectNoGraphQLErrors<TData>(
  result: GraphQLResponse<TData>,
): asserts result is GraphQLResponse<TData> & { data: TData } {
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  expect(result.data).toBeTruthy();
}

/** The `extensions.code` of each error, in order. */
export const errorCodes = (result: { errors?: readonly GraphQLFormattedError[] }) =>
  (result.errors ?? []).map((error) => error.extensions?.code);

/** A service's JSON log lines whose message starts so, with the fields the tests read. */
export function logLinesStartingWith(logs: readonly string[], message: string): { msg?: string; reason?: string; level?: number }[] {
  return logs
    .map((line) => JSON.parse(line) as { msg?: string; reason?: string; level?: number })
    .filter((line) => line.msg?.startsWith(message));
}
