// A person who opens the service in a browser is told where to go: GET / in both modes, and
// production's GET /graphql, which has no GraphiQL to show.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_DOCS } from '../../src/http/help.js';
import { useTestkit } from '../support/testkit.js';

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('in development', () => {
  const kit = useTestkit({ config: { production: false } });

  it('answers GET / with where GraphiQL and the endpoint are', async () => {
    const response = await fetch(`${kit().url}/`, { headers: BROWSER });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await response.text();
    expect(text).toContain('Open /graphql in a browser for GraphiQL');
    expect(text).toContain('POST with content-type application/json');
  });

  it('still serves GraphiQL at /graphql', async () => {
    const response = await fetch(kit().graphqlUrl, { headers: BROWSER });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>tradegraph</title>');
  });
});

describe('in production', () => {
  const kit = useTestkit({ config: { production: true } });

  it.each(['/', '/graphql'])('answers a browser at %s with how to call the API, and no GraphiQL', async (path) => {
    const response = await fetch(`${kit().url}${path}`, { headers: BROWSER });
    expect(response.status).toBe(path === '/' ? 200 : 406);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await response.text();
    expect(text).toContain('POST with content-type application/json');
    expect(text).toContain('GET\n/graphql?query=... with the header x-graphql-csrf: 1');
    expect(text).toContain(CLIENT_DOCS);
    expect(text).not.toContain('GraphiQL');
  });

  it('names a documentation page that exists', () => {
    expect(existsSync(new URL(`../../${CLIENT_DOCS}`, import.meta.url))).toBe(true);
  });

  it('still answers a GET that carries a query, as GraphQL', async () => {
    const response = await fetch(`${kit().graphqlUrl}?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { ...BROWSER, 'x-graphql-csrf': '1' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ data: { __typename: 'Query' } });
  });
});
