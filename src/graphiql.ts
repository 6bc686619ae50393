// What GraphiQL opens with in development: working example operations, one tab each, with the
// caller's Authorization header already filled in when the service runs on its simulator. The
// examples are graphiql/*.graphql, which codegen also puts in the trusted-documents manifest; they
// write the demo values out rather than import src/simulator/, so that the production bundle never
// loads the simulator's data. test/integration/examples.test.ts runs them against the simulator.
import { readFileSync } from 'node:fs';
import type { GraphiQLOptions } from 'graphql-yoga';

const EXAMPLES_DIR = new URL('../graphiql/', import.meta.url);

/** The tabs' files, in order; the first is the one GraphiQL opens on. */
const EXAMPLE_FILES = [
  'inventory-first-page.graphql',
  'page-with-fees.graphql',
  'page-with-deferred-fees.graphql',
  'calculate-fees.graphql',
];

/** The example operations GraphiQL opens with, one tab each; read only where GraphiQL is served. */
export function graphiqlTabs(): string[] {
  return EXAMPLE_FILES.map((file) => readFileSync(new URL(file, EXAMPLES_DIR), 'utf8'));
}

export function graphiqlOptions(defaultHeaders: Record<string, string>): GraphiQLOptions {
  const headers = JSON.stringify(defaultHeaders, null, 2);
  const tabs = graphiqlTabs();
  return {
    title: 'tradegraph',
    defaultHeaders: headers,
    headers,
    defaultTabs: tabs.map((query) => ({ query, headers })),
    defaultQuery: tabs[0],
  };
}
