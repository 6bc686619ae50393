import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { checkHost, ConfigError, DEVELOPMENT_RATE_LIMIT_MAX, loadConfig } from '../../src/config.js';
import { productionCommand } from '../support/production-command.js';
import { MANIFEST_PATH, manifest, sha256, writeManifestFile } from '../support/trusted-documents.js';

/** docs/configuration.md, the page the README points to: its table has one row per variable. */
const CONFIGURATION = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');

describe('loadConfig', () => {
  it('applies the defaults to every setting', () => {
    // Whole, not a subset: a setting added without a default shows here.
    expect(loadConfig({})).toEqual({
      port: 4000,
      host: '0.0.0.0',
      partnerApiUrl: null,
      partnerOpenApiUrl: null,
      partnerAppKey: null,
      simulatorAdminRoutes: false,
      upstreamTimeoutMs: 5000,
      upstreamMaxRetries: 2,
      upstreamBreakerFailureRatio: 0.5,
      upstreamBreakerWindowMs: 10_000,
      upstreamBreakerMinCalls: 20,
      upstreamBreakerMinDistinct: 3,
      upstreamBreakerHalfOpenMs: 5000,
      upstreamConnections: 64,
      upstreamConnectionWaitMs: 1000,
      upstreamConnectionsPerDomain: null,
      maxOperationsInFlight: 1024,
      operationTimeoutMs: 15_000,
      pageMaxPartnerCalls: 4,
      livePollIntervalMs: 15_000,
      liveSubscriptionsMax: 1000,
      liveSubscriptionsPerCredential: 20,
      maxQueryBytes: 32_768,
      httpHeadersTimeoutMs: 10_000,
      httpRequestTimeoutMs: 30_000,
      httpWriteTimeoutMs: 10_000,
      httpMaxConnections: 4096,
      listingFeeBatchMax: 50,
      maxBodyBytes: 1_048_576,
      clientNamesMax: 50,
      logLevel: 'info',
      production: false,
      tracing: null,
      trustedDocuments: null,
      trustedDocumentsOnly: false,
      responseCacheTtlMs: 0,
      responseCacheMaxBytes: 64 * 1024 * 1024,
      responseCacheMaxEntryBytes: 2 * 1024 * 1024,
      responseCacheStaleIfErrorMs: 300_000,
      redisCommandTimeoutMs: 250,
      redisValueKey: null,
      redisTlsCa: null,
      redisUrl: null,
      responseCacheRedisUrl: null,
      rateLimit: { max: DEVELOPMENT_RATE_LIMIT_MAX, windowMs: 60_000, proxyHops: 0 },
    });
  });

  // docs/configuration.md states each variable's default; setting a variable to the default
  // the table states must change nothing.
  const documentedDefaults = [...CONFIGURATION.matchAll(/^\| `([A-Z_]+)` \| `([^`]+)` \|/gm)].map(([, name, value]) => [name!, value!] as const);

  it("has a row in docs/configuration.md's table for every variable it reads, and none for others", () => {
    const read = new Set<string>();
    const env = new Proxy({} as NodeJS.ProcessEnv, {
      get: (_target, key) => {
        if (typeof key === 'string') read.add(key);
        return undefined;
      },
    });
    loadConfig(env);
    const rows = [...CONFIGURATION.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((match) => match[1]!);
    expect(rows.sort()).toEqual([...read].filter((key) => /^[A-Z][A-Z0-9_]+$/.test(key)).sort());
  });

  it('finds the literal defaults in docs/configuration.md', () => {
    expect(documentedDefaults.map(([name]) => name)).toEqual(expect.arrayContaining(['PORT', 'UPSTREAM_TIMEOUT_MS', 'NODE_ENV', 'OTEL_SDK_DISABLED']));
  });

  it.each(documentedDefaults.filter(([, value]) => !/^[A-Z_]+$/.test(value)))(
    'defaults %s to the %s docs/configuration.md states',
    (name, value) => {
      expect(loadConfig({ [name]: value })).toEqual(loadConfig({}));
    },
  );

  it('gives the response cache a Redis of its own with RESPONSE_CACHE_REDIS_URL, and turns stale answers off with 0', () => {
    expect(loadConfig({ RESPONSE_CACHE_REDIS_URL: 'redis://answers:6379/2' })).toEqual(
      expect.objectContaining({ responseCacheRedisUrl: 'redis://answers:6379/2', redisUrl: null }),
    );
    expect(loadConfig({ RESPONSE_CACHE_STALE_IF_ERROR_MS: '0' }).responseCacheStaleIfErrorMs).toBe(0);
  });

  it('keeps the response cache and Redis off unless configured, and rate limits off outside development', () => {
    expect(loadConfig({})).toEqual(expect.objectContaining({ responseCacheTtlMs: 0, redisUrl: null }));
    for (const NODE_ENV of ['production', 'test']) {
      expect(loadConfig({ NODE_ENV, PARTNER_SIMULATOR: 'embedded' }).rateLimit).toBeNull();
    }
    // Development (the default) shows the RateLimit fields a front end meets in production; 0 turns them off.
    expect(loadConfig({}).rateLimit).toEqual({ max: DEVELOPMENT_RATE_LIMIT_MAX, windowMs: 60_000, proxyHops: 0 });
    expect(DEVELOPMENT_RATE_LIMIT_MAX).toBeGreaterThanOrEqual(1000);
    expect(loadConfig({ RATE_LIMIT_MAX: '0' }).rateLimit).toBeNull();
    expect(
      loadConfig({ RESPONSE_CACHE_TTL_MS: '5000', REDIS_URL: 'rediss://:pw@cache:6380/1', RATE_LIMIT_MAX: '100' }),
    ).toEqual(
      expect.objectContaining({
        responseCacheTtlMs: 5000,
        redisUrl: 'rediss://:pw@cache:6380/1',
        rateLimit: { max: 100, windowMs: 60_000, proxyHops: 0 },
      }),
    );
  });

  it('never quotes a refused value, which for REDIS_URL may hold a password', () => {
    expect(() => loadConfig({ REDIS_URL: 'tcp://:hunter2-secret@cache' })).toThrow(/^(?![\s\S]*hunter2)/);
    expect(() => loadConfig({ RESPONSE_CACHE_REDIS_URL: 'redis://:hunter2-secret@cache/abc' })).toThrow(/^(?![\s\S]*hunter2)[\s\S]*RESPONSE_CACHE_REDIS_URL/);
    expect(() => loadConfig({ REDIS_URL: 'redis://:hunter2-secret@cache/abc' })).toThrow(/^(?![\s\S]*hunter2)[\s\S]*REDIS_URL/);
  });

  it('takes a Redis database as a whole number, or none', () => {
    for (const url of ['redis://cache:6379', 'redis://cache:6379/', 'redis://cache:6379/3', 'rediss://:pw@cache:6380/15']) {
      expect(loadConfig({ REDIS_URL: url }).redisUrl).toBe(url);
    }
  });

  it('treats empty values as unset, and defaults the open-API base to the partner base', () => {
    const config = loadConfig({ PARTNER_API_URL: 'https://partner.example', PARTNER_OPEN_API_URL: '', PORT: '' });
    expect(config.partnerOpenApiUrl).toBe('https://partner.example');
    expect(config.port).toBe(4000);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PARTNER_API_URL: 'ftp://x' }, 'PARTNER_API_URL'],
    [{ PARTNER_API_URL: 'not a url' }, 'PARTNER_API_URL'],
    [{ UPSTREAM_TIMEOUT_MS: '0' }, 'UPSTREAM_TIMEOUT_MS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ LISTING_FEE_BATCH_MAX: '2.5' }, 'LISTING_FEE_BATCH_MAX'],
    [{ PARTNER_OPEN_API_URL: 'https://open.example' }, 'PARTNER_OPEN_API_URL'],
    [{ RESPONSE_CACHE_TTL_MS: '-1' }, 'RESPONSE_CACHE_TTL_MS'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL'],
    [{ RATE_LIMIT_MAX: 'many' }, 'RATE_LIMIT_MAX'],
    [{ RATE_LIMIT_WINDOW_MS: '1500' }, 'RATE_LIMIT_WINDOW_MS'],
    // Decimal digits only: each of these is a number to Number(), and none is what was meant.
    [{ RESPONSE_CACHE_TTL_MS: '0x10' }, 'RESPONSE_CACHE_TTL_MS'],
    [{ MAX_BODY_BYTES: '1e6' }, 'MAX_BODY_BYTES'],
    [{ PORT: ' 5' }, 'PORT'],
    [{ UPSTREAM_TIMEOUT_MS: '5000.0' }, 'UPSTREAM_TIMEOUT_MS'],
    [{ RATE_LIMIT_MAX: '+5' }, 'RATE_LIMIT_MAX'],
    [{ REDIS_URL: 'redis://cache:6379/abc' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://cache:6379/-1' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://cache:6379/1.5' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://cache:6379/1/2' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://cache:6379?db=x' }, 'REDIS_URL'],
    [{ RESPONSE_CACHE_MAX_BYTES: '1000' }, 'RESPONSE_CACHE_MAX_BYTES'],
    [{ RESPONSE_CACHE_STALE_IF_ERROR_MS: '-1' }, 'RESPONSE_CACHE_STALE_IF_ERROR_MS'],
    [{ RESPONSE_CACHE_STALE_IF_ERROR_MS: '86400001' }, 'RESPONSE_CACHE_STALE_IF_ERROR_MS'],
    [{ RESPONSE_CACHE_REDIS_URL: 'http://cache:6379' }, 'RESPONSE_CACHE_REDIS_URL'],
    [{ RESPONSE_CACHE_REDIS_URL: 'redis://cache:6379/abc' }, 'RESPONSE_CACHE_REDIS_URL'],
    [{ RESPONSE_CACHE_MAX_BYTES: '2097152', RESPONSE_CACHE_MAX_ENTRY_BYTES: '4194304' }, 'RESPONSE_CACHE_MAX_ENTRY_BYTES'],
  ])('refuses %o, naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:[\\s\\S]*${variable}`));
  });
});

// Settings a library would refuse only later: node:http as the server is built, the resolver as it
// listens, undici on every call that carries the app-key. Each is refused at start, naming it.
describe('settings a library would refuse after start', () => {
  const APP_KEY_SECRET = 'k3y-s3cr3t';
  it.each(['\r', '\n', '\r\n', '\0', '\x7f', '\x1b', '€', '😀'])('refuses a PARTNER_APP_KEY holding %j, never quoting it', (character) => {
    const key = `${APP_KEY_SECRET}${character}x`;
    expect(() => loadConfig({ PARTNER_APP_KEY: key })).toThrow(/^Invalid configuration:\n {2}PARTNER_APP_KEY: must be usable as an HTTP header value/);
    expect(() => loadConfig({ PARTNER_APP_KEY: key })).toThrow(new RegExp(`^(?![\\s\\S]*${APP_KEY_SECRET})`));
  });

  it('refuses whitespace at either end of PARTNER_APP_KEY, which the wire would trim', () => {
    for (const key of [' abc', 'abc ', '\tabc', 'abc\t', ' ']) expect(() => loadConfig({ PARTNER_APP_KEY: key })).toThrow(/PARTNER_APP_KEY/);
  });

  it('takes a PARTNER_APP_KEY of any latin-1 text without control characters', () => {
    for (const key of ['abc', 'a b', 'a\tb', 'clé-é', '!~"\\{}', '\xff']) expect(loadConfig({ PARTNER_APP_KEY: key }).partnerAppKey).toBe(key);
  });

  it.each([
    ['PARTNER_API_URL', { PARTNER_API_URL: 'https://partner.example/api?key=1' }],
    ['PARTNER_API_URL', { PARTNER_API_URL: 'https://partner.example/api#top' }],
    ['PARTNER_API_URL', { PARTNER_API_URL: 'https://partner.example/api?' }],
    ['PARTNER_OPEN_API_URL', { PARTNER_API_URL: 'https://partner.example', PARTNER_OPEN_API_URL: 'https://open.example/?x' }],
    ['PARTNER_OPEN_API_URL', { PARTNER_API_URL: 'https://partner.example', PARTNER_OPEN_API_URL: 'https://open.example/#' }],
  ])('refuses a query or fragment in %s', (variable, env) => {
    expect(() => loadConfig(env)).toThrow(
      new RegExp(`^Invalid configuration:\\n {2}${variable}: must not hold a query \\(\\?\\) or a fragment \\(#\\): give the base URL only$`),
    );
  });

  it('takes partner base URLs with a path', () => {
    const config = loadConfig({ PARTNER_API_URL: 'https://partner.example/api/', PARTNER_OPEN_API_URL: 'http://open.example:8080/v1' });
    expect([config.partnerApiUrl, config.partnerOpenApiUrl]).toEqual(['https://partner.example/api/', 'http://open.example:8080/v1']);
  });

  it.each([
    [{ HTTP_HEADERS_TIMEOUT_MS: '30001' }, 30_001, 30_000, false],
    [{ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '4000' }, 5000, 4000, false],
    [{ HTTP_HEADERS_TIMEOUT_MS: '30000' }, 30_000, 30_000, true],
    [{ HTTP_HEADERS_TIMEOUT_MS: '4000', HTTP_REQUEST_TIMEOUT_MS: '5000' }, 4000, 5000, true],
  ])('orders the HTTP timeouts as node:http does: %o', (env, headersTimeout, requestTimeout, accepted) => {
    // node:http's own rule, so that the check here stays the one node:http makes.
    const build = () => createServer({ headersTimeout, requestTimeout });
    if (accepted) {
      expect(loadConfig(env)).toMatchObject({ httpHeadersTimeoutMs: headersTimeout, httpRequestTimeoutMs: requestTimeout });
      expect(build).not.toThrow();
    } else {
      expect(() => loadConfig(env)).toThrow(/^Invalid configuration:\n {2}HTTP_HEADERS_TIMEOUT_MS: must not be above HTTP_REQUEST_TIMEOUT_MS$/);
      expect(build).toThrow(/headersTimeout/);
    }
  });
});

describe('checkHost', () => {
  it('refuses a HOST that resolves to no address, naming HOST', async () => {
    await expect(checkHost('nowhere.invalid')).rejects.toThrow(ConfigError);
    await expect(checkHost('nowhere.invalid')).rejects.toThrow(/^Invalid configuration:\n {2}HOST: 'nowhere\.invalid' does not resolve/);
  });

  it.each(['127.0.0.1', '0.0.0.0', '::', 'localhost'])('takes %s', async (host) => {
    await expect(checkHost(host)).resolves.toBeUndefined();
  });
});

describe('HTTP_WRITE_TIMEOUT_MS', () => {
  it('takes whole milliseconds from 1000 to 600000, 10 s when unset', () => {
    expect(loadConfig({}).httpWriteTimeoutMs).toBe(10_000);
    expect(loadConfig({ HTTP_WRITE_TIMEOUT_MS: '' }).httpWriteTimeoutMs).toBe(10_000);
    expect(loadConfig({ HTTP_WRITE_TIMEOUT_MS: '1000' }).httpWriteTimeoutMs).toBe(1000);
    expect(loadConfig({ HTTP_WRITE_TIMEOUT_MS: '600000' }).httpWriteTimeoutMs).toBe(600_000);
  });

  // Below a second, a client on a slow link would be cut between two TCP windows; 0 is not "off".
  it.each(['0', '999', '600001', '0x3e8', '1e4', '2000.0', ' 2000', '-2000', '2 s', 'off'])('refuses %j, naming it and the range', (value) => {
    expect(() => loadConfig({ HTTP_WRITE_TIMEOUT_MS: value })).toThrow(
      /^Invalid configuration:\n {2}HTTP_WRITE_TIMEOUT_MS: must be a whole number from 1000 to 600000, in decimal digits$/,
    );
  });
});

describe('LIVE_POLL_INTERVAL_MS', () => {
  // The floor protects the partner; tests that need a shorter poll set the Config field, never the variable.
  it.each(['0', '999'])('refuses %j at start, saying why', (value) => {
    expect(() => loadConfig({ LIVE_POLL_INTERVAL_MS: value })).toThrow(
      /^Invalid configuration:\n {2}LIVE_POLL_INTERVAL_MS: must be at least 1000 \(1 s\), to protect the partner API/,
    );
  });

  it('takes a second and more', () => {
    expect(loadConfig({ LIVE_POLL_INTERVAL_MS: '1000' }).livePollIntervalMs).toBe(1000);
  });
});

describe('PARTNER_API_URL in production, and PARTNER_SIMULATOR', () => {
  it('refuses production mode without PARTNER_API_URL, naming it and the opt-in', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /^Invalid configuration:\n {2}PARTNER_API_URL: is required when NODE_ENV=production [\s\S]*PARTNER_SIMULATOR=embedded/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', PARTNER_API_URL: '' })).toThrow(ConfigError);
  });

  it('takes production mode with a partner, or with the simulator asked for by name', () => {
    expect(loadConfig({ NODE_ENV: 'production', PARTNER_API_URL: 'https://partner.example' })).toMatchObject({
      production: true,
      partnerApiUrl: 'https://partner.example',
    });
    expect(loadConfig({ NODE_ENV: 'production', PARTNER_SIMULATOR: 'embedded' })).toMatchObject({ production: true, partnerApiUrl: null });
    // Development needs no opt-in: `npm start` on a fresh clone serves the demo.
    expect(loadConfig({ PARTNER_SIMULATOR: 'embedded' })).toEqual(loadConfig({}));
  });

  it.each([
    [{ PARTNER_SIMULATOR: 'embedded', PARTNER_API_URL: 'https://partner.example' }],
    [{ PARTNER_SIMULATOR: 'yes', NODE_ENV: 'production' }],
    [{ PARTNER_SIMULATOR: 'external' }],
  ])('refuses %o, naming PARTNER_SIMULATOR', (env) => {
    expect(() => loadConfig(env)).toThrow(/^Invalid configuration:[\s\S]*PARTNER_SIMULATOR/);
  });

  it('needs a secret for the tags of Redis values: REDIS_VALUE_KEY (32 characters at least), else PARTNER_APP_KEY', () => {
    const upstream = { PARTNER_API_URL: 'https://partner.example', REDIS_URL: 'redis://127.0.0.1:6379' };
    expect(() => loadConfig(upstream)).toThrow(/^Invalid configuration:\n {2}REDIS_VALUE_KEY: is required with REDIS_URL/);
    expect(() => loadConfig({ ...upstream, REDIS_URL: undefined, RESPONSE_CACHE_REDIS_URL: upstream.REDIS_URL })).toThrow(/REDIS_VALUE_KEY/);
    expect(() => loadConfig({ ...upstream, REDIS_VALUE_KEY: 'short' })).toThrow(/REDIS_VALUE_KEY: must be at least 32 characters/);
    expect(loadConfig({ ...upstream, PARTNER_APP_KEY: 'app-key' }).redisValueKey).toBeNull();
    expect(loadConfig({ ...upstream, REDIS_VALUE_KEY: 'k'.repeat(32) }).redisValueKey).toBe('k'.repeat(32));
    // The embedded simulator's demo app-key keys them for the demo.
    expect(loadConfig({ REDIS_URL: upstream.REDIS_URL }).redisValueKey).toBeNull();
  });

  it("opens the embedded simulator's admin routes only when SIMULATOR_ADMIN_ROUTES=true asks, never beside a real upstream", () => {
    expect(loadConfig({ NODE_ENV: 'production', PARTNER_SIMULATOR: 'embedded' }).simulatorAdminRoutes).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', PARTNER_SIMULATOR: 'embedded', SIMULATOR_ADMIN_ROUTES: 'true' }).simulatorAdminRoutes).toBe(true);
    expect(loadConfig({ SIMULATOR_ADMIN_ROUTES: 'false' }).simulatorAdminRoutes).toBe(false);
    for (const env of [{ SIMULATOR_ADMIN_ROUTES: 'yes' }, { SIMULATOR_ADMIN_ROUTES: 'true', PARTNER_API_URL: 'https://partner.example' }]) {
      expect(() => loadConfig(env)).toThrow(/^Invalid configuration:[\s\S]*SIMULATOR_ADMIN_ROUTES/);
    }
  });
});

describe('TRUSTED_DOCUMENTS and TRUSTED_DOCUMENTS_ONLY', () => {
  it('reads the manifest; only its documents run by default in production, and not in development', () => {
    expect(loadConfig({})).toMatchObject({ trustedDocuments: null, trustedDocumentsOnly: false });
    const production = loadConfig({ NODE_ENV: 'production', PARTNER_SIMULATOR: 'embedded', TRUSTED_DOCUMENTS: MANIFEST_PATH });
    expect(production.trustedDocuments).toEqual(manifest());
    expect(Object.keys(production.trustedDocuments!).length).toBeGreaterThan(5);
    expect(production.trustedDocumentsOnly).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', PARTNER_SIMULATOR: 'embedded', TRUSTED_DOCUMENTS: MANIFEST_PATH, TRUSTED_DOCUMENTS_ONLY: 'false' }).trustedDocumentsOnly).toBe(false);
    expect(loadConfig({ TRUSTED_DOCUMENTS: MANIFEST_PATH }).trustedDocumentsOnly).toBe(false);
    expect(loadConfig({ TRUSTED_DOCUMENTS: MANIFEST_PATH, TRUSTED_DOCUMENTS_ONLY: 'true' }).trustedDocumentsOnly).toBe(true);
  });

  it.each([
    ['unreadable', null, /cannot read '\/nonexistent\/m.json' \(ENOENT\)/],
    ['not JSON', '{', /is not JSON/],
    ['an array', '[]', /must hold one JSON object/],
    ['a key that is not a sha256', JSON.stringify({ abc: '{ __typename }' }), /key 'abc' .* is not a lowercase hex sha256/],
    ['a document that is not a string', JSON.stringify({ [sha256('x')]: 1 }), /is not a string/],
    ['a key that is another text\'s sha256', JSON.stringify({ [sha256('{ a }')]: '{ b }' }), /is not the sha256 of its document/],
  ])('refuses a manifest that is %s, naming TRUSTED_DOCUMENTS', (_case, text, reason) => {
    const path = text === null ? '/nonexistent/m.json' : writeManifestFile(text);
    expect(() => loadConfig({ TRUSTED_DOCUMENTS: path })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUSTED_DOCUMENTS: path })).toThrow(/^Invalid configuration:\n {2}TRUSTED_DOCUMENTS: /);
    expect(() => loadConfig({ TRUSTED_DOCUMENTS: path })).toThrow(reason);
  });

  it('refuses TRUSTED_DOCUMENTS_ONLY=true without a manifest, and a value that is not a boolean', () => {
    expect(() => loadConfig({ TRUSTED_DOCUMENTS_ONLY: 'true' })).toThrow(/TRUSTED_DOCUMENTS_ONLY: is true but TRUSTED_DOCUMENTS is not set/);
    expect(() => loadConfig({ TRUSTED_DOCUMENTS: MANIFEST_PATH, TRUSTED_DOCUMENTS_ONLY: 'yes' })).toThrow(/TRUSTED_DOCUMENTS_ONLY/);
  });
});

describe('RESPONSE_CACHE_MAX_BYTES against the heap limit', () => {
  const MiB = 2 ** 20;
  const cached = { RESPONSE_CACHE_TTL_MS: '60000', RESPONSE_CACHE_MAX_BYTES: String(64 * MiB) };

  it('refuses an in-process budget whose full heap would pass half the heap limit, naming the way out', () => {
    expect(() => loadConfig(cached, 180 * MiB)).toThrow(
      ConfigError.of(
        'RESPONSE_CACHE_MAX_BYTES',
        'a full in-process cache of 64 MiB may hold up to 96 MiB of heap (1.5 × its budget), ' +
          "more than half this process's heap limit of 180 MiB; lower it, raise the heap limit (node --max-old-space-size), or share the cache through REDIS_URL",
      ),
    );
  });

  it('takes the same budget under a heap limit large enough, or when the cache is in Redis or off', () => {
    expect(loadConfig(cached, 192 * MiB).responseCacheMaxBytes).toBe(64 * MiB);
    expect(loadConfig({ ...cached, REDIS_URL: 'redis://cache:6379' }, 128 * MiB).responseCacheMaxBytes).toBe(64 * MiB);
    expect(loadConfig({ ...cached, RESPONSE_CACHE_REDIS_URL: 'redis://cache:6379' }, 128 * MiB).responseCacheMaxBytes).toBe(64 * MiB);
    expect(loadConfig({ ...cached, RESPONSE_CACHE_TTL_MS: '0' }, 128 * MiB).responseCacheMaxBytes).toBe(64 * MiB);
  });

  it("takes the default budget under start:prod's heap limit", () => {
    const { nodeArgs } = productionCommand(process.cwd())!;
    const oldSpaceMiB = Number(/^--max-old-space-size=(\d+)$/.exec(nodeArgs.find((arg) => arg.startsWith('--max-old-space-size=')) ?? '')?.[1]);
    expect(oldSpaceMiB).toBeGreaterThan(0);
    expect(loadConfig({ RESPONSE_CACHE_TTL_MS: '60000' }, oldSpaceMiB * MiB).responseCacheMaxBytes).toBe(64 * MiB);
  });
});
