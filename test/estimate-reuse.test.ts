/**
 * Estimates reused for the same document and variables while nothing
 * cached changed (src/spend/estimate/estimate-memo.ts, issue 16): the reuse shows in
 * `sports_graph_estimate_reuses_total`, and the estimate a client sees in
 * `extensions.cost.estimated` is the one a fresh walk would give. The result
 * cache is off, so that every operation reaches the estimate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const news =
  'query ($competition: ID!) { v1 { hockey { news(competitionId: $competition, limit: 5) { articles { title } } } } }';

async function reuses(gatewayUrl: string): Promise<number> {
  const text = await (await fetch(`${gatewayUrl}/metrics`)).text();
  // One series, labelled with the replica.
  const line = text.split('\n').find((candidate) => candidate.startsWith('sports_graph_estimate_reuses_total'));
  if (line === undefined) throw new Error('no sports_graph_estimate_reuses_total on /metrics');
  return Number(line.split(' ').at(-1));
}

async function estimated(stack: TestStack, competition: number): Promise<{ estimated: number; upstream: number }> {
  await resetCounts(stack.sandbox.url);
  const result = await gql(stack.gateway.url, news, { competition });
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  const cost = result.extensions?.['cost'] as { estimated: number };
  return { estimated: cost.estimated, upstream: (await requestCounts(stack.sandbox.url)).total };
}

describe('estimate reuse', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: { RESULT_CACHE: 'false' } });
  });
  afterAll(() => stack.close());

  it('walks again after the cache changed, reuses while it did not, and never across variables', async () => {
    const before = await reuses(stack.gateway.url);
    // Cold: one counted request, estimated as one.
    expect(await estimated(stack, 303)).toEqual({ estimated: 1, upstream: 1 });
    // Its execution stored the answer: an estimate kept from the first walk would still say 1.
    expect(await estimated(stack, 303)).toEqual({ estimated: 0, upstream: 0 });
    expect(await reuses(stack.gateway.url)).toBe(before);
    // Nothing changed since the second walk: this one is reused.
    expect(await estimated(stack, 303)).toEqual({ estimated: 0, upstream: 0 });
    expect(await reuses(stack.gateway.url)).toBe(before + 1);
    // Other variables: their own walk, over a resource not cached.
    expect(await estimated(stack, 304)).toEqual({ estimated: 1, upstream: 1 });
    expect(await reuses(stack.gateway.url)).toBe(before + 1);
  });
});
