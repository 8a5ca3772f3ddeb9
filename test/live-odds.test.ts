/**
 * Live odds end to end: sandbox odds WebSocket (fast cadence) -> gateway hub
 * -> GraphQL subscriptions over graphql-ws and SSE.
 */
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { oddsControl } from '../sandbox/ws/control-client.js';
import { startStack, type TestStack } from './support/servers.js';
import { priceOf, replay, sortMarkets, type Change, type Snapshot as FeedSnapshot } from './support/odds-book.js';
import { Stream, subscribe as subscribeWith } from './support/odds-stream.js';

/** This file's snapshots also carry the feed's own times. */
interface Snapshot extends FeedSnapshot {
  timestamp: string;
  receivedAt: string;
}

const SNAPSHOTS = `subscription ($m: ID!) { oddsSnapshots(matchId: $m) {
  matchId timestamp timestampMs receivedAt stale feed markets { marketId suspended outcomes { name price } } } }`;
const CHANGES = `subscription ($m: ID!) { oddsChanges(matchId: $m) {
  kind marketId outcome previousPrice price afterReconnect market { marketId suspended outcomes { name price } } } }`;

const WATCHDOG_MS = 600;
const LINGER_MS = 200;

/** graphql-ws subscription to one match's feed (variable `m`). */
function subscribe<T>(
  client: Client,
  query: string,
  matchId: string,
  field: string,
): { stream: Stream<T>; stop: () => void } {
  return subscribeWith<T>(client, query, { m: matchId }, field);
}

/**
 * SSE as graphql-sse's "distinct connections" mode: a POST with
 * `accept: text/event-stream` (a JSON POST also satisfies the gateway's CSRF rule).
 */
function subscribeSse<T>(
  gatewayUrl: string,
  query: string,
  matchId: string,
  field: string,
): { stream: Stream<T>; stop: () => void } {
  const stream = new Stream<T>();
  const abort = new AbortController();
  void (async () => {
    const response = await fetch(`${gatewayUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query, variables: { m: matchId } }),
      signal: abort.signal,
    });
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = response.body!.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(event)?.[1];
        if (!/^event: next$/m.test(event) || data === undefined) continue;
        const payload = JSON.parse(data) as { data?: Record<string, T>; errors?: unknown };
        if (payload.errors !== undefined) stream.error = payload.errors;
        else stream.push(payload.data![field]!);
      }
    }
    stream.completed = true;
  })().catch((error: unknown) => {
    if (!abort.signal.aborted) stream.error = error;
  });
  return { stream, stop: () => abort.abort() };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

type OddsStats = Awaited<ReturnType<typeof oddsControl.stats>>;
let sandboxUrl = '';
/** Polls the sandbox's socket statistics until `done` holds (the test's own timeout bounds the wait). */
async function untilStats(done: (stats: OddsStats) => boolean): Promise<OddsStats> {
  for (;;) {
    const stats = await oddsControl.stats(sandboxUrl);
    if (done(stats)) return stats;
    await sleep(25);
  }
}

/** No change lost, invented or repeated: the first snapshot plus every change is the latest snapshot. */
function expectReplayReachesLatest(
  first: Snapshot,
  changes: { stream: Stream<Change> },
  snaps: { stream: Stream<Snapshot> },
): void {
  expect(replay(first.markets, changes.stream.values)).toEqual(sortMarkets(snaps.stream.values.at(-1)!.markets));
}

describe('live odds subscriptions', () => {
  let stack: TestStack;
  let wsUrl: string;
  const clients: Client[] = [];
  const newClient = (): Client => {
    const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
    clients.push(client);
    return client;
  };
  /** One client watching a match's snapshots and changes, once the first snapshot is in. */
  const watchFeed = async (match: string) => {
    const client = newClient();
    const snaps = subscribe<Snapshot>(client, SNAPSHOTS, match, 'oddsSnapshots');
    const changes = subscribe<Change>(client, CHANGES, match, 'oddsChanges');
    await snaps.stream.until((v) => v.length > 0);
    return { snaps, changes, first: snaps.stream.values[0]! };
  };

  beforeAll(async () => {
    stack = await startStack({
      sandbox: { oddsCadence: 'fast' },
      env: {
        ODDS_WATCHDOG_MS: String(WATCHDOG_MS),
        ODDS_LINGER_MS: String(LINGER_MS),
        ODDS_BACKOFF_INITIAL_MS: '50',
        ODDS_BACKOFF_MAX_MS: '400',
      },
    });
    wsUrl = `${stack.gateway.url.replace('http', 'ws')}/graphql`;
    sandboxUrl = stack.sandbox.url;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await stack.close();
  });

  it('100 subscribers on one match make exactly one upstream subscription; the last one leaving closes it', async () => {
    const match = '900100';
    const channel = `match:${match}:odds`;
    const subs: Array<{ stream: Stream<Snapshot>; stop: () => void }> = [];
    // 80 over graphql-ws (4 sockets: the gateway allows 25 per socket) and 20 over SSE.
    for (let socket = 0; socket < 4; socket++) {
      const client = newClient();
      for (let i = 0; i < 20; i++) subs.push(subscribe<Snapshot>(client, SNAPSHOTS, match, 'oddsSnapshots'));
    }
    for (let i = 0; i < 20; i++)
      subs.push(subscribeSse<Snapshot>(stack.gateway.url, SNAPSHOTS, match, 'oddsSnapshots'));
    try {
      await Promise.all(subs.map((sub) => sub.stream.until((values) => values.length > 0)));
      expect(subs).toHaveLength(100);
      for (const sub of subs)
        expect(sub.stream.values[0]).toMatchObject({ matchId: match, feed: 'LIVE', stale: false });

      // A latecomer gets the latest snapshot at once, with no upstream subscribe of its own.
      const late = subscribe<Snapshot>(newClient(), SNAPSHOTS, match, 'oddsSnapshots');
      await late.stream.until((values) => values.length > 0);
      subs.push(late);

      const during = await oddsControl.stats(stack.sandbox.url);
      expect(during.subscriptions[channel]).toBe(1);
      expect(during.subscribesByChannel[channel]).toBe(1);
    } finally {
      for (const sub of subs) sub.stop();
    }
    // Closed, but not before the linger: the last subscriber left after `leftAt`, and a busy machine only delays the
    // close and its observation, so the bound holds however slow the machine is.
    const leftAt = Date.now();
    const after = await untilStats((stats) => stats.subscriptions[channel] === undefined);
    expect(Date.now() - leftAt).toBeGreaterThanOrEqual(LINGER_MS);
    expect(after.subscribesByChannel[channel]).toBe(1);
  });

  it('a dropped upstream socket: subscribers stay, see stale then fresh, and the change made during the gap exactly once', async () => {
    const match = '900101';
    const { snaps, changes, first } = await watchFeed(match);
    const before = priceOf(first, 'match-result', 'Home')!;

    await oddsControl.drop(stack.sandbox.url, match, 300);
    await oddsControl.price(stack.sandbox.url, match, 'match-result', 'Home', before + 1);
    await snaps.stream.until((v) => v.some((s) => s.stale && s.feed === 'RECONNECTING'));
    await snaps.stream.until((v) => priceOf(v.at(-1), 'match-result', 'Home') === before + 1 && !v.at(-1)!.stale);
    await sleep(300); // room for a duplicate to show up, if there were one

    expect(changes.stream.values).toEqual([
      expect.objectContaining({
        kind: 'PRICE_MOVED',
        marketId: 'match-result',
        outcome: 'Home',
        previousPrice: before,
        price: before + 1,
        afterReconnect: true,
      }),
    ]);
    expect(snaps.stream.completed || changes.stream.completed).toBe(false);
    expectReplayReachesLatest(first, changes, snaps);
    const stats = await oddsControl.stats(stack.sandbox.url);
    expect(stats.subscriptions[`match:${match}:odds`]).toBe(1);
    expect(stats.subscribesByChannel[`match:${match}:odds`]).toBeGreaterThanOrEqual(2);
    snaps.stop();
    changes.stop();
  });

  it('a silent upstream socket past the watchdog is replaced; the change made in the silence arrives once', async () => {
    const match = '900102';
    const channel = `match:${match}:odds`;
    const { snaps, changes, first } = await watchFeed(match);
    // The fast cadence speaks at least every 200 ms: a 600 ms watchdog never fires on a healthy socket.
    await sleep(WATCHDOG_MS + 200);
    expect((await oddsControl.stats(stack.sandbox.url)).subscribesByChannel[channel]).toBe(1);

    await oddsControl.silence(stack.sandbox.url, match);
    await oddsControl.market(stack.sandbox.url, match, 'next-goal', 'suspend');
    const silencedAt = Date.now();
    await snaps.stream.until(
      (v) => v.at(-1)?.markets.find((m) => m.marketId === 'next-goal')?.suspended === true,
      5_000,
    );
    // The watchdog counts from the last frame, which came at most one quiet period (200 ms) before the silence.
    expect(Date.now() - silencedAt).toBeGreaterThanOrEqual(WATCHDOG_MS - 250);
    expect(snaps.stream.values.some((s) => s.stale)).toBe(true);
    await sleep(300);

    expect(changes.stream.values).toEqual([
      expect.objectContaining({ kind: 'SUSPENDED', marketId: 'next-goal', afterReconnect: true }),
    ]);
    expectReplayReachesLatest(first, changes, snaps);
    const stats = await oddsControl.stats(stack.sandbox.url);
    expect(stats.subscriptions[channel]).toBe(1);
    expect(stats.subscribesByChannel[channel]).toBe(2);
    expect(snaps.stream.completed || changes.stream.completed).toBe(false);
    snaps.stop();
    changes.stop();
  });

  it('a malformed frame makes the gateway resubscribe on the same socket; nothing is lost, invented or repeated', async () => {
    const match = '900103';
    const channel = `match:${match}:odds`;
    const { snaps, changes, first } = await watchFeed(match);
    const before = priceOf(first, 'both-teams-score', 'Yes')!;
    // Earlier tests' feeds have closed: the count below is this feed's alone.
    await untilStats((stats) => Object.keys(stats.subscriptions).every((open) => open === channel));
    const connectionsBefore = (await oddsControl.stats(stack.sandbox.url)).connections;

    await oddsControl.price(stack.sandbox.url, match, 'both-teams-score', 'Yes', before + 0.5);
    await oddsControl.malformed(stack.sandbox.url, match);
    await snaps.stream.until((v) => priceOf(v.at(-1), 'both-teams-score', 'Yes') === before + 0.5);
    await oddsControl.malformed(stack.sandbox.url, match);
    await sleep(400);

    expect(changes.stream.values).toEqual([
      expect.objectContaining({
        kind: 'PRICE_MOVED',
        marketId: 'both-teams-score',
        outcome: 'Yes',
        previousPrice: before,
        price: before + 0.5,
      }),
    ]);
    expectReplayReachesLatest(first, changes, snaps);
    const stats = await oddsControl.stats(stack.sandbox.url);
    expect(stats.connections).toBe(connectionsBefore);
    expect(stats.subscriptions[channel]).toBe(1);
    expect(stats.subscribesByChannel[channel]).toBe(3);
    snaps.stop();
    changes.stop();
  });

  it('derives opened, suspended, reopened, closed and price moves from consecutive snapshots', async () => {
    const match = '900104';
    const { snaps, changes, first } = await watchFeed(match);
    const url = stack.sandbox.url;
    const kinds = (): string[] => changes.stream.values.map((c) => `${c.kind} ${c.marketId}`);

    await oddsControl.market(url, match, 'total-goals-2.5', 'suspend');
    await changes.stream.until(() => kinds().includes('SUSPENDED total-goals-2.5'));
    await oddsControl.market(url, match, 'total-goals-2.5', 'reopen');
    await changes.stream.until(() => kinds().includes('REOPENED total-goals-2.5'));
    await oddsControl.market(url, match, 'next-goal', 'suspend');
    await changes.stream.until(() => kinds().includes('SUSPENDED next-goal'));
    await oddsControl.market(url, match, 'next-goal', 'close');
    await changes.stream.until(() => kinds().includes('CLOSED next-goal'));
    await oddsControl.market(url, match, 'next-goal', 'open');
    await changes.stream.until(() => kinds().includes('OPENED next-goal'));
    const eventSent = Date.now();
    await oddsControl.event(url, match);
    await changes.stream.until(() => kinds().filter((k) => k.startsWith('PRICE_MOVED')).length >= 10);
    expect(Date.now() - eventSent).toBeLessThan(1_000);
    await sleep(200);

    expect(kinds().slice(0, 5)).toEqual([
      'SUSPENDED total-goals-2.5',
      'REOPENED total-goals-2.5',
      'SUSPENDED next-goal',
      'CLOSED next-goal',
      'OPENED next-goal',
    ]);
    // A match event moves every price of every open market (4 markets, 10 outcomes).
    expect(kinds().slice(5)).toHaveLength(10);
    expectReplayReachesLatest(first, changes, snaps);
    snaps.stop();
    changes.stop();
  });

  it('rejects a match ID that cannot name a channel, with BAD_USER_INPUT and no upstream subscription', async () => {
    const before = await oddsControl.stats(stack.sandbox.url);
    const { stream } = subscribe<Snapshot>(newClient(), SNAPSHOTS, 'a:b', 'oddsSnapshots');
    await stream.until(() => stream.error !== undefined || stream.completed);
    expect(JSON.stringify(stream.error)).toContain('BAD_USER_INPUT');
    expect((await oddsControl.stats(stack.sandbox.url)).subscribes).toBe(before.subscribes);
  });
});
