/**
 * Who a replica counts when Redis goes away, on a real redis-server: a peer
 * that joins is heard of at once (not at the next beat), one that leaves
 * cleanly is forgotten at once, and one that lapsed past the member TTL is
 * still counted for the degraded shares. Each link here beats rarely, so a
 * notice, not a beat, is what each test waits for.
 */
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RedisServer } from '../../../test/support/redis-server.js';
import { DegradedShare } from './degraded-share.js';
import { RecentMembers } from './recent-members.js';
import { RedisLink, type RedisLinkOptions } from './redis-link.js';

const logger = pino({ level: 'silent' });
/** Far longer than any wait below: a beat can't be what a test saw. */
const RARELY = 600_000;

/** Polls `read` until `accept` holds or 5 s pass; returns the last value. */
async function eventually<T>(read: () => T, accept: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('cluster membership on Redis', () => {
  let redis: RedisServer;
  let prefixes = 0;
  let links: RedisLink[] = [];

  const open = async (
    replicaId: string,
    prefix: string,
    options: Partial<RedisLinkOptions> = {},
  ): Promise<RedisLink> => {
    const link = await RedisLink.open({
      url: redis.url,
      keyPrefix: prefix,
      replicaId,
      logger,
      heartbeatMs: RARELY,
      ...options,
    });
    links.push(link);
    return link;
  };
  const nextPrefix = (): string => {
    prefixes += 1;
    return `members-test-${prefixes}:`;
  };

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    for (const link of links) await link.close();
    links = [];
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('a replica hears of a peer that joined after its last beat at once', async () => {
    const prefix = nextPrefix();
    const a = await open('a', prefix);
    expect(a.members).toEqual(['a']);
    await open('b', prefix);
    expect(
      await eventually(
        () => [...a.members],
        (members) => members.length === 2,
      ),
    ).toEqual(['a', 'b']);
    expect(a.recentMembers).toEqual(['a', 'b']);
  });

  it('a peer that leaves cleanly is no longer counted', async () => {
    const prefix = nextPrefix();
    const a = await open('a', prefix);
    const b = await open('b', prefix);
    expect(
      await eventually(
        () => a.recentMembers,
        (members) => members.length === 2,
      ),
    ).toEqual(['a', 'b']);
    await b.close();
    expect(
      await eventually(
        () => a.recentMembers,
        (members) => members.length === 1,
      ),
    ).toEqual(['a']);
    expect(a.members).toEqual(['a']);
  });

  it('a peer that lapsed past the member TTL is still counted for the shares, though no longer a member', async () => {
    const prefix = nextPrefix();
    // `a` beats often and sees `b` lapse; `b` beats once, when it opens, then is silent (as a stopped process is).
    const a = await open('a', prefix, { heartbeatMs: 50, memberTtlMs: 300 });
    await open('b', prefix, { memberTtlMs: 300 });
    await eventually(
      () => [...a.members],
      (members) => members.length === 2,
    );
    expect(
      await eventually(
        () => [...a.members],
        (members) => members.length === 1,
      ),
    ).toEqual(['a']);
    expect(a.recentMembers).toEqual(['a', 'b']);
  });
});

describe('recent members', () => {
  it('counts nobody before any list was seen, then itself, every replica seen within the window, in any order of sightings, and forgets one that left', () => {
    let now = 0;
    const recent = new RecentMembers({ self: 'a', rememberMs: 1_000, now: () => now });
    // No member list seen yet: the cluster is unknown, and a share of it is 0.
    expect(recent.list()).toEqual([]);
    expect(new DegradedShare(60, recent.count).size).toBe(0);
    recent.saw(['c', 'a']);
    now = 400;
    recent.saw(['b']);
    expect(recent.count).toBe(3);
    expect(new DegradedShare(60, recent.count).size).toBe(20);
    now = 1_000;
    expect(recent.list()).toEqual(['a', 'b', 'c']);
    now = 1_001;
    expect(recent.list()).toEqual(['a', 'b']);
    recent.left('b');
    expect(recent.list()).toEqual(['a']);
    expect(new DegradedShare(60, recent.count).size).toBe(60);
    recent.saw(['b']);
    recent.left('a');
    expect(recent.list()).toEqual(['a', 'b']);
  });
});
