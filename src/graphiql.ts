// What GraphiQL opens with in development: working example operations, one tab each, with the
// caller's Authorization header already filled in when the service runs on its simulator. The
// examples are graphiql/*.graphql, which codegen also puts in the trusted-documents manifest; they
// write the demo values out rather than import src/simulator/, so that the production bundle never
// loads the simulator's data. test/integration/examples.test.ts runs them against the simulator.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { GraphiQLOptions } from 'graphql-yoga';

const EXAMPLES_DIR = new URL('../graphiql/', import.meta.url);

/** The tabs' files, in order; the first is the one GraphiQL opens on. */
const EXAMPLE_FILES = [
  'inventory-first-page.graphql',
  'page-with-fees.graphql',
  'page-with-deferred-fees.graphql',
  'calculate-fees.graphql',
  'live-inventory.graphql',
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

/** GraphiQL's page, rendered once: the same options every time give the same page. */
export interface GraphiQLPage {
  html(): Promise<string>;
  /** A strong entity tag for the page: a digest of its text. */
  etag(): Promise<string>;
}

export function graphiqlPage(options: GraphiQLOptions): GraphiQLPage {
  let rendered: Promise<{ html: string; etag: string }> | undefined;
  // Loaded on first use: the GraphiQL bundle is large, and production never renders it.
  const render = () =>
    (rendered ??= import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) => {
      const html = renderGraphiQL(options);
      return { html, etag: `"${createHash('sha256').update(html).digest('base64url')}"` };
    }));
  return { html: async () => (await render()).html, etag: async () => (await render()).etag };
}
