import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { AcceptedCredentials } from '../../src/partner/accepted-credentials.js';

describe('AcceptedCredentials', () => {
  it('knows only the digests the partner accepted', () => {
    const accepted = new AcceptedCredentials();
    accepted.accept('a');
    expect(accepted.has('a')).toBe(true);
    expect(accepted.has('b')).toBe(false);
  });

  it('forgets the digest accepted longest ago when full, a fresh acceptance keeping one', () => {
    const accepted = new AcceptedCredentials({ maxEntries: 2 });
    accepted.accept('a');
    accepted.accept('b');
    accepted.accept('a');
    accepted.accept('c');
    expect([accepted.has('a'), accepted.has('b'), accepted.has('c')]).toEqual([true, false, true]);
  });

  it('lets an acceptance lapse after its time to live', async () => {
    const accepted = new AcceptedCredentials({ ttlMs: 5 });
    accepted.accept('a');
    await sleep(50);
    expect(accepted.has('a')).toBe(false);
  });
});
