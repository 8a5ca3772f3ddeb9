/**
 * One upstream odds socket per match for the whole cluster (issue 14, item
 * 5), with real parts: one sandbox (fast odds cadence), one redis-server of
 * this file's own, three gateway processes (test/support/cluster.ts).
 * Upstream subscriptions are counted by the sandbox (`GET /__sandbox/ws`);
 * the lease holder is read from `/healthz` (`leases`).
 *
 * Timing: leases of 3 s tried every 1 s (src/live/cluster-feed-source.ts),
 * so a survivor takes a dead holder's lease within 4 s; every wait below is
 * a bounded poll for a condition, never a fixed sleep standing in for one.
 */
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { oddsControl } from '../sandbox/ws/control-client.js';
import { startCluster, type Cluster, type Replica } from './support/cluster.js';
import { priceOf, replay, type Change, type Snapshot } from './support/odds-book.js';
import { subscribe, type Stream } from './support/odds-stream.js';

const SNAPSHOTS = `subscription ($m: ID!) { oddsSnapshots(matchId: $m) {
  matchId timestampMs stale feed markets { marketId suspended outcomes { name price } } } }`;
const CHANGES = `subscription ($m: ID!) { oddsChanges(matchId: $m) {
  kind marketId outcome previousPrice price afterReconnect market { marketId suspended outcomes { name price } } } }`;

const LINGER_MS = 1_000;
/** Lease TTL + tick (src/live/cluster-feed-source.ts defaults). */
const TAKEOVER_BOUND_MS = 3_000 + 1_000;
/** Room for a loaded 2-core machine on top of a documented bound: connect, first frame, relay. */
const SLACK_MS = 4_000;

const channelOf = (match: string): string => `match:${match}:odds`;
const fresh = (s: Snapshot | undefined): boolean => s !== undefined && !s.stale && s.feed === 'LIVE';

/** Polls `read` until `done` holds over its answer; throws with the last answer after `timeoutMs`. */
async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value).slice(0, 1_000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Health {
  status: string;
  replica: string;
  leases?: Record<string, string>;
}

async function health(replica: Replica): Promise<Health> {
  return (await (await fetch(`${replica.url}/healthz`)).json()) as Health;
}

interface Watcher {
  replica: Replica;
  snaps: { stream: Stream<Snapshot>; stop: () => void };
  changes: { stream: Stream<Change>; stop: () => void };
  /** The first snapshot: the start of the replay. */
  first: Snapshot;
  stop(): void;
}

describe('odds in a cluster: one upstream socket per match', () => {
  let cluster: Cluster;
  const clients: Client[] = [];

  /** Snapshots and changes of one match on one replica, once the first LIVE snapshot is in. */
  async function watch(replica: Replica, match: string): Promise<Watcher> {
    const client = createClient({
      url: `${replica.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
    });
    clients.push(client);
    // Changes first: a frame arriving between the two subscribes then shows in both.
    const changes = subscribe<Change>(client, CHANGES, { m: match }, 'oddsChanges');
    const snaps = subscribe<Snapshot>(client, SNAPSHOTS, { m: match }, 'oddsSnapshots');
    await snaps.stream.until((v) => fresh(v[0]), 10_000);
    return {
      replica,
      snaps,
      changes,
      first: snaps.stream.values[0]!,
      stop: () => {
        snaps.stop();
        changes.stop();
      },
    };
  }

  async function holderOf(match: string, among: readonly Replica[]): Promise<Replica> {
    const id = await until(
      async () => (await health(among[0]!)).leases?.[`odds:${match}`],
      (holder) => holder !== undefined && among.some((r) => r.id === holder),
      TAKEOVER_BOUND_MS + SLACK_MS,
      `a live replica holding odds:${match}`,
    );
    return among.find((r) => r.id === id)!;
  }

  function expectConsistent(watcher: Watcher): void {
    const latest = watcher.snaps.stream.values.at(-1)!;
    expect(watcher.snaps.stream.error, watcher.replica.id).toBeUndefined();
    expect(watcher.changes.stream.error, watcher.replica.id).toBeUndefined();
    expect(watcher.snaps.stream.completed || watcher.changes.stream.completed, watcher.replica.id).toBe(false);
    expect(replay(watcher.first.markets, watcher.changes.stream.values), watcher.replica.id).toEqual(
      replay(latest.markets, []),
    );
  }

  beforeAll(async () => {
    cluster = await startCluster({
      replicas: 3,
      sandbox: { oddsCadence: 'fast' },
      env: {
        ODDS_WATCHDOG_MS: '1500',
        ODDS_LINGER_MS: String(LINGER_MS),
        ODDS_BACKOFF_INITIAL_MS: '50',
        ODDS_BACKOFF_MAX_MS: '400',
      },
    });
  }, 120_000);
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await cluster?.close();
  }, 60_000);

  it('subscribers on every replica share one upstream subscription; a price move reaches all of them exactly once; the socket closes one linger after the last leaves', async () => {
    const match = '920001';
    const channel = channelOf(match);
    const watchers = await Promise.all(cluster.replicas.map((replica) => watch(replica, match)));
    const holder = await holderOf(match, cluster.replicas);

    const during = await oddsControl.stats(cluster.sandbox.url);
    expect(during.subscriptions[channel]).toBe(1);
    expect(during.subscribesByChannel[channel]).toBe(1);
    for (const w of watchers) expect(w.first).toMatchObject({ matchId: match, feed: 'LIVE', stale: false });

    const before = priceOf(watchers[0]!.first, 'match-result', 'Home')!;
    await oddsControl.price(cluster.sandbox.url, match, 'match-result', 'Home', before + 1);
    await Promise.all(
      watchers.map((w) => w.snaps.stream.until((v) => priceOf(v.at(-1), 'match-result', 'Home') === before + 1, 5_000)),
    );
    // The move is in every replica's latest snapshot: one more frame after it shows any duplicate that was coming.
    await Promise.all(
      watchers.map((w) => {
        const seen = w.snaps.stream.values.length;
        return w.snaps.stream.until((v) => v.length > seen + 1, 5_000);
      }),
    );
    for (const w of watchers) {
      expect(
        w.changes.stream.values.filter(
          (c) => c.kind === 'PRICE_MOVED' && c.marketId === 'match-result' && c.outcome === 'Home',
        ),
        w.replica.id,
      ).toEqual([expect.objectContaining({ previousPrice: before, price: before + 1, afterReconnect: false })]);
      expectConsistent(w);
    }
    // No frame delivered twice anywhere: the holder feeds its own subscribers directly and ignores its own relays.
    for (const w of watchers) {
      const stamps = w.snaps.stream.values.map((s) => s.timestampMs);
      expect(new Set(stamps).size, w.replica.id).toBe(stamps.length);
    }

    // A latecomer on a follower gets the latest snapshot at once, from the board, with no upstream subscribe.
    const follower = cluster.replicas.find((r) => r !== holder)!;
    const late = await watch(follower, match);
    expect(priceOf(late.first, 'match-result', 'Home')).toBe(before + 1);
    expect((await oddsControl.stats(cluster.sandbox.url)).subscribesByChannel[channel]).toBe(1);

    for (const w of [...watchers, late]) w.stop();
    const stoppedAt = Date.now();
    // Nothing closes inside the linger.
    expect((await oddsControl.stats(cluster.sandbox.url)).subscriptions[channel]).toBe(1);
    await until(
      () => oddsControl.stats(cluster.sandbox.url),
      (s) => s.subscriptions[channel] === undefined,
      LINGER_MS + SLACK_MS,
      `${channel} closed`,
    );
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(LINGER_MS);
    const after = await oddsControl.stats(cluster.sandbox.url);
    expect(after.subscribesByChannel[channel]).toBe(1);
    // And the lease is given back, so that /healthz no longer names a holder.
    await until(
      () => health(holder),
      (h) => h.leases?.[`odds:${match}`] === undefined,
      3_000 + SLACK_MS,
      'the lease released',
    );
  }, 60_000);

  it('the lease holder killed (SIGKILL): the survivors show RECONNECTING then LIVE, no error, the change made meanwhile once, and one upstream subscription again', async () => {
    const match = '920002';
    const channel = channelOf(match);
    const watchers = await Promise.all(cluster.replicas.map((replica) => watch(replica, match)));
    const holder = await holderOf(match, cluster.replicas);
    const survivors = watchers.filter((w) => w.replica !== holder);
    expect((await oddsControl.stats(cluster.sandbox.url)).subscriptions[channel]).toBe(1);
    const before = priceOf(survivors[0]!.first, 'match-result', 'Away')!;
    const seen = survivors.map((w) => w.snaps.stream.values.length);

    const killedAt = Date.now();
    await holder.kill();
    // The kernel closes the dead holder's socket: the upstream sees it go.
    await until(
      () => oddsControl.stats(cluster.sandbox.url),
      (s) => s.subscriptions[channel] === undefined,
      SLACK_MS,
      "the dead holder's socket closed",
    );
    // A move nobody relays: it must reach the survivors through the new socket's first snapshot, once.
    await oddsControl.price(cluster.sandbox.url, match, 'match-result', 'Away', before + 2);

    await Promise.all(
      survivors.map((w, i) =>
        w.snaps.stream.until((v) => {
          const after = v.slice(seen[i]);
          const stale = after.findIndex((s) => s.stale && s.feed === 'RECONNECTING');
          return (
            stale >= 0 &&
            after.slice(stale + 1).some((s) => fresh(s) && priceOf(s, 'match-result', 'Away') === before + 2)
          );
        }, TAKEOVER_BOUND_MS + SLACK_MS),
      ),
    );
    const liveAgainMs = Date.now() - killedAt;
    expect(liveAgainMs).toBeLessThan(TAKEOVER_BOUND_MS + SLACK_MS);

    const newHolder = await holderOf(
      match,
      survivors.map((w) => w.replica),
    );
    expect(newHolder).not.toBe(holder);
    const stats = await oddsControl.stats(cluster.sandbox.url);
    expect(stats.subscriptions[channel]).toBe(1);
    expect(stats.subscribesByChannel[channel]).toBe(2);

    // One more frame on every survivor: a duplicate of the move would have shown by then.
    await Promise.all(
      survivors.map((w) => {
        const n = w.snaps.stream.values.length;
        return w.snaps.stream.until((v) => v.length > n + 1, 5_000);
      }),
    );
    for (const w of survivors) {
      expect(
        w.changes.stream.values.filter(
          (c) => c.kind === 'PRICE_MOVED' && c.marketId === 'match-result' && c.outcome === 'Away',
        ),
        w.replica.id,
      ).toEqual([expect.objectContaining({ previousPrice: before, price: before + 2, afterReconnect: true })]);
      expectConsistent(w);
    }
    for (const w of watchers) w.stop();
  }, 60_000);

  it('Redis killed: no subscriber errs, each replica with subscribers runs its own socket; Redis back (empty): one socket again within a tick of the rejoin, moves delivered once', async () => {
    const match = '920003';
    const channel = channelOf(match);
    const alive = cluster.replicas.filter((r) => r.running);
    expect(alive.length).toBeGreaterThanOrEqual(2);
    const watchers = await Promise.all(alive.map((replica) => watch(replica, match)));
    const holder = await holderOf(match, alive);
    expect((await oddsControl.stats(cluster.sandbox.url)).subscriptions[channel]).toBe(1);
    const followers = watchers.filter((w) => w.replica !== holder);
    const seen = followers.map((w) => w.snaps.stream.values.length);

    await cluster.redis.kill();
    // Degraded, still serving: every replica with subscribers opens its own socket.
    await until(
      () => oddsControl.stats(cluster.sandbox.url),
      (s) => s.subscriptions[channel] === alive.length,
      SLACK_MS,
      `${alive.length} sockets while Redis is away`,
    );
    for (const replica of alive) expect((await health(replica)).status, replica.id).toBe('degraded');
    await Promise.all(
      followers.map((w, i) =>
        w.snaps.stream.until((v) => {
          const after = v.slice(seen[i]);
          const stale = after.findIndex((s) => s.stale && s.feed === 'RECONNECTING');
          return stale >= 0 && after.slice(stale + 1).some(fresh);
        }, SLACK_MS),
      ),
    );
    const before = priceOf(watchers[0]!.first, 'match-result', 'Draw')!;
    await oddsControl.price(cluster.sandbox.url, match, 'match-result', 'Draw', before + 1);
    await Promise.all(
      watchers.map((w) =>
        w.snaps.stream.until(
          (v) => fresh(v.at(-1)) && priceOf(v.at(-1), 'match-result', 'Draw') === before + 1,
          SLACK_MS,
        ),
      ),
    );

    await cluster.redis.restart();
    const restartedAt = Date.now();
    for (const replica of alive)
      await until(
        () => health(replica),
        (h) => h.status === 'ok',
        2_000 + SLACK_MS,
        `${replica.id} rejoined`,
      );
    // Back in the lease scheme: one replica keeps its socket, the others close theirs.
    await until(
      () => oddsControl.stats(cluster.sandbox.url),
      (s) => s.subscriptions[channel] === 1,
      2_000 + 1_000 + SLACK_MS,
      'one socket after the rejoin',
    );
    expect(Date.now() - restartedAt).toBeLessThan(2_000 + 1_000 + SLACK_MS);
    await holderOf(match, alive);

    await oddsControl.price(cluster.sandbox.url, match, 'match-result', 'Draw', before + 2);
    await Promise.all(
      watchers.map((w) =>
        w.snaps.stream.until(
          (v) => fresh(v.at(-1)) && priceOf(v.at(-1), 'match-result', 'Draw') === before + 2,
          SLACK_MS,
        ),
      ),
    );
    await Promise.all(
      watchers.map((w) => {
        const n = w.snaps.stream.values.length;
        return w.snaps.stream.until((v) => v.length > n + 1, 5_000);
      }),
    );
    for (const w of watchers) {
      expect(
        w.changes.stream.values
          .filter((c) => c.kind === 'PRICE_MOVED' && c.marketId === 'match-result' && c.outcome === 'Draw')
          .map((c) => c.price),
        w.replica.id,
      ).toEqual([before + 1, before + 2]);
      expectConsistent(w);
    }
    for (const w of watchers) w.stop();
  }, 60_000);
});
