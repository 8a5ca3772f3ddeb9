/**
 * The sandbox plays its live World Cup games (sandbox/live/): on a
 * manual clock, a game runs through half-time to full time, V1 and V2 tell
 * the same story and two sandboxes of the same seed play the same match; a
 * control route scripts goals, periods, the end and markets, shown at once
 * in REST and in odds; and every odds market carries a bookmaker's margin.
 */
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type {
  V1WorldCupGamePayload,
  V1WorldCupMatch,
  V1WorldCupMatchesPayload,
} from '../src/upstream/routes/v1-world-cup.js';
import type { V2Event } from '../src/upstream/routes/v2.js';
import { startSandbox, type SandboxHandle } from '../sandbox/server.js';
import { oddsControl } from '../sandbox/ws/control-client.js';
import { subscribe } from './support/odds-stream.js';
import type { Snapshot } from './support/odds-book.js';
import { startStack, type TestStack } from './support/servers.js';

const KEY = 'live-key';
const T0 = Date.UTC(2026, 5, 18, 18, 0);

async function upstream<T>(sandbox: SandboxHandle, path: string, key = KEY): Promise<T> {
  const response = await fetch(`${sandbox.url}${path}`, { headers: { 'x-api-key': key } });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

async function control(
  sandbox: SandboxHandle,
  id: string | number,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${sandbox.url}/__sandbox/matches/${id}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const liveIds = (sandbox: SandboxHandle): number[] =>
  sandbox.fixtures.worldCup.matches.filter((m) => m.state === 'live').map((m) => m.v1Id);

async function v1Game(sandbox: SandboxHandle, id: number, key?: string): Promise<V1WorldCupMatch> {
  const { matches } = await upstream<V1WorldCupMatchesPayload>(sandbox, '/api/v1/world-cup/matches', key);
  const game = matches.find((m) => m.id === id);
  if (game === undefined) throw new Error(`no game ${id}`);
  return game;
}

async function v2Event(sandbox: SandboxHandle, v1Id: number, key?: string): Promise<V2Event> {
  const fixture = sandbox.fixtures.worldCup.matchByV1Id.get(v1Id)!;
  const { events } = await upstream<{ events: V2Event[] }>(
    sandbox,
    `/v2/football/api/world-cup-2026/matches/round/${fixture.round}`,
    key,
  );
  return events.find((e) => e.id === fixture.v2Id)!;
}

/** Sum of 1 / price of each market: the book's implied probability. */
const overrounds = (snapshot: Snapshot): number[] =>
  snapshot.markets.map((market) => market.outcomes.reduce((sum, outcome) => sum + 1 / (outcome.price ?? Infinity), 0));

describe('live games on the sandbox clock', () => {
  it('stand still by default: the fixtures tests expect, whatever the clock says', async () => {
    let now = T0;
    const sandbox = await startSandbox({ apiKey: KEY, allowance: 1_000, clock: () => now });
    try {
      const before = await upstream<unknown>(sandbox, '/api/v1/world-cup/matches');
      now += 3_600_000;
      expect(await upstream<unknown>(sandbox, '/api/v1/world-cup/matches')).toEqual(before);
      expect(liveIds(sandbox).length).toBeGreaterThan(0);
    } finally {
      await sandbox.close();
    }
  });

  it('play through half-time to full time, alike in V1 and V2, and alike in two sandboxes of the same seed', async () => {
    let now = T0;
    const clock = (): number => now;
    const [a, b] = await Promise.all(
      [0, 1].map(() => startSandbox({ apiKey: KEY, allowance: 100_000, clock, matchMinuteMs: 1_000 })),
    );
    try {
      const ids = liveIds(a!);
      const seen = new Map<
        number,
        Array<{ statusGroup: number; statusText: string; minute: number | undefined; score: string; v2: string }>
      >();
      for (let step = 0; step <= 50; step++) {
        for (const id of ids) {
          const [game, event, twin] = await Promise.all([v1Game(a!, id), v2Event(a!, id), v1Game(b!, id)]);
          expect(twin).toEqual(game);
          const score = `${game.homeCompetitor.score}-${game.awayCompetitor.score}`;
          expect(`${event.homeScore?.current}-${event.awayScore?.current}`).toBe(score);
          const list = seen.get(id) ?? [];
          list.push({
            statusGroup: game.statusGroup,
            statusText: game.statusText,
            minute: game.gameTime,
            score,
            v2: `${event.status.type} ${event.status.description}`,
          });
          seen.set(id, list);
        }
        // Two minutes of play a step: half-time (five) is always seen.
        now += 2_000;
      }
      for (const [id, states] of seen) {
        const first = states[0]!;
        const last = states.at(-1)!;
        expect(first.statusGroup).toBe(3);
        expect(last).toMatchObject({ statusGroup: 4, statusText: 'Ended', v2: 'finished Ended' });
        const minutes = states.filter((s) => s.minute !== undefined).map((s) => s.minute!);
        expect(minutes).toEqual([...minutes].sort((x, y) => x - y));
        expect(new Set(minutes).size).toBeGreaterThan(5);
        // Every state V2 shows for a game in progress matches V1's.
        for (const state of states.filter((s) => s.statusGroup === 3)) {
          expect(state.v2).toBe(
            state.statusText === 'HT'
              ? 'inprogress Halftime'
              : state.minute! >= 45
                ? 'inprogress 2nd half'
                : 'inprogress 1st half',
          );
        }
        if (first.minute! < 45) expect(states.some((s) => s.statusText === 'HT')).toBe(true);
        // The final score is the goals in the game's events.
        const { game } = await upstream<V1WorldCupGamePayload>(a!, `/api/v1/world-cup/game/${id}`);
        const goals = (team: number): number =>
          game.events.filter((e) => e.type === 'goal' && e.competitorId === team).length;
        expect(last.score).toBe(`${goals(game.homeCompetitor.id)}-${goals(game.awayCompetitor.id)}`);
        expect(game.commentary.at(-1)?.text).toBe('Full time.');
      }
      // The tournament goes on: each game over, the next scheduled one kicks off.
      const { matches } = await upstream<V1WorldCupMatchesPayload>(a!, '/api/v1/world-cup/matches');
      const started = matches.filter((m) => !ids.includes(m.id) && m.roundNum === 2 && m.statusGroup !== 2);
      expect(started.length).toBe(ids.length);
      expect(started.every((m) => m.statusGroup === 3 || m.statusGroup === 4)).toBe(true);
    } finally {
      await Promise.all([a!.close(), b!.close()]);
    }
  });
});

describe('scripting a match', () => {
  let stack: TestStack;
  let client: Client;
  const frames: Snapshot[] = [];

  beforeAll(async () => {
    stack = await startStack({ sandbox: { oddsCadence: 'fast', allowance: 100_000 } });
    client = createClient({
      url: `${stack.gateway.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
  });
  afterAll(async () => {
    await client?.dispose();
    await stack?.close();
  });

  const SNAPSHOTS =
    'subscription ($m: ID!) { oddsSnapshots(matchId: $m) { matchId timestampMs stale feed markets { marketId suspended outcomes { name price } } } }';

  async function watch(matchId: string) {
    const sub = subscribe<Snapshot>(client, SNAPSHOTS, { m: matchId }, 'oddsSnapshots');
    await sub.stream.until((values) => values.length > 0);
    const seen = sub.stream.values;
    const latest = (): Snapshot => seen.at(-1)!;
    return { sub, latest, seen };
  }

  const price = (snapshot: Snapshot, market: string, outcome: string): number | null | undefined =>
    snapshot.markets.find((m) => m.marketId === market)?.outcomes.find((o) => o.name === outcome)?.price;

  it("a goal shows at once in V1 and V2 REST, and within a second shortens the scorer's price under both IDs", async () => {
    const sandbox = stack.sandbox;
    const id = liveIds(sandbox)[0]!;
    const fixture = sandbox.fixtures.worldCup.matchByV1Id.get(id)!;
    const [byV1, byV2] = await Promise.all([watch(String(id)), watch(String(fixture.v2Id))]);
    const before = await v1Game(sandbox, id, stack.apiKey);
    const homeBefore = price(byV1.latest(), 'match-result', 'Home')!;
    const awayBefore = price(byV1.latest(), 'match-result', 'Away')!;
    expect(price(byV2.latest(), 'match-result', 'Home')).toBe(homeBefore);

    const sent = Date.now();
    const answer = await control(sandbox, id, { type: 'goal', team: 'home' });
    expect(answer.status).toBe(200);
    expect(answer.body['match']).toMatchObject({
      score: { home: before.homeCompetitor.score! + 1, away: before.awayCompetitor.score },
    });

    const after = await v1Game(sandbox, id, stack.apiKey);
    expect(after.homeCompetitor.score).toBe(before.homeCompetitor.score! + 1);
    expect((await v2Event(sandbox, id, stack.apiKey)).homeScore?.current).toBe(after.homeCompetitor.score);

    for (const feed of [byV1, byV2]) {
      await feed.sub.stream.until(() => price(feed.latest(), 'match-result', 'Home')! < homeBefore, 5_000);
      expect(price(feed.latest(), 'match-result', 'Away')!).toBeGreaterThan(awayBefore);
    }
    expect(Date.now() - sent).toBeLessThan(1_000);
    frames.push(...byV1.seen, ...byV2.seen);
    byV1.sub.stop();
    byV2.sub.stop();
  });

  it('suspends, closes a market and ends the match: REST and odds agree; bad scripts get clear errors', async () => {
    const sandbox = stack.sandbox;
    const id = liveIds(sandbox)[1]!;
    const feed = await watch(String(id));

    expect((await control(sandbox, id, { type: 'suspend', market: 'next-goal' })).status).toBe(200);
    await feed.sub.stream.until(
      () => feed.latest().markets.find((m) => m.marketId === 'next-goal')?.suspended === true,
    );
    expect((await control(sandbox, id, { type: 'close', market: 'both-teams-score' })).status).toBe(200);
    await feed.sub.stream.until(() => !feed.latest().markets.some((m) => m.marketId === 'both-teams-score'));

    // A goal for each side, then full time: every market is settled and closed.
    await control(sandbox, id, { type: 'goal', team: 'away' });
    await control(sandbox, id, { type: 'goal', team: 'home' });
    const end = await control(sandbox, id, { type: 'end' });
    expect(end.status).toBe(200);
    expect(end.body['match']).toMatchObject({ phase: 'finished', minute: 90 });
    const game = await v1Game(sandbox, id, stack.apiKey);
    expect(game).toMatchObject({ statusGroup: 4, statusText: 'Ended' });
    expect((await v2Event(sandbox, id, stack.apiKey)).status).toMatchObject({ type: 'finished' });
    await feed.sub.stream.until(() => feed.latest().markets.length === 0);
    frames.push(...feed.seen);
    feed.sub.stop();

    expect(await control(sandbox, id, { type: 'goal', team: 'home' })).toMatchObject({
      status: 409,
      body: { error: expect.stringMatching(/finished/) },
    });
    expect(await control(sandbox, id, { type: 'goal' })).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/team/) },
    });
    expect(await control(sandbox, id, { type: 'penalty' })).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/type must be one of/) },
    });
    expect(await control(sandbox, id, { type: 'suspend' })).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/market/) },
    });
    expect(await control(sandbox, '1', { type: 'end' })).toMatchObject({ status: 404 });
    const broken = await fetch(`${sandbox.url}/__sandbox/matches/${id}/events`, { method: 'POST', body: '{"type":' });
    expect(broken.status).toBe(400);
  });

  it('kicks off a scheduled game and takes it to half-time', async () => {
    const sandbox = stack.sandbox;
    const scheduled = sandbox.fixtures.worldCup.matches.find((m) => m.state === 'scheduled' && m.home !== undefined)!;
    expect((await control(sandbox, scheduled.v1Id, { type: 'goal', team: 'home' })).status).toBe(409);
    expect((await control(sandbox, scheduled.v1Id, { type: 'period' })).body['match']).toMatchObject({
      phase: 'first-half',
      minute: 0,
      score: { home: 0, away: 0 },
    });
    expect(await v1Game(sandbox, scheduled.v1Id, stack.apiKey)).toMatchObject({
      statusGroup: 3,
      homeCompetitor: { score: 0 },
    });
    await control(sandbox, scheduled.v1Id, { type: 'period' });
    expect(await v1Game(sandbox, scheduled.v1Id, stack.apiKey)).toMatchObject({
      statusGroup: 3,
      statusText: 'HT',
      gameTime: 45,
    });
    expect((await v2Event(sandbox, scheduled.v1Id, stack.apiKey)).status).toMatchObject({
      code: 31,
      type: 'inprogress',
    });
  });

  it("every market of every frame carries a bookmaker's margin: implied probabilities between 103 % and 108 %", async () => {
    const sandbox = stack.sandbox;
    const id = liveIds(sandbox)[2]!;
    const feed = await watch(String(id));
    const other = await watch('910777');
    for (let i = 0; i < 4; i++) {
      await control(sandbox, id, { type: 'goal', team: i % 2 === 0 ? 'home' : 'away' });
      await oddsControl.event(sandbox.url, id.toString());
      await oddsControl.event(sandbox.url, '910777');
    }
    await control(sandbox, id, { type: 'period' });
    await feed.sub.stream.until(() => feed.seen.length >= 6);
    await other.sub.stream.until(() => other.seen.length >= 4);
    frames.push(...feed.seen, ...other.seen);
    expect(frames.length).toBeGreaterThan(15);
    for (const frame of frames) {
      for (const overround of overrounds(frame)) {
        expect(overround).toBeGreaterThanOrEqual(1.03);
        expect(overround).toBeLessThanOrEqual(1.08);
      }
    }
    feed.sub.stop();
    other.sub.stop();
  });
});
