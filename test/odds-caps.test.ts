/**
 * Bounded upstream odds sockets (issue 12): match IDs are checked for what
 * the odds channel carries before any upstream subscription, a client opens
 * at most ODDS_MAX_FEEDS_PER_CLIENT feeds and the gateway at most
 * ODDS_MAX_FEEDS, a cap hit is a coded ODDS_FEED_LIMIT with nothing opened,
 * and joining a feed already open is never refused. Upstream subscriptions
 * are counted from the sandbox's `GET /__sandbox/ws`.
 */
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { oddsControl } from '../sandbox/ws/control-client.js';
import { startStack, type TestStack } from './support/servers.js';
import { subscribe, type Stream } from './support/odds-stream.js';

const SNAPSHOTS = 'subscription ($m: ID!) { oddsSnapshots(matchId: $m) { matchId feed } }';
const CHANGES = 'subscription ($m: ID!) { oddsChanges(matchId: $m) { kind } }';
const KEY_A = 'odds-client-a-key-01';
const KEY_B = 'odds-client-b-key-02';
const KEY_C = 'odds-client-c-key-03';
const LINGER_MS = 100;

interface Snapshot {
  matchId: string;
  feed: string;
}
type Sub = { stream: Stream<Snapshot>; stop: () => void };

/** Settled: a first snapshot, or the subscription's errors. */
const settled = (sub: Sub): Promise<void> =>
  sub.stream.until(() => sub.stream.values.length > 0 || sub.stream.error !== undefined || sub.stream.completed);
const codeOf = (sub: Sub): unknown =>
  (sub.stream.error as Array<{ extensions?: Record<string, unknown> }> | undefined)?.[0]?.extensions;

/** Total subscribe messages the upstream received, and the channels it holds open now. */
async function upstream(stack: TestStack): Promise<{ subscribes: number; open: string[] }> {
  const stats = await oddsControl.stats(stack.sandbox.url);
  return { subscribes: stats.subscribes, open: Object.keys(stats.subscriptions).sort() };
}

describe('odds feed caps, client keys on', () => {
  let stack: TestStack;
  const clients: Client[] = [];
  const clientFor = (key: string): Client => {
    const client = createClient({
      url: `${stack.gateway.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
      connectionParams: { authorization: `Bearer ${key}` },
    });
    clients.push(client);
    return client;
  };
  const watch = (client: Client, match: string, query = SNAPSHOTS): Sub =>
    subscribe<Snapshot>(client, query, { m: match }, query === SNAPSHOTS ? 'oddsSnapshots' : 'oddsChanges');

  beforeAll(async () => {
    stack = await startStack({
      sandbox: { oddsCadence: 'fast' },
      env: {
        GATEWAY_CLIENT_KEYS: `a:${KEY_A},b:${KEY_B},c:${KEY_C}`,
        ODDS_MAX_FEEDS: '5',
        ODDS_MAX_FEEDS_PER_CLIENT: '3',
        ODDS_LINGER_MS: String(LINGER_MS),
      },
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await stack.close();
  });

  it('refuses invented match IDs (flood0...) with BAD_USER_INPUT before any upstream subscription', async () => {
    await oddsControl.resetStats(stack.sandbox.url);
    const client = clientFor(KEY_C);
    const invented = [...Array.from({ length: 22 }, (_, i) => `flood${i}`), '007', '-1', '1.5'];
    const subs = invented.map((match) => watch(client, match));
    await Promise.all(subs.map(settled));
    for (const [i, sub] of subs.entries()) expect(codeOf(sub), invented[i]).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(await upstream(stack)).toEqual({ subscribes: 0, open: [] });
  });

  it('a client opens at most ODDS_MAX_FEEDS_PER_CLIENT feeds, even when its subscriptions arrive together; joining is free', async () => {
    await oddsControl.resetStats(stack.sandbox.url);
    const a = clientFor(KEY_A);
    const matches = ['500001', '500002', '500003', '500004', '500005', '500006'];
    const subs = matches.map((match) => watch(a, match));
    await Promise.all(subs.map(settled));
    const opened = subs.filter((sub) => sub.stream.values.length > 0);
    const refused = subs.filter((sub) => sub.stream.error !== undefined);
    expect(opened).toHaveLength(3);
    expect(refused).toHaveLength(3);
    for (const sub of refused) expect(codeOf(sub)).toMatchObject({ code: 'ODDS_FEED_LIMIT', scope: 'client' });
    const openMatches = opened.map((sub) => sub.stream.values[0]!.matchId).sort();
    expect(await upstream(stack)).toEqual({ subscribes: 3, open: openMatches.map((m) => `match:${m}:odds`).sort() });

    // Joining a feed that is already open costs no upstream socket: never refused, never counted.
    const joinedByA = watch(a, openMatches[0]!, CHANGES);
    const joinedByB = watch(clientFor(KEY_B), openMatches[1]!);
    await settled(joinedByB);
    expect(joinedByB.stream.values[0]).toMatchObject({ matchId: openMatches[1] });
    await oddsControl.event(stack.sandbox.url, openMatches[0]!);
    await settled(joinedByA);
    expect(joinedByA.stream.error).toBeUndefined();
    expect(joinedByA.stream.values.length).toBeGreaterThan(0);
    expect((await upstream(stack)).subscribes).toBe(3);
  });

  it('the gateway opens at most ODDS_MAX_FEEDS feeds in all', async () => {
    const b = clientFor(KEY_B);
    const first = [watch(b, '600001'), watch(b, '600002')];
    await Promise.all(first.map(settled));
    for (const sub of first) expect(sub.stream.values.length).toBeGreaterThan(0);
    const before = await upstream(stack);
    expect(before.open).toHaveLength(5);

    const overB = watch(b, '600003');
    const overC = watch(clientFor(KEY_C), '600004');
    await Promise.all([settled(overB), settled(overC)]);
    expect(codeOf(overB)).toMatchObject({ code: 'ODDS_FEED_LIMIT', scope: 'gateway' });
    expect(codeOf(overC)).toMatchObject({ code: 'ODDS_FEED_LIMIT', scope: 'gateway' });
    expect(JSON.stringify(overB.stream.error)).not.toMatch(/\b5\b/);
    expect(await upstream(stack)).toEqual(before);
  });

  it('a feed stops counting once it closes: its client may open another', async () => {
    for (const client of clients.splice(0)) await client.dispose();
    const deadline = Date.now() + 5_000;
    while ((await upstream(stack)).open.length > 0) {
      if (Date.now() > deadline) throw new Error(`feeds still open: ${JSON.stringify(await upstream(stack))}`);
      await new Promise((resolve) => setTimeout(resolve, LINGER_MS));
    }
    const a = clientFor(KEY_A);
    const again = ['700001', '700002', '700003'].map((match) => watch(a, match));
    await Promise.all(again.map(settled));
    for (const sub of again) expect(sub.stream.values.length).toBeGreaterThan(0);
  });
});

describe('odds feed caps, client keys off', () => {
  let stack: TestStack;
  const clients: Client[] = [];

  beforeAll(async () => {
    stack = await startStack({ sandbox: { oddsCadence: 'fast' }, env: { ODDS_MAX_FEEDS_PER_CLIENT: '2' } });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await stack.close();
  });

  it('counts per remote address: two connections from one address share the cap', async () => {
    const connect = (): Client => {
      const client = createClient({
        url: `${stack.gateway.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        lazy: true,
      });
      clients.push(client);
      return client;
    };
    const first = subscribe<Snapshot>(connect(), SNAPSHOTS, { m: '800001' }, 'oddsSnapshots');
    const second = subscribe<Snapshot>(connect(), SNAPSHOTS, { m: '800002' }, 'oddsSnapshots');
    await Promise.all([settled(first), settled(second)]);
    // Both opened (the fast cadence may already have sent either a second, quiet frame).
    for (const sub of [first, second]) {
      expect(sub.stream.error).toBeUndefined();
      expect(sub.stream.values.length).toBeGreaterThan(0);
    }
    const third = subscribe<Snapshot>(connect(), SNAPSHOTS, { m: '800003' }, 'oddsSnapshots');
    await settled(third);
    expect(codeOf(third)).toMatchObject({ code: 'ODDS_FEED_LIMIT', scope: 'client' });
    expect((await oddsControl.stats(stack.sandbox.url)).subscribes).toBe(2);
  });
});
