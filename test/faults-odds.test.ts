/**
 * Issue 8, item 4, the odds socket's faults: a dropped upstream socket, a
 * silent one and a malformed frame, each with the four checks of the HTTP
 * faults (test/faults.test.ts): the right signal within its deadline,
 * other operations unaffected (another match's feed and a REST query while
 * the fault is on), recovery once the fault clears, and the upstream key in
 * no frame, log line or metric.
 *
 * A subscription has no error to carry: its "code" is the snapshot's
 * `stale: true, feed: RECONNECTING` while the upstream is gone, and a fresh
 * `LIVE` snapshot after.
 */
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { oddsControl } from '../sandbox/ws/control-client.js';
import { gql } from './support/client.js';
import { expectKeyNowhere, sleep } from './support/faults.js';
import { subscribe, type Stream } from './support/odds-stream.js';
import { startStack, type TestStack } from './support/servers.js';

interface Snapshot {
  matchId: string;
  stale: boolean;
  feed: 'CONNECTING' | 'LIVE' | 'RECONNECTING';
  markets: Array<{ marketId: string; suspended: boolean; outcomes: Array<{ name: string; price: number | null }> }>;
}

const SNAPSHOTS = `subscription ($m: ID!) { oddsSnapshots(matchId: $m) { matchId stale feed markets { marketId suspended outcomes { name price } } } }`;
const WATCHDOG_MS = 600;
/** The fast cadence sends a frame at least every 200 ms; the slack covers a loaded CI box. */
const DETECT_SLACK_MS = 700;
const API_KEY = 'odds-faults-key-3f9a51';

/** Odds match IDs are numeric (src/upstream/routes/odds-socket.ts): one faulted and one bystander match per fault. */
const MATCHES = {
  drop: { faulted: '910001', bystander: '910002' },
  silent: { faulted: '910003', bystander: '910004' },
  malformed: { faulted: '910005', bystander: '910006' },
} as const;

const fresh = (s: Snapshot | undefined): boolean => s !== undefined && !s.stale && s.feed === 'LIVE';

describe('odds socket faults: signalled in time, contained, recovered, no key', () => {
  let stack: TestStack;
  let client: Client;

  beforeAll(async () => {
    stack = await startStack({
      sandbox: { oddsCadence: 'fast', apiKey: API_KEY },
      env: {
        ODDS_WATCHDOG_MS: String(WATCHDOG_MS),
        ODDS_LINGER_MS: '100',
        ODDS_BACKOFF_INITIAL_MS: '50',
        ODDS_BACKOFF_MAX_MS: '200',
      },
    });
    client = createClient({
      url: `${stack.gateway.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
    });
  });
  afterAll(async () => {
    await client.dispose();
    await stack.close();
  });

  /** The faulted match and a bystander match, both live before the fault. */
  async function twoFeeds(
    name: keyof typeof MATCHES,
  ): Promise<{ faulted: Stream<Snapshot>; other: Stream<Snapshot>; stop: () => void }> {
    const a = subscribe<Snapshot>(client, SNAPSHOTS, { m: MATCHES[name].faulted }, 'oddsSnapshots');
    const b = subscribe<Snapshot>(client, SNAPSHOTS, { m: MATCHES[name].bystander }, 'oddsSnapshots');
    await a.stream.until((v) => fresh(v.at(-1)));
    await b.stream.until((v) => fresh(v.at(-1)));
    return {
      faulted: a.stream,
      other: b.stream,
      stop: () => {
        a.stop();
        b.stop();
      },
    };
  }

  /** While the fault is on: the other match keeps fresh frames and a query answers. */
  async function othersUnaffected(other: Stream<Snapshot>): Promise<string> {
    const seen = other.values.length;
    const query = await gql(stack.gateway.url, '{ v1 { hockey { standings { entries { position } } } } }');
    expect(query.errors).toBeUndefined();
    await other.until((v) => v.length > seen + 1 && v.slice(seen).every(fresh), 2_000);
    return query.text;
  }

  async function expectNoKey(streams: ReadonlyArray<Stream<Snapshot>>, extra: string[]): Promise<void> {
    await expectKeyNowhere(stack, [...streams.flatMap((s) => s.texts), ...extra]);
  }

  it('a dropped odds socket: stale and RECONNECTING at once, the other match unaffected, LIVE again after', async () => {
    const { faulted, other, stop } = await twoFeeds('drop');
    try {
      const before = faulted.values.length;
      const droppedAt = Date.now();
      // Refused for 800 ms: the feed stays down long enough to look at the rest.
      await oddsControl.drop(stack.sandbox.url, MATCHES.drop.faulted, 800);
      await faulted.until((v) => v.slice(before).some((s) => s.stale && s.feed === 'RECONNECTING'), DETECT_SLACK_MS);
      expect(Date.now() - droppedAt).toBeLessThan(DETECT_SLACK_MS);
      const queryText = await othersUnaffected(other);
      const staleAt = faulted.values.length;
      await faulted.until((v) => fresh(v.at(-1)) && v.length > staleAt, 3_000);
      expect(faulted.error).toBeUndefined();
      expect(faulted.completed).toBe(false);
      await expectNoKey([faulted, other], [queryText]);
    } finally {
      stop();
    }
  });

  it('a silent odds socket: stale once the watchdog passes, the other match unaffected, LIVE again on a new socket', async () => {
    const { faulted, other, stop } = await twoFeeds('silent');
    try {
      const before = faulted.values.length;
      const subscribesBefore =
        (await oddsControl.stats(stack.sandbox.url)).subscribesByChannel[`match:${MATCHES.silent.faulted}:odds`] ?? 0;
      const silencedAt = Date.now();
      await oddsControl.silence(stack.sandbox.url, MATCHES.silent.faulted);
      const queryText = await othersUnaffected(other);
      await faulted.until((v) => v.slice(before).some((s) => s.stale), WATCHDOG_MS + DETECT_SLACK_MS + 500);
      const detectedAfter = Date.now() - silencedAt;
      // Not before the watchdog (counted from the last frame, at most one 200 ms quiet period before the silence)...
      expect(detectedAfter).toBeGreaterThanOrEqual(WATCHDOG_MS - 250);
      // ...and not much after it.
      expect(detectedAfter).toBeLessThan(WATCHDOG_MS + DETECT_SLACK_MS);
      const staleAt = faulted.values.length;
      await faulted.until((v) => fresh(v.at(-1)) && v.length > staleAt, 3_000);
      expect(
        (await oddsControl.stats(stack.sandbox.url)).subscribesByChannel[`match:${MATCHES.silent.faulted}:odds`],
      ).toBe(subscribesBefore + 1);
      expect(faulted.error).toBeUndefined();
      await expectNoKey([faulted, other], [queryText]);
    } finally {
      stop();
    }
  });

  it('a malformed odds frame: resubscribed at once on the same socket, nothing stale shown, the other match unaffected', async () => {
    const { faulted, other, stop } = await twoFeeds('malformed');
    try {
      const stats = await oddsControl.stats(stack.sandbox.url);
      const subscribesBefore = stats.subscribesByChannel[`match:${MATCHES.malformed.faulted}:odds`] ?? 0;
      const before = faulted.values.length;
      const sentAt = Date.now();
      await oddsControl.malformed(stack.sandbox.url, MATCHES.malformed.faulted);
      // Resubscribed at once: well before the watchdog would have noticed anything.
      let after = await oddsControl.stats(stack.sandbox.url);
      while (
        (after.subscribesByChannel[`match:${MATCHES.malformed.faulted}:odds`] ?? 0) === subscribesBefore &&
        Date.now() - sentAt < DETECT_SLACK_MS
      ) {
        await sleep(25);
        after = await oddsControl.stats(stack.sandbox.url);
      }
      expect(after.subscribesByChannel[`match:${MATCHES.malformed.faulted}:odds`]).toBe(subscribesBefore + 1);
      expect(Date.now() - sentAt).toBeLessThan(WATCHDOG_MS);
      expect(after.connections).toBe(stats.connections);
      const queryText = await othersUnaffected(other);
      await faulted.until((v) => v.length > before + 1 && fresh(v.at(-1)), 2_000);
      expect(faulted.values.slice(before).every(fresh)).toBe(true);
      expect(faulted.error).toBeUndefined();
      await expectNoKey([faulted, other], [queryText]);
    } finally {
      stop();
    }
  });
});
