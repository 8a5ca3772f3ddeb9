/**
 * Every counted request is charged to the client behind it when it is
 * reserved in the ledger (issue 35, item 2), not when its answer or the
 * last part arrives: a client that leaves a `@defer`/`@stream` answer
 * after the first part, or whose requests hang upstream past its
 * operation's deadline, still pays for every request that was sent.
 *
 * Checked once nothing is in flight: the client's budget fell by exactly
 * what the sandbox received (the ledger counted the same).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Ledger } from '../src/spend/ledger.js';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { clearFaults, gql, injectFault, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const KEY = 'payer-client-key-0001';
const as = { authorization: `Bearer ${KEY}` };
let nextAthlete = 0;
const freshAthletes = (n: number): string =>
  Array.from({ length: n }, () => `"${hockeyV1Ids.firstAthleteId + nextAthlete++}"`).join(', ');

/** Reservations the ledger holds for requests still in flight (single node: allowance left less what is free). */
const inFlight = (ledger: Ledger): number => ledger.snapshot().remaining - ledger.available();

/** Sends an incremental-delivery operation and leaves after the first part has arrived. */
async function leaveAfterFirstPart(url: string, query: string): Promise<void> {
  const abort = new AbortController();
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'multipart/mixed;deferSpec=20220824, application/json',
      ...as,
    },
    body: JSON.stringify({ query }),
    signal: abort.signal,
  });
  const reader = response.body!.getReader();
  await reader.read();
  abort.abort();
  await reader.cancel().catch(() => undefined);
}

describe('a client pays for each counted request when it is reserved', () => {
  let stack: TestStack;
  const budgetLeft = (): number | undefined => stack.gateway.services.spend.budgetRemaining('payer');
  const quiet = () =>
    vi.waitFor(() => expect(inFlight(stack.gateway.services.ledger)).toBe(0), { timeout: 20_000, interval: 50 });

  beforeAll(async () => {
    stack = await startStack({
      env: {
        GATEWAY_CLIENT_KEYS: `payer:${KEY}:5`,
        OPERATION_TIMEOUT_MS: '1500',
        UPSTREAM_HEADERS_TIMEOUT_MS: '1000',
      },
    });
  });
  afterAll(() => stack.close());

  it('@defer: ten operations of 4 athletes, each left after its first part: the budget falls by every request sent', async () => {
    await resetCounts(stack.sandbox.url);
    await injectFault(stack.sandbox.url, { route: 'GET /v1/hockey/athletes', kind: 'delay', latencyMs: 200 });
    const query = () =>
      `{ quota { used } ... @defer { v1 { hockey { athletes(ids: [${freshAthletes(4)}]) { name } } } } }`;
    await Promise.all(Array.from({ length: 10 }, () => leaveAfterFirstPart(stack.gateway.url, query())));
    await quiet();
    await clearFaults(stack.sandbox.url);
    const sent = (await requestCounts(stack.sandbox.url)).total;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(5);
    expect(budgetLeft()).toBe(5 - sent);
  });
});

describe('@stream and a hung upstream', () => {
  let stack: TestStack;
  const budgetLeft = (): number | undefined => stack.gateway.services.spend.budgetRemaining('payer');
  const quiet = () =>
    vi.waitFor(() => expect(inFlight(stack.gateway.services.ledger)).toBe(0), { timeout: 30_000, interval: 50 });

  beforeAll(async () => {
    stack = await startStack({
      env: {
        GATEWAY_CLIENT_KEYS: `payer:${KEY}:500`,
        OPERATION_TIMEOUT_MS: '1500',
        UPSTREAM_HEADERS_TIMEOUT_MS: '1000',
      },
    });
  });
  afterAll(() => stack.close());

  it('@stream: left after the first part, every athlete request sent is charged', async () => {
    await resetCounts(stack.sandbox.url);
    const before = budgetLeft() ?? 0;
    await injectFault(stack.sandbox.url, { route: 'GET /v1/hockey/athletes', kind: 'delay', latencyMs: 200 });
    const query = () =>
      `{ quota { used } v1 { hockey { athletes(ids: [${freshAthletes(4)}]) @stream(initialCount: 0) { name } } } }`;
    await Promise.all(Array.from({ length: 5 }, () => leaveAfterFirstPart(stack.gateway.url, query())));
    await quiet();
    await clearFaults(stack.sandbox.url);
    const sent = (await requestCounts(stack.sandbox.url)).total;
    expect(sent).toBeGreaterThan(0);
    expect(before - (budgetLeft() ?? 0)).toBe(sent);
  });

  it('60 concurrent operations against an upstream that never answers (more than the 16 pooled connections): each request sent is charged', async () => {
    await resetCounts(stack.sandbox.url);
    const before = budgetLeft() ?? 0;
    const usedBefore = stack.gateway.services.ledger.snapshot().used;
    await injectFault(stack.sandbox.url, { route: 'GET /v1/hockey/athletes', kind: 'hang' });
    const answers = await Promise.all(
      Array.from({ length: 60 }, () =>
        gql(stack.gateway.url, `{ v1 { hockey { athletes(ids: [${freshAthletes(1)}]) { name } } } }`, undefined, as),
      ),
    );
    expect(answers.every((answer) => (answer.errors?.length ?? 0) > 0)).toBe(true);
    await quiet();
    await clearFaults(stack.sandbox.url);
    const sent = (await requestCounts(stack.sandbox.url)).total;
    expect(sent).toBeGreaterThan(16);
    // What the ledger kept (a request cut while queued may count as sent: the ledger never counts less than reached the upstream) is what the client paid.
    const ledgered = stack.gateway.services.ledger.snapshot().used - usedBefore;
    expect(ledgered).toBeGreaterThanOrEqual(sent);
    expect(before - (budgetLeft() ?? 0)).toBe(ledgered);
  });
});
