// The HTTP status table of docs/statuses-and-error-codes.md as data: one row per kind of refusal, the
// request that provokes it, and the status it gets under each Accept the table names. A test runs
// the whole table against a service process (the development sources and the production build).

/** The two Accept columns of the table. */
export const ACCEPT_COLUMNS = {
  /** curl's and fetch's default: application/json answers. */
  json: '*/*',
  /** Apollo Client 4's default: application/graphql-response+json answers. */
  graphqlResponse: 'application/graphql-response+json,application/json;q=0.9',
} as const;
export type AcceptColumn = keyof typeof ACCEPT_COLUMNS;

export interface StatusRow {
  name: string;
  /** A code the answer's errors must hold. */
  code: string;
  /** The status under each Accept column; one number when the media type does not change it. */
  status: number | Record<AcceptColumn, number>;
  /** The request (a path of the service and its init), with the column's Accept header. */
  request(accept: string): { path: string; init: RequestInit };
  /** The Allow header a 405 must carry. */
  allow?: string;
  /** When the row's own Accept is the point (406), the columns are not sent. */
  fixedAccept?: boolean;
}

/** The limits a service the table runs against is started with (env), so that each row is reachable. */
export const TABLE_ENV = { MAX_BODY_BYTES: '16384', MAX_QUERY_BYTES: '8192', RATE_LIMIT_MAX: '50' } as const;

const PLATFORM_ID = '76561198000000240';
const inventory = (selection: string, alias = '') => `${alias}inventory(platformId: "${PLATFORM_ID}", appId: 730) { ${selection} }`;
const VALIDATION = { json: 200, graphqlResponse: 400 } as const;

const post = (body: string, accept: string, contentType = 'application/json', extra: Record<string, string> = {}) => ({
  path: '/graphql',
  init: { method: 'POST', headers: { 'content-type': contentType, accept, ...extra }, body },
});
const postQuery = (query: string, accept: string, rest: Record<string, unknown> = {}) => post(JSON.stringify({ query, ...rest }), accept);

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

export const STATUS_ROWS: StatusRow[] = [
  { name: 'a query that does not parse', code: 'GRAPHQL_PARSE_FAILED', status: VALIDATION, request: (accept) => postQuery('{ inventory(', accept) },
  { name: 'a query that does not validate', code: 'GRAPHQL_VALIDATION_FAILED', status: VALIDATION, request: (accept) => postQuery('{ nope }', accept) },
  { name: 'no query', code: 'BAD_REQUEST', status: VALIDATION, request: (accept) => post('{"variables":{}}', accept) },
  {
    name: 'over the aliases limit',
    code: 'OPERATION_LIMIT_EXCEEDED',
    status: VALIDATION,
    request: (accept) => postQuery(`{ ${Array.from({ length: 31 }, (_, n) => inventory('platformId', `a${n}: `)).join(' ')} }`, accept),
  },
  {
    name: 'over the depth limit',
    code: 'OPERATION_LIMIT_EXCEEDED',
    status: VALIDATION,
    // The schema has no cycles; `__type`'s ofType chain is the way past ten levels.
    request: (accept) => postQuery(`{ __type(name: "Query") { fields { type ${'{ ofType '.repeat(9)}{ name }${' }'.repeat(9)} } } }`, accept),
  },
  {
    name: 'over the tokens limit',
    code: 'OPERATION_LIMIT_EXCEEDED',
    status: VALIDATION,
    request: (accept) => postQuery(`{ ${Array.from({ length: 2100 }, () => 'a').join(' ')} }`, accept),
  },
  {
    name: 'over the cost limit',
    code: 'OPERATION_LIMIT_EXCEEDED',
    status: VALIDATION,
    request: (accept) => postQuery(`{ ${Array.from({ length: 11 }, (_, n) => inventory('items(first: 100) { nodes { assetId } }', `a${n}: `)).join(' ')} }`, accept),
  },
  { name: 'malformed JSON', code: 'BAD_REQUEST', status: 400, request: (accept) => post('{"query":', accept) },
  { name: 'a JSON array (batching)', code: 'BAD_REQUEST', status: 400, request: (accept) => post('[{"query":"{ __typename }"}]', accept) },
  { name: 'a query of the wrong type', code: 'BAD_REQUEST', status: 400, request: (accept) => post('{"query":1}', accept) },
  {
    name: 'query text over MAX_QUERY_BYTES',
    code: 'OPERATION_LIMIT_EXCEEDED',
    status: 400,
    request: (accept) => postQuery(`{ __typename ${'#'.repeat(Number(TABLE_ENV.MAX_QUERY_BYTES))}\n}`, accept),
  },
  {
    name: 'variables nested past 32 levels',
    code: 'OPERATION_LIMIT_EXCEEDED',
    status: 400,
    request: (accept) => postQuery('query ($v: Int) { __typename }', accept, { variables: { v: nested(40) } }),
  },
  {
    name: 'a GET without the CSRF header',
    code: 'CSRF_HEADER_REQUIRED',
    status: 403,
    request: (accept) => ({ path: '/graphql?query=%7B__typename%7D', init: { headers: { accept } } }),
  },
  {
    name: 'a form POST without the CSRF header',
    code: 'CSRF_HEADER_REQUIRED',
    status: 403,
    request: (accept) => post('query=%7B__typename%7D', accept, 'application/x-www-form-urlencoded'),
  },
  { name: 'a text/plain POST without the CSRF header', code: 'CSRF_HEADER_REQUIRED', status: 403, request: (accept) => post('{"query":"{ __typename }"}', accept, 'text/plain') },
  { name: 'a path with no route', code: 'BAD_REQUEST', status: 404, request: (accept) => ({ path: '/nope', init: { headers: { accept } } }) },
  ...(['PUT', 'DELETE', 'PATCH'] as const).flatMap((method): StatusRow[] => [
    {
      name: `${method} on /graphql without a body`,
      code: 'BAD_REQUEST',
      status: 405,
      allow: 'GET, POST',
      request: (accept) => ({ path: '/graphql', init: { method, headers: { accept } } }),
    },
    {
      name: `${method} on /graphql with a JSON body`,
      code: 'BAD_REQUEST',
      status: 405,
      allow: 'GET, POST',
      request: (accept) => ({
        path: '/graphql',
        init: { method, headers: { accept, 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' },
      }),
    },
  ]),
  {
    name: 'a mutation over GET',
    code: 'BAD_REQUEST',
    status: 405,
    allow: 'POST',
    request: (accept) => ({
      path: `/graphql?query=${encodeURIComponent('mutation { calculateListingFee(input: { items: [{ price: 100 }] }) { fees { fee } } }')}`,
      init: { headers: { accept, 'x-graphql-csrf': '1' } },
    }),
  },
  ...(['/health', '/readiness', '/metrics'] as const).map(
    (path): StatusRow => ({
      name: `a POST to ${path}`,
      code: 'BAD_REQUEST',
      status: 405,
      allow: 'GET, HEAD',
      request: (accept) => ({ path, init: { method: 'POST', headers: { accept, 'content-type': 'application/json' }, body: '{}' } }),
    }),
  ),
  {
    name: 'an Accept with none of the media types the service answers in',
    code: 'BAD_REQUEST',
    status: 406,
    fixedAccept: true,
    request: () => postQuery('{ __typename }', 'application/xml'),
  },
  {
    name: '@defer without a streaming Accept',
    code: 'INCREMENTAL_DELIVERY_NOT_ACCEPTED',
    status: 406,
    fixedAccept: true,
    request: () => postQuery(`{ ${inventory('... @defer { totalCount }')} }`, 'application/json'),
  },
  {
    name: 'a body over MAX_BODY_BYTES',
    code: 'OPERATION_LIMIT_EXCEEDED',
    status: 413,
    request: (accept) => post(JSON.stringify({ query: `{ __typename }`, variables: { pad: 'x'.repeat(Number(TABLE_ENV.MAX_BODY_BYTES)) } }), accept),
  },
  { name: 'a content-type the service does not read', code: 'BAD_REQUEST', status: 415, request: (accept) => post('<query/>', accept, 'application/xml') },
  {
    name: 'over what is left of RATE_LIMIT_MAX',
    code: 'RATE_LIMITED',
    status: 429,
    // 61 units, more than the whole budget of 50: refused whatever is left of it.
    request: (accept) =>
      post(JSON.stringify({ query: `{ ${inventory('items(first: 60) { nodes { assetId } }')} }` }), accept, 'application/json', {
        authorization: 'Bearer status-table-token',
      }),
  },
];

/** The status a row states for a column. */
export const statusOf = (row: StatusRow, column: AcceptColumn) => (typeof row.status === 'number' ? row.status : row.status[column]);
