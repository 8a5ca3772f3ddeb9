/**
 * The estimate calls a resource free when it reads it fresh from the cache
 * (src/spend/estimate/resolve-known.ts); execution must then not send for it, even
 * when the entry expires or is evicted in between. On a loaded machine a
 * wide World Cup operation saw its game details expire between the two
 * (30 s TTL, stored together by an earlier run) and needed 17 counted
 * requests for an estimate of 11 (test/fuzz-payloads.test.ts). Here every
 * entry is evicted the moment the estimate has read it: the latest it can
 * go, and without waiting on a clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const query = '{ v1 { worldCup { matches { id detail { id } } } } }';

describe('execution answers with what the estimate read', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // The result cache would answer the second operation whole, before any estimate.
    stack = await startStack({ env: { RESULT_CACHE: 'false', GATEWAY_MAX_OPERATION_COST: '1000' } });
  });
  afterAll(() => stack.close());

  it('sends nothing for entries the estimate read fresh, though they are gone when execution reaches them', async () => {
    const cold = await gql(stack.gateway.url, query);
    expect(cold.errors, JSON.stringify(cold.errors)).toBeUndefined();

    const { cache } = stack.gateway.services.fetcher;
    const peek = cache.peek.bind(cache);
    let evicted = 0;
    cache.peek = async (key) => {
      const peeked = await peek(key);
      if (peeked !== undefined) evicted += cache.evict((candidate) => candidate === key);
      return peeked;
    };
    try {
      await resetCounts(stack.sandbox.url);
      const warm = await gql(stack.gateway.url, query);
      expect(warm.errors, JSON.stringify(warm.errors)).toBeUndefined();
      expect(warm.data).toEqual(cold.data);
      // The list and every match's detail were read by the estimate (and evicted).
      expect(evicted).toBeGreaterThan(1);
      expect((warm.extensions!['cost'] as { estimated: number }).estimated).toBe(0);
      expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
    } finally {
      cache.peek = peek;
    }
  });
});
