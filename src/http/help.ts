// What a person who opens the service in a browser reads instead of an empty page: where the
// GraphQL endpoint is and how to call it. Machines get GraphQL's own answers; these are for people.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** Where the service's own documentation of its HTTP interface lives, in its repository. */
export const CLIENT_DOCS = 'docs/clients-and-graphql-over-http.md';

export function helpText({ production, graphqlPath }: { production: boolean; graphqlPath: string }): string {
  const lines = ['tradegraph: a GraphQL API over the partner marketplace\'s inventories and listing fees.', ''];
  if (!production) lines.push(`Open ${graphqlPath} in a browser for GraphiQL, with example operations ready to run.`, '');
  lines.push(
    `Send GraphQL to ${graphqlPath}: POST with content-type application/json and a body like`,
    '{"query": "{ inventory(platformId: \\"...\\", appId: 730) { totalCount } }"}, or GET',
    `${graphqlPath}?query=... with the header x-graphql-csrf: 1.`,
    'Authenticate with Authorization: Bearer <your partner access token>.',
    '',
    'Also: GET /health, GET /readiness, GET /metrics.',
    `More: ${CLIENT_DOCS} in the tradegraph repository.`,
  );
  return `${lines.join('\n')}\n`;
}

/** A browser opening the endpoint: a GET that asks for HTML and carries no GraphQL query. */
export function isBrowserVisit(req: IncomingMessage): boolean {
  if (req.method !== 'GET' || !(req.headers.accept ?? '').includes('text/html')) return false;
  return !new URL(req.url ?? '/', 'http://localhost').searchParams.has('query');
}

export function sendHelp(res: ServerResponse, status: number, text: string, fields: OutgoingHttpHeaders = {}): void {
  res.writeHead(status, { ...fields, 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
