/**
 * Issue 8, item 4: every HTTP-level upstream fault, one test each, with the
 * same four checks (test/support/faults.ts): the right code within the
 * operation deadline, other operations unaffected, recovery when the fault
 * clears, and the API key nowhere in the output.
 *
 * Deadlines are short so the file stays fast: a 1.5 s operation deadline, and
 * header/body timeouts longer than it, so that what bounds a hang or a
 * trickle is the deadline itself.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { startSandbox } from '../sandbox/server.js';
import { clearFaults, injectFault, requestCounts, resetCounts, type Fault } from './support/client.js';
import {
  expectKeyNowhere,
  runFaultScenario,
  send,
  sleep,
  type FaultScenario,
  type Operation,
} from './support/faults.js';
import { startStack, type TestStack } from './support/servers.js';
import { freePort } from '../src/net/free-port.js';

const DEADLINE_MS = 1_500;
const LINES = 'GET /v1/hockey/bets/lines';
const CYCLING = 'GET /api/v1/cycling/today';
const API_KEY = 'faults-key-7c41d2e9';

/** Standings (never faulted) and the lines of one game (faulted). */
const linesAndStandings = (game: number): Operation => ({
  query: `query ($game: ID!) { v1 { hockey { standings { entries { position } } lines(gameId: $game) { gameId } } } }`,
  variables: { game: String(game) },
});

/** Sent alongside the faulted operation: other routes must not notice. */
const bystander: Operation = { query: `{ quota { plan } v1 { hockey { news(limit: 3) { articles { title } } } } }` };

describe('upstream faults: coded, bounded, contained, recovered, no key', () => {
  let stack: TestStack;
  let cyclingPort: number;
  let game = hockeyV1Ids.firstGameId;

  beforeAll(async () => {
    cyclingPort = await freePort();
    stack = await startStack({
      sandbox: { apiKey: API_KEY },
      env: {
        OPERATION_TIMEOUT_MS: String(DEADLINE_MS),
        UPSTREAM_HEADERS_TIMEOUT_MS: '5000',
        UPSTREAM_BODY_TIMEOUT_MS: '5000',
        // V3 cycling lives on its own base address (spec 4.9): nothing listens there until a test starts it.
        SPORTS_API_V3_CYCLING_BASE_URL: `http://127.0.0.1:${cyclingPort}`,
      },
    });
  });
  afterAll(() => stack.close());
  beforeEach(async () => {
    await clearFaults(stack.sandbox.url);
    await resetCounts(stack.sandbox.url);
    // A fresh gateway per test: no cache, cooldown or connection left by the test before.
    await stack.stopGateway();
    await stack.restartGateway({}, { freshData: true });
    game += 1;
  });

  /** The common scenario: `fault` on the lines route, standings beside it. */
  function onLines(fault: Omit<Fault, 'route'>, code: string, extra: Partial<FaultScenario> = {}): FaultScenario {
    return {
      inject: () => injectFault(stack.sandbox.url, { route: LINES, ...fault }),
      operation: linesAndStandings(game),
      faultedPath: 'v1.hockey.lines',
      healthyPath: 'v1.hockey.standings',
      code,
      deadlineMs: DEADLINE_MS,
      bystander,
      clear: () => clearFaults(stack.sandbox.url),
      ...extra,
    };
  }

  it('502 with Retry-After: UPSTREAM_UNAVAILABLE, no request to the route before Retry-After passes, then recovery', async () => {
    let second: Awaited<ReturnType<typeof send>> | undefined;
    const { recovered } = await runFaultScenario(
      stack,
      onLines({ status: 502, headers: { 'retry-after': '2' }, times: 1 }, 'UPSTREAM_UNAVAILABLE', {
        // A 2 s wait does not fit the 1.5 s deadline, so it is not retried within the operation.
        extensions: { retryAfter: 2, status: 502 },
        clear: async () => {
          // The fault is spent, yet the route stays cooled down: answered locally, no request.
          second = await send(stack, linesAndStandings(game));
          expect((await requestCounts(stack.sandbox.url)).byRoute[LINES]).toBe(1);
          await sleep(2_100);
        },
      }),
    );
    expect(second?.value.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(Number(second?.value.errors?.[0]?.extensions?.['retryAfter'])).toBeLessThanOrEqual(2);
    expect(second?.elapsedMs).toBeLessThan(500);
    expect(recovered.value.errors).toBeUndefined();
    expect((await requestCounts(stack.sandbox.url)).byRoute[LINES]).toBe(2);
  });

  it('504 upstream_timeout: UPSTREAM_TIMEOUT', async () => {
    await runFaultScenario(stack, onLines({ status: 504 }, 'UPSTREAM_TIMEOUT', { extensions: { status: 504 } }));
  });

  it('connection refused: UPSTREAM_UNREACHABLE, and the next request goes through once something listens', async () => {
    const cycling: Operation = {
      query: `{ v1 { hockey { standings { entries { position } } } } v3 { cycling(window: TODAY) { window general { name } } } }`,
    };
    let second: Awaited<ReturnType<typeof startSandbox>> | undefined;
    try {
      await runFaultScenario(stack, {
        inject: async () => undefined,
        operation: cycling,
        faultedPath: 'v3.cycling',
        healthyPath: 'v1.hockey.standings',
        code: 'UPSTREAM_UNREACHABLE',
        deadlineMs: DEADLINE_MS,
        bystander,
        clear: async () => {
          second = await startSandbox({ port: cyclingPort, apiKey: API_KEY, allowance: 7_500 });
        },
      });
      expect((await requestCounts(second!.url)).byRoute[CYCLING]).toBe(1);
    } finally {
      await second?.close();
    }
  });

  it('reset mid-body: UPSTREAM_UNREACHABLE', async () => {
    await runFaultScenario(stack, onLines({ kind: 'reset' }, 'UPSTREAM_UNREACHABLE'));
  });

  it('headers never sent: UPSTREAM_UNREACHABLE by the deadline, the other routes answered meanwhile', async () => {
    const { bystander: other, faulted } = await runFaultScenario(
      stack,
      onLines({ kind: 'hang' }, 'UPSTREAM_UNREACHABLE'),
    );
    expect(faulted.elapsedMs).toBeGreaterThanOrEqual(DEADLINE_MS - 100);
    expect(other.elapsedMs).toBeLessThan(DEADLINE_MS / 2);
  });

  it('a body trickled a byte a second: cut at the operation deadline, though no byte gap reaches the body timeout', async () => {
    const { faulted } = await runFaultScenario(stack, onLines({ kind: 'trickle' }, 'UPSTREAM_UNREACHABLE'));
    expect(faulted.elapsedMs).toBeGreaterThanOrEqual(DEADLINE_MS - 100);
  });

  it('malformed JSON: UPSTREAM_INVALID_RESPONSE', async () => {
    await runFaultScenario(stack, onLines({ kind: 'malformed' }, 'UPSTREAM_INVALID_RESPONSE'));
  });

  it('a 50 MB body: refused past the maximum response size, not buffered whole', async () => {
    const { faulted } = await runFaultScenario(stack, onLines({ kind: 'huge' }, 'UPSTREAM_INVALID_RESPONSE'));
    // Cut by the size bound while streaming (UPSTREAM_MAX_BODY_BYTES, 10 MiB), not by the deadline or by a parse of the whole body.
    expect(faulted.value.errors?.[0]?.message).toMatch(/larger than the gateway accepts/);
  });

  it('the upstream closing idle keep-alive sockets: the request that met a closed socket is resent once, no error', async () => {
    // Warm one keep-alive connection, then make the next request on it meet a closed socket.
    expect(
      (await send(stack, { query: `{ v1 { hockey { news(limit: 1) { articles { title } } } } }` })).value.errors,
    ).toBeUndefined();
    await injectFault(stack.sandbox.url, { route: LINES, kind: 'close-reused', times: 1 });
    const lines: Operation = {
      query: `query ($game: ID!) { v1 { hockey { lines(gameId: $game) { gameId } } } }`,
      variables: { game: String(game) },
    };
    const usedBefore = stack.gateway.services.ledger.snapshot().used;
    const first = await send(stack, lines);
    expect(first.value.errors).toBeUndefined();
    expect(first.value.data).toMatchObject({ v1: { hockey: { lines: { gameId: String(game) } } } });
    expect(first.elapsedMs).toBeLessThan(DEADLINE_MS);
    // The closed socket saw the request once, the fresh connection once more.
    expect((await requestCounts(stack.sandbox.url)).byRoute[LINES]).toBe(2);
    // ...and spent one unit of the allowance: the closed socket answered nothing.
    expect(stack.gateway.services.ledger.snapshot().used - usedBefore).toBe(1);

    // An upstream that says `connection: close` and closes: the next request opens a new connection.
    await injectFault(stack.sandbox.url, { route: 'GET /v1/hockey/standings', kind: 'drop-idle', times: 1 });
    const closing = await send(stack, linesAndStandings(game + 20));
    const after = await send(stack, linesAndStandings(game + 30));
    const other = await send(stack, bystander);
    expect(closing.value.errors).toBeUndefined();
    expect(after.value.errors).toBeUndefined();
    expect(other.value.errors).toBeUndefined();
    await expectKeyNowhere(stack, [first.value.text, closing.value.text, after.value.text, other.value.text]);
  });
});
