// What GraphiQL opens with in development: working example operations, one tab each, with the
// caller's Authorization header already filled in when the service runs on its simulator. The
// examples live in graphiql/*.graphql, which codegen also reads into the trusted-documents manifest.
import { readFileSync } from 'node:fs';
import type { GraphiQLOptions } from 'graphql-yoga';

const EXAMPLES_DIR = new URL('../graphiql/', import.meta.url);

/** The tabs, in order; the first is the one GraphiQL opens on. */
export const GRAPHIQL_EXAMPLES = [
  'inventory-first-page.graphql',
  'page-with-fees.graphql',
  'page-with-deferred-fees.graphql',
  'calculate-fees.graphql',
] as const;

export function graphiqlExample(file: (typeof GRAPHIQL_EXAMPLES)[number]): string {
  return readFileSync(new URL(file, EXAMPLES_DIR), 'utf8');
}

export function graphiqlOptions(defaultHeaders: Record<string, string>): GraphiQLOptions {
  const headers = JSON.stringify(defaultHeaders, null, 2);
  const tabs = GRAPHIQL_EXAMPLES.map((file) => graphiqlExample(file));
  return {
    title: 'tradegraph',
    defaultHeaders: headers,
    headers,
    defaultTabs: tabs.map((query) => ({ query, headers })),
    defaultQuery: tabs[0],
  };
}
