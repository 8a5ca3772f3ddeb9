/**
 * The settle deadline (src/plugins/use-operation-timeout.ts): an execution
 * that has not settled `settleMs` after its operation started is answered
 * 504 OPERATION_TIMEOUT, logged once with its operation name, and the
 * gateway goes on answering.
 *
 * How an execution is made to hang, with real parts only: the sandbox's
 * `hang` fault (an upstream that never answers) on the one route the
 * operation needs, with the gateway's settle bound set below its upstream
 * deadline on the config object (loadConfig derives it as the deadline plus
 * a second and accepts nothing else). The execution is then really
 * pending, on a real upstream socket, when the net acts, as it would be
 * on a resolver promise that never settles; nothing in the gateway is
 * stubbed. A last case keeps the shipped relation and shows the net leaves
 * the upstream deadline's own, partial answer alone.
 */
import type { FormattedExecutionResult } from 'graphql-ws';
import { createClient } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Config } from '../src/config.js';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { clearFaults, gql, gqlAt, injectFault, requestCounts } from './support/client.js';
import { trackUnhandledRejections } from './support/fuzz.js';
import { startStack, type TestStack } from './support/servers.js';

const LINES = 'GET /v1/hockey/bets/lines';
/** The upstream deadline: the hung request is cut only then. */
const OPERATION_MS = 4_000;
/** The settle bound under test, well inside the upstream deadline. */
const SETTLE_MS = 400;

const STUCK = `query Stuck($game: ID!) { v1 { hockey { lines(gameId: $game) { gameId } } } }`;
const STANDINGS = `query Standings { v1 { hockey { standings { entries { position } } } } }`;

let gameOffset = 100;
const freshGame = (): string => {
  gameOffset += 1;
  return String(hockeyV1Ids.firstGameId + gameOffset);
};

const settleAt =
  (settleMs: number) =>
  (config: Config): Config => ({ ...config, timeouts: { ...config.timeouts, settleMs } });

describe('the settle deadline: an execution that never settles is answered OPERATION_TIMEOUT', () => {
  let stack: TestStack | undefined;
  const rejections = trackUnhandledRejections();

  /** A sandbox and a gateway; `settleMs` undefined keeps the bound loadConfig derives. */
  const start = async (env: Record<string, string>, settleMs: number | undefined): Promise<TestStack> => {
    stack = await startStack({
      // Neither the result cache nor a header timeout may answer first.
      env: { RESULT_CACHE: 'false', UPSTREAM_HEADERS_TIMEOUT_MS: '30000', ...env },
      ...(settleMs === undefined ? {} : { adjust: settleAt(settleMs) }),
    });
    return stack;
  };

  beforeAll(() => rejections.start());
  afterEach(async () => {
    await stack?.close();
    stack = undefined;
  });
  afterAll(() => {
    rejections.stop();
    expect(rejections.seen()).toEqual([]);
  });

  const timeoutLines = (logs: readonly string[]): Array<Record<string, unknown>> =>
    logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry['code'] === 'OPERATION_TIMEOUT');

  for (const jit of ['true', 'false']) {
    it(`answers 504 OPERATION_TIMEOUT at the bound, logs it once, and answers the next request (GRAPHQL_JIT=${jit})`, async () => {
      const { gateway, logs, sandbox } = await start(
        { OPERATION_TIMEOUT_MS: String(OPERATION_MS), GRAPHQL_JIT: jit },
        SETTLE_MS,
      );
      await injectFault(sandbox.url, { route: LINES, kind: 'hang' });

      const started = Date.now();
      const stuck = await gql(gateway.url, STUCK, { game: freshGame() });
      const elapsedMs = Date.now() - started;

      expect(stuck.status).toBe(504);
      expect(stuck.data).toBeUndefined();
      expect(stuck.errors).toHaveLength(1);
      expect(stuck.errors?.[0]?.extensions?.['code']).toBe('OPERATION_TIMEOUT');
      // The net answered, not the upstream deadline (which would have been a 200 with UPSTREAM_UNREACHABLE at `lines`).
      expect(elapsedMs).toBeGreaterThanOrEqual(SETTLE_MS);
      expect(elapsedMs).toBeLessThan(OPERATION_MS);
      // The request that hangs reached the upstream, once.
      expect((await requestCounts(sandbox.url)).byRoute[LINES]).toBe(1);

      const logged = timeoutLines(logs);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ operationName: 'Stuck', settleMs: SETTLE_MS });

      // The gateway goes on answering while the abandoned execution still waits on its upstream socket.
      await clearFaults(sandbox.url);
      const next = await gql<{ v1: { hockey: { standings: { entries: unknown[] } } } }>(gateway.url, STANDINGS);
      expect(next.status).toBe(200);
      expect(next.errors).toBeUndefined();
      expect(next.data?.v1.hockey.standings.entries).toHaveLength(32);
      // The hung request is in the allowance (counted before it was sent), with the standings' own request.
    });
  }

  it('drops the answer the abandoned execution gives at its upstream deadline, counts its request, and keeps answering', async () => {
    const { gateway, logs, sandbox } = await start({ OPERATION_TIMEOUT_MS: '1500' }, SETTLE_MS);
    await injectFault(sandbox.url, { route: LINES, kind: 'hang' });
    const stuck = await gql(gateway.url, STUCK, { game: freshGame() });
    expect(stuck.errors?.[0]?.extensions?.['code']).toBe('OPERATION_TIMEOUT');
    // Past the upstream deadline the abandoned execution cuts its request and settles (UPSTREAM_UNREACHABLE at `lines`),
    // after its answer was given: the request is counted as sent, with no status.
    await expect
      .poll(
        async () =>
          /sports_graph_upstream_requests_total\{[^}]*route="\/v1\/hockey\/bets\/lines",status="error"[^}]*\} 1\b/.test(
            await (await fetch(`${gateway.url}/metrics`)).text(),
          ),
        { timeout: 10_000, interval: 200 },
      )
      .toBe(true);
    await clearFaults(sandbox.url);
    const next = await gql(gateway.url, STANDINGS);
    expect(next.status).toBe(200);
    expect(next.errors).toBeUndefined();
    expect(timeoutLines(logs)).toHaveLength(1);
  });

  it('bounds /subgraph the same way', async () => {
    const { gateway, sandbox } = await start({ OPERATION_TIMEOUT_MS: String(OPERATION_MS) }, SETTLE_MS);
    await injectFault(sandbox.url, { route: LINES, kind: 'hang' });
    const stuck = await gqlAt(`${gateway.url}/subgraph`, STUCK, { game: freshGame() });
    expect(stuck.status).toBe(504);
    expect(stuck.errors?.[0]?.extensions?.['code']).toBe('OPERATION_TIMEOUT');
  });

  it('bounds a query over graphql-ws the same way, without HTTP details in the error', async () => {
    const { gateway, sandbox, logs } = await start({ OPERATION_TIMEOUT_MS: String(OPERATION_MS) }, SETTLE_MS);
    await injectFault(sandbox.url, { route: LINES, kind: 'hang' });
    const client = createClient({
      url: `${gateway.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    try {
      const result = await new Promise<FormattedExecutionResult>((resolve, reject) => {
        client.subscribe(
          { query: STUCK, operationName: 'Stuck', variables: { game: freshGame() } },
          { next: resolve, error: reject, complete: () => undefined },
        );
      });
      expect(result.data).toBeUndefined();
      expect(result.errors?.[0]?.extensions).toEqual({ code: 'OPERATION_TIMEOUT' });
    } finally {
      await client.dispose();
    }
    expect(timeoutLines(logs)).toEqual([expect.objectContaining({ operationName: 'Stuck' })]);
  });

  it("leaves normal operations alone: a quick one answers as before, a faulted one gets the upstream deadline's partial answer", async () => {
    // The shipped relation: the settle bound is the deadline plus a second.
    const { gateway, logs, sandbox } = await start({ OPERATION_TIMEOUT_MS: '800' }, undefined);
    const quick = await gql<{ v1: { hockey: { standings: { entries: unknown[] } } } }>(gateway.url, STANDINGS);
    expect(quick.status).toBe(200);
    expect(quick.errors).toBeUndefined();
    expect(quick.data?.v1.hockey.standings.entries).toHaveLength(32);

    await injectFault(sandbox.url, { route: LINES, kind: 'hang' });
    const partial = await gql<{ v1: { hockey: { standings: { entries: unknown[] }; lines: unknown } } }>(
      gateway.url,
      `query ($game: ID!) { v1 { hockey { standings { entries { position } } lines(gameId: $game) { gameId } } } }`,
      { game: freshGame() },
    );
    expect(partial.status).toBe(200);
    expect(partial.data?.v1.hockey.standings.entries).toHaveLength(32);
    expect(partial.data?.v1.hockey.lines).toBeNull();
    expect(partial.errors?.map((error) => error.extensions?.['code'])).toEqual(['UPSTREAM_UNREACHABLE']);
    expect(timeoutLines(logs)).toHaveLength(0);
  });
});
