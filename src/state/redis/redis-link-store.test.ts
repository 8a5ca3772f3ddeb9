/**
 * The replica's copy in front of the Redis hash of learned counterparts, on
 * a real redis-server: bounded, and Redis still answers for what it let go.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RedisServer } from '../../../test/support/redis-server.js';
import type { Finding } from '../../identity/entity-ref.js';
import { RedisLink } from './redis-link.js';
import { RedisLinkStore } from './redis-link-store.js';

const logger = pino({ level: 'silent' });

const finding = (nativeId: string): Finding => ({
  learnedAt: 1,
  counterparts: [
    {
      version: 'v2',
      sport: 'FOOTBALL',
      kind: 'team',
      nativeId,
      name: null,
      confidence: 1,
      evidence: 'OPERATOR',
      status: 'MATCH',
    },
  ],
});

describe('RedisLinkStore', () => {
  let redis: RedisServer;
  let link: RedisLink;

  beforeAll(async () => {
    redis = await startRedis();
    link = await RedisLink.open({
      url: redis.url,
      keyPrefix: 'link-store-test:',
      replicaId: 'r1',
      logger,
      heartbeatMs: 600_000,
    });
  });
  afterAll(async () => {
    await link?.close();
    await redis?.stop();
  });

  it("keeps only the most recent findings in the replica's copy, and reads the rest from Redis", async () => {
    const store = new RedisLinkStore(link, logger, 2);
    await store.put('a', finding('1'));
    await store.put('b', finding('2'));
    await store.put('c', finding('3'));
    // Removed from Redis behind the store's back: only the replica's copy can still answer them.
    await link.command.hdel(link.key('counterparts'), 'a', 'c');
    expect(await store.get('c')).toEqual(finding('3'));
    // 'a' was let go when 'c' came: the store asked Redis, which no longer has it.
    expect(await store.get('a')).toBeUndefined();
    // 'd' lets 'b' go (the copy holds 'c' and 'd'): Redis, which still has it, answers.
    await store.put('d', finding('4'));
    expect(await store.get('b')).toEqual(finding('2'));
  });
});
