// GraphQL over HTTP: the graphql-http audit suite against the live server (each audit its own test,
// so a regression names the audit), and the CSRF protection that refuses unpreflighted requests.
import { serverAudits, type Audit, type AuditResult } from 'graphql-http';
import { describe, expect, it } from 'vitest';
import { CSRF_HEADER } from '../../src/plugins/csrf-prevention.js';
import { DEMO_ACCESS_TOKEN } from '../../src/simulator/data.js';
import { errorCodes, startTestkit, useTestkit } from '../support/testkit.js';

const kit = useTestkit();

/** The audits' fetch, optionally adding the CSRF header as a front-end client configured for it would. */
const auditFetch =
  (withCsrfHeader: boolean) =>
  (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    if (withCsrfHeader) headers.set(CSRF_HEADER, '1');
    return fetch(input, { ...init, headers });
  };

// Built before the server starts (test names must exist at collection); the URL is read per audit.
const audits = serverAudits({ url: () => kit().graphqlUrl, fetchFn: auditFetch(true) });
const auditsWithoutCsrfHeader = serverAudits({ url: () => kit().graphqlUrl, fetchFn: auditFetch(false) });
const levelOf = (audit: Audit) => audit.name.split(' ')[0] as 'MUST' | 'SHOULD' | 'MAY';

/** Why an audit failed, with what the server answered, for the assertion message. */
async function explain(result: AuditResult): Promise<string> {
  if (result.status === 'ok') return 'ok';
  const body = await result.response.clone().text().catch(() => '(unreadable body)');
  return `${result.status}: ${result.reason}; HTTP ${result.response.status}: ${body.slice(0, 500)}`;
}

const asCases = (list: Audit[]) => list.map((audit) => [`${audit.id} ${audit.name}`, audit] as const);

describe('graphql-http audits, with the CSRF header', () => {
  it('runs the whole suite', () => {
    // Guards the counts docs/clients-and-graphql-over-http.md gives: 61 audits in graphql-http 1.23
    // (13 MUST, 23 SHOULD, 25 MAY).
    const count = (level: string) => audits.filter((audit) => levelOf(audit) === level).length;
    expect({ MUST: count('MUST'), SHOULD: count('SHOULD'), MAY: count('MAY') }).toEqual({ MUST: 13, SHOULD: 23, MAY: 25 });
  });

  describe('MUST', () => {
    it.each(asCases(audits.filter((audit) => levelOf(audit) === 'MUST')))('%s', async (_name, audit) => {
      const result = await audit.fn();
      expect(result.status, await explain(result)).toBe('ok');
    });
  });

  // docs/clients-and-graphql-over-http.md states that every SHOULD and MAY audit passes too; a
  // failure here means that page must change with the code.
  describe('SHOULD', () => {
    it.each(asCases(audits.filter((audit) => levelOf(audit) === 'SHOULD')))('%s', async (_name, audit) => {
      const result = await audit.fn();
      expect(result.status, await explain(result)).toBe('ok');
    });
  });

  describe('MAY', () => {
    it.each(asCases(audits.filter((audit) => levelOf(audit) === 'MAY')))('%s', async (_name, audit) => {
      const result = await audit.fn();
      expect(result.status, await explain(result)).toBe('ok');
    });
  });
});

describe('graphql-http audits, without the CSRF header', () => {
  it('passes every MUST audit, and fails only the GET audits (which the CSRF check refuses)', async () => {
    const failed: Audit[] = [];
    for (const audit of auditsWithoutCsrfHeader) {
      if ((await audit.fn()).status !== 'ok') failed.push(audit);
    }
    // A JSON POST, all the spec requires a server to accept, is preflighted by browsers and needs no header.
    expect(failed.filter((audit) => levelOf(audit) === 'MUST')).toEqual([]);
    expect(failed.map((audit) => `${audit.id} ${audit.name}`).sort()).toEqual([
      '5A70 MAY accept application/x-www-form-urlencoded formatted GET requests',
      '6A70 MAY allow URL-encoded JSON string {variables} parameter in GETs when accepting application/json',
      'D6D5 MAY allow URL-encoded JSON string {variables} parameter in GETs when accepting application/graphql-response+json',
    ]);
  });
});

describe('CSRF prevention', () => {
  const QUERY = '{ inventory(platformId: "76561198000000003", appId: 730) { totalCount } }';
  const getUrl = () => `${kit().graphqlUrl}?query=${encodeURIComponent(QUERY)}`;
  const auth = { authorization: `Bearer ${DEMO_ACCESS_TOKEN}` };

  /** Asserts a refusal before execution: HTTP 403, the closed-set code, nothing sent upstream. */
  async function expectRefused(response: Response) {
    expect(response.status).toBe(403);
    const body = (await response.json()) as { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] };
    expect(body.data).toBeUndefined();
    expect(errorCodes(body)).toEqual(['CSRF_HEADER_REQUIRED']);
    expect(body.errors![0]!.message).toContain(`'${CSRF_HEADER}'`);
    // The HTTP status is Yoga's business; it must not leak into the error's extensions.
    expect(body.errors![0]!.extensions).not.toHaveProperty('http');
    expect(kit().simulator.callsOf('readInventory')).toHaveLength(0);
  }

  it('refuses a GET without the CSRF header', async () => {
    await expectRefused(await fetch(getUrl(), { headers: { accept: 'application/graphql-response+json', ...auth } }));
  });

  it('refuses a GET without the CSRF header when the client accepts application/json too', async () => {
    await expectRefused(await fetch(getUrl(), { headers: { accept: 'application/json', ...auth } }));
  });

  it.each([
    ['application/x-www-form-urlencoded', new URLSearchParams({ query: QUERY }).toString()],
    ['text/plain', JSON.stringify({ query: QUERY })],
    ['multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="query"\r\n\r\n${QUERY}\r\n--x--\r\n`],
  ])('refuses a simple-form POST (%s) without the CSRF header', async (contentType, body) => {
    await expectRefused(
      await fetch(kit().graphqlUrl, { method: 'POST', headers: { 'content-type': contentType, ...auth }, body }),
    );
  });

  it.each(['x-graphql-csrf', 'x-graphql-yoga-csrf', 'apollo-require-preflight', 'x-apollo-operation-name'])(
    'serves a GET that carries %s',
    async (header) => {
      const response = await fetch(getUrl(), { headers: { accept: 'application/graphql-response+json', [header]: '1', ...auth } });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ data: { inventory: { totalCount: 3 } } });
    },
  );

  it('serves a JSON POST without the header (browsers preflight it)', async () => {
    const response = await kit().post({ query: QUERY });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ data: { inventory: { totalCount: 3 } } });
  });

  it('serves a GET whose content-type is application/json, as Apollo Client sends its GETs', async () => {
    const response = await fetch(getUrl(), { headers: { 'content-type': 'application/json', ...auth } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ data: { inventory: { totalCount: 3 } } });
  });

  it('refuses the same way in production mode (the refusal is not masked)', async () => {
    const production = await startTestkit({ config: { production: true } });
    try {
      const response = await fetch(`${production.graphqlUrl}?query=${encodeURIComponent(QUERY)}`, { headers: auth });
      expect(response.status).toBe(403);
      expect(errorCodes((await response.json()) as { errors?: [] })).toEqual(['CSRF_HEADER_REQUIRED']);
      expect(production.simulator.callsOf('readInventory')).toHaveLength(0);
    } finally {
      await production.close();
    }
  });

  it('still opens GraphiQL in a browser (a plain GET for text/html)', async () => {
    const response = await fetch(kit().graphqlUrl, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('<title>tradegraph</title>');
  });
});

describe('CORS', () => {
  it("lets any origin call with a bearer token, never with the browser's credentials", async () => {
    const origin = 'https://front-end.example';
    const preflight = await fetch(kit().graphqlUrl, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    const response = await fetch(kit().graphqlUrl, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json', authorization: `Bearer ${DEMO_ACCESS_TOKEN}` },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });
});
