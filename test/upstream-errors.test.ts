/**
 * The DESIGN.md error table, row by row, triggered through sandbox faults:
 * each failure arrives as a field error with its code while the rest of the
 * operation resolves.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { clearFaults, gql, injectFault, requestCounts, resetCounts, type Fault } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const LINES = 'GET /v1/hockey/bets/lines';
let gameOffset = 0;

/** standings (healthy) + lines of a fresh game (faulted): partial data. */
async function partial(stack: TestStack) {
  gameOffset += 1;
  const game = String(hockeyV1Ids.firstGameId + gameOffset);
  const started = Date.now();
  const result = await gql<{ v1: { hockey: { standings: { entries: unknown[] }; lines: unknown } } }>(
    stack.gateway.url,
    `query ($game: ID!) { v1 { hockey { standings { entries { position } } lines(gameId: $game) { gameId } } } }`,
    { game },
  );
  return { result, elapsedMs: Date.now() - started };
}

describe('upstream errors -> coded field errors, with partial data', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: { OPERATION_TIMEOUT_MS: '3000', UPSTREAM_HEADERS_TIMEOUT_MS: '2000' } });
  });
  afterAll(() => stack.close());
  beforeEach(async () => {
    await clearFaults(stack.sandbox.url);
    await resetCounts(stack.sandbox.url);
    // A fresh gateway per test: no cache, no route cooldown, no spent allowance left by the test before.
    await stack.stopGateway();
    await stack.restartGateway({}, { freshData: true });
  });

  const rows: Array<{ name: string; fault: Omit<Fault, 'route'>; code: string; extensions?: Record<string, unknown> }> =
    [
      {
        name: '404',
        fault: { status: 404, body: { error: 'Game not found' } },
        code: 'NOT_FOUND',
        extensions: { version: 'v1', route: '/v1/hockey/bets/lines' },
      },
      { name: '400', fault: { status: 400 }, code: 'BAD_USER_INPUT' },
      {
        name: '501',
        fault: { status: 501, body: { error: 'Not implemented', alternative: '/match/{matchId}' } },
        code: 'NOT_SUPPORTED',
        extensions: { alternative: '/match/{matchId}' },
      },
      {
        name: '502 with Retry-After past the deadline',
        fault: { status: 502, headers: { 'retry-after': '60' } },
        code: 'UPSTREAM_UNAVAILABLE',
        extensions: { retryAfter: 60 },
      },
      { name: '504', fault: { status: 504 }, code: 'UPSTREAM_TIMEOUT' },
      { name: '401', fault: { status: 401 }, code: 'UPSTREAM_AUTH' },
      { name: '403', fault: { status: 403 }, code: 'UPSTREAM_AUTH' },
      { name: '429', fault: { status: 429, headers: { 'retry-after': '3600' } }, code: 'QUOTA_EXHAUSTED' },
      { name: 'reset mid-body', fault: { kind: 'reset' }, code: 'UPSTREAM_UNREACHABLE' },
      { name: 'headers never sent', fault: { kind: 'hang' }, code: 'UPSTREAM_UNREACHABLE' },
      { name: 'malformed JSON', fault: { kind: 'malformed' }, code: 'UPSTREAM_INVALID_RESPONSE' },
    ];

  for (const row of rows) {
    it(`${row.name} -> ${row.code}`, async () => {
      await injectFault(stack.sandbox.url, { route: LINES, ...row.fault });
      const { result, elapsedMs } = await partial(stack);
      expect(result.data?.v1.hockey.standings.entries).toHaveLength(32);
      expect(result.data?.v1.hockey.lines).toBeNull();
      expect(result.errors).toHaveLength(1);
      const error = result.errors![0]!;
      expect(error.path).toEqual(['v1', 'hockey', 'lines']);
      expect(error.extensions).toMatchObject({ code: row.code, ...row.extensions });
      // Upstream text is never copied into an error.
      expect(result.text).not.toContain('Bad gateway: upstream provider failed');
      expect(elapsedMs).toBeLessThan(5_000);
    });
  }

  it('429 also carries resetsAt', async () => {
    await injectFault(stack.sandbox.url, { route: LINES, status: 429, headers: { 'retry-after': '120' } });
    const { result } = await partial(stack);
    const resetsAt = Date.parse(String(result.errors?.[0]?.extensions?.['resetsAt']));
    expect(resetsAt - Date.now()).toBeGreaterThan(100_000);
    expect(resetsAt - Date.now()).toBeLessThan(125_000);
    // Whole seconds: Retry-After counts seconds, the gateway's clock adds no milliseconds of its own.
    expect(resetsAt % 1_000).toBe(0);
  });

  it('a 502 with a Retry-After that fits the deadline is retried once, and succeeds', async () => {
    await injectFault(stack.sandbox.url, { route: LINES, status: 502, headers: { 'retry-after': '1' }, times: 1 });
    const { result, elapsedMs } = await partial(stack);
    expect(result.errors).toBeUndefined();
    expect(result.data?.v1.hockey.lines).not.toBeNull();
    expect(elapsedMs).toBeGreaterThanOrEqual(900);
    expect((await requestCounts(stack.sandbox.url)).byRoute[LINES]).toBe(2);
  });

  it('a 502 retried once only: two 502s in a row are an error after exactly two requests', async () => {
    await injectFault(stack.sandbox.url, { route: LINES, status: 502, headers: { 'retry-after': '1' }, times: 2 });
    const { result } = await partial(stack);
    expect(result.errors?.[0]?.extensions?.['code']).toBe('UPSTREAM_UNAVAILABLE');
    expect((await requestCounts(stack.sandbox.url)).byRoute[LINES]).toBe(2);
  });

  it('after a 502 with Retry-After, the route is not asked again before it passes', async () => {
    await injectFault(stack.sandbox.url, { route: LINES, status: 502, headers: { 'retry-after': '30' }, times: 1 });
    const first = await partial(stack);
    expect(first.result.errors?.[0]?.extensions?.['code']).toBe('UPSTREAM_UNAVAILABLE');
    const second = await partial(stack);
    expect(second.result.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(Number(second.result.errors?.[0]?.extensions?.['retryAfter'])).toBeLessThanOrEqual(30);
    expect((await requestCounts(stack.sandbox.url)).byRoute[LINES]).toBe(1);
  });

  it('404 and 501 are never retried', async () => {
    await injectFault(stack.sandbox.url, { route: LINES, status: 404 });
    await partial(stack);
    await injectFault(stack.sandbox.url, { route: LINES, status: 501 });
    await partial(stack);
    expect((await requestCounts(stack.sandbox.url)).byRoute[LINES]).toBe(2);
  });

  it('a real unknown game is NOT_FOUND, and is not paid for twice', async () => {
    const query = `{ v1 { hockey { lines(gameId: 999999) { gameId } } } }`;
    const first = await gql(stack.gateway.url, query);
    expect(first.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', version: 'v1' });
    await gql(stack.gateway.url, query);
    expect((await requestCounts(stack.sandbox.url)).byRoute[LINES]).toBe(1);
  });

  it('connection refused -> UPSTREAM_UNREACHABLE, other fields unaffected', async () => {
    const closed = await startStack();
    await closed.sandbox.close();
    try {
      const result = await gql(
        closed.gateway.url,
        `{ quota { plan } v1 { hockey { standings { entries { position } } } } }`,
      );
      expect(result.data?.['quota']).toEqual({ plan: 'PRO' });
      expect(result.errors?.[0]?.extensions?.['code']).toBe('UPSTREAM_UNREACHABLE');
    } finally {
      await closed.close();
    }
  });
});
