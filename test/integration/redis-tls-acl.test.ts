// Redis as a trust boundary, reached as production reaches it: the production build on a real
// redis-server that serves TLS only (a certificate for 127.0.0.1 signed by a CA made for the test)
// and knows no default user, only an ACL user limited to the `tradegraph:*` keys and the commands
// docs/fleet.md lists. Through a rediss:// URL with that user and REDIS_TLS_CA_FILE, the service
// shares its cache, counts and accepted credentials there, tagged, and Redis refuses it nothing;
// without the CA, or with a wrong password, Redis stays away (the service answers on its own).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REDIS_VALUE_TAG_BYTES } from '../../src/redis-values.js';
import { DEMO_APP_ID, DEMO_APP_KEY, DEMO_PLATFORM_ID } from '../../src/simulator/data.js';
import { startSimulator, type PartnerSimulator } from '../../src/simulator/server.js';
import { redisStateOf, startRedisServer, type RedisServer } from '../support/redis.js';
import { buildBundle, type Bundle } from '../support/bundle.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';

const USER = { name: 'tradegraph', password: 'tls-acl-user-password' };
/** The ACL docs/fleet.md gives the service's user, beside `~tradegraph:*`. */
const SERVICE_ACL = ['resetchannels', '&tradegraph:*', '+@read', '+@write', '+@scripting', '+@transaction', '+@connection', '+@pubsub', '+info'];
const TOKEN = 'redis-tls-acl-token';

let bundle: Bundle | undefined;
let redis: RedisServer;
let simulator: PartnerSimulator;
const services: ServiceProcess[] = [];

beforeAll(async () => {
  bundle = buildBundle('redis-tls');
  redis = await startRedisServer({ tls: true, user: { ...USER, acl: SERVICE_ACL } });
  simulator = await startSimulator();
});
afterAll(async () => {
  for (const service of services) await service.stop();
  await simulator?.close();
  await redis?.stop();
  bundle?.remove();
});

async function startService(env: Record<string, string>): Promise<ServiceProcess> {
  const service = await startServiceProcess(
    {
      NODE_ENV: 'production',
      PARTNER_API_URL: simulator.url,
      PARTNER_APP_KEY: DEMO_APP_KEY,
      RESPONSE_CACHE_TTL_MS: '60000',
      RATE_LIMIT_MAX: '100000',
      // A deadline no stall of a loaded machine reaches: a missed one would mark Redis down.
      REDIS_COMMAND_TIMEOUT_MS: '5000',
      ...env,
    },
    bundle!.entry,
  );
  services.push(service);
  return service;
}

const readTotal = (service: ServiceProcess) =>
  fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ query: `{ inventory(platformId: "${DEMO_PLATFORM_ID}", appId: ${DEMO_APP_ID}) { totalCount } }` }),
  }).then((response) => response.json() as Promise<Record<string, unknown>>);

/** The warning a service logs when Redis is unreachable, once it has logged it. */
const outageReason = (service: ServiceProcess) =>
  vi.waitFor(
    () => {
      const line = service.logs.find((entry) => String(entry.msg).startsWith('Redis is unreachable'));
      expect(line).toBeDefined();
      return String(line!.reason);
    },
    { timeout: 15_000, interval: 100 },
  );

describe('Redis over TLS with an ACL user', () => {
  it('shares the cache, the counts and the accepted credentials through rediss:// as the ACL user, tagged, and is refused nothing', async () => {
    expect(redis.url).toMatch(/^rediss:\/\/tradegraph:tls-acl-user-password@127\.0\.0\.1:\d+$/);
    const service = await startService({ REDIS_URL: redis.url, REDIS_TLS_CA_FILE: redis.caFile! });
    await vi.waitFor(async () => expect(await redisStateOf(service.url)).toEqual({ readiness: 'up', gauge: '1' }), { timeout: 15_000, interval: 100 });

    const calls = simulator.callsOf('readInventory').length;
    expect(await readTotal(service)).toMatchObject({ data: { inventory: { totalCount: 240 } } });
    // The answer is in Redis, tagged: the same read again is served from there.
    await vi.waitFor(async () => expect((await redis.dump()).some(({ key }) => key.startsWith('tradegraph:response:v1:'))).toBe(true), { timeout: 15_000, interval: 50 });
    expect(await readTotal(service)).toMatchObject({ data: { inventory: { totalCount: 240 } } });
    expect(simulator.callsOf('readInventory').length).toBe(calls + 1);

    const entries = await redis.dump();
    const kinds = new Set(entries.map(({ key }) => /^tradegraph:(response:v1|rate-limit|accepted-credential):/.exec(key)?.[1]));
    expect(kinds).toEqual(new Set(['response:v1', 'rate-limit', 'accepted-credential']));
    const answer = entries.find(({ key }) => key.startsWith('tradegraph:response:v1:'))!;
    expect(answer.value[REDIS_VALUE_TAG_BYTES - 1]).toBe('.');
    expect(JSON.parse(answer.value.slice(REDIS_VALUE_TAG_BYTES))).toMatchObject({ v: 1, data: { inventory: { totalCount: 240 } } });
    // Nothing the service sent was refused by the ACL.
    expect(await redis.admin('ACL', 'LOG')).toEqual([]);
  });

  it('stays away from a Redis whose certificate no CA it was given signed', async () => {
    const service = await startService({ REDIS_URL: redis.url });
    expect(await outageReason(service)).toMatch(/certificate/i);
    expect(await redisStateOf(service.url)).toEqual({ readiness: 'down', gauge: '0' });
    // And answers on its own meanwhile.
    expect(await readTotal(service)).toMatchObject({ data: { inventory: { totalCount: 240 } } });
  });

  it('stays away from a Redis that refuses its user or password', async () => {
    const service = await startService({ REDIS_URL: redis.url.replace(USER.password, 'wrong-password'), REDIS_TLS_CA_FILE: redis.caFile! });
    expect(await outageReason(service)).toMatch(/WRONGPASS/);
    expect(await redisStateOf(service.url)).toEqual({ readiness: 'down', gauge: '0' });
  });
});
