/**
 * Subscription churn: clients that keep arriving and leaving, the pattern
 * most likely to leak (listeners, hub entries, upstream odds sockets, timers).
 *
 * - graphql-ws: each cycle opens a socket, subscribes to `oddsSnapshots` and
 *   `oddsChanges` of one of a few matches, waits for `framesPerCycle`
 *   snapshots, unsubscribes; every other cycle it subscribes once more on the
 *   same socket before closing it, so both "complete on an open socket" and
 *   "socket closed under a live subscription" happen.
 * - SSE: each cycle POSTs with `accept: text/event-stream`, reads
 *   `framesPerCycle` events and aborts the request.
 */
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

export interface ChurnStats {
  wsConnections: number;
  wsSubscriptions: number;
  sseSubscriptions: number;
  frames: number;
  /** Cycles that got an error or no frames in time. */
  errors: number;
  lastError: string | undefined;
}

const SNAPSHOTS =
  'subscription ($m: ID!) { oddsSnapshots(matchId: $m) { matchId timestampMs stale feed markets { marketId suspended outcomes { name price } } } }';
const CHANGES = 'subscription ($m: ID!) { oddsChanges(matchId: $m) { kind marketId outcome price } }';
/** A few of the sandbox's hockey V1 games: the upstream odds subscriptions open, linger and close as churners come and go. */
const MATCHES = ['410001', '410002', '410003', '410004', '410005', '410006'];
const FRAME_TIMEOUT_MS = 10_000;

export interface Churn {
  readonly stats: ChurnStats;
  stop(): Promise<void>;
}

export function startChurn(
  gatewayUrl: string,
  options: { wsChurners: number; sseChurners: number; framesPerCycle: number },
): Churn {
  const stats: ChurnStats = {
    wsConnections: 0,
    wsSubscriptions: 0,
    sseSubscriptions: 0,
    frames: 0,
    errors: 0,
    lastError: undefined,
  };
  let running = true;
  let cycle = 0;
  const wsUrl = `${gatewayUrl.replace(/^http/, 'ws')}/graphql`;
  const fail = (error: unknown): void => {
    stats.errors++;
    stats.lastError = error instanceof Error ? error.message : JSON.stringify(error);
  };

  /** Resolves after `frames` results of one subscription, then unsubscribes. */
  const subscribeFor = (client: Client, query: string, matchId: string, frames: number): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      let seen = 0;
      let done = false;
      const finish = (error?: unknown): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        unsubscribe();
        if (error === undefined) resolve();
        else reject(error instanceof Error ? error : new Error(JSON.stringify(error)));
      };
      const timer = setTimeout(
        () => finish(new Error(`no ${frames} frames within ${FRAME_TIMEOUT_MS} ms`)),
        FRAME_TIMEOUT_MS,
      );
      stats.wsSubscriptions++;
      const unsubscribe = client.subscribe(
        { query, variables: { m: matchId } },
        {
          next: (result) => {
            if (result.errors !== undefined) return finish(result.errors);
            stats.frames++;
            if (++seen >= frames) finish();
          },
          error: (error) => finish(error),
          complete: () => finish(seen >= frames ? undefined : new Error('completed early')),
        },
      );
    });

  const wsCycle = async (n: number): Promise<void> => {
    const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
    stats.wsConnections++;
    const matchId = MATCHES[n % MATCHES.length]!;
    try {
      // Changes only come when prices move: this one rides along and ends when the socket closes.
      void subscribeFor(client, CHANGES, matchId, Number.POSITIVE_INFINITY).catch(() => undefined);
      await subscribeFor(client, SNAPSHOTS, matchId, options.framesPerCycle);
      if (n % 2 === 1) {
        const other = MATCHES[(n + 3) % MATCHES.length]!;
        // Left open: the socket closes under it.
        void subscribeFor(client, SNAPSHOTS, other, Number.POSITIVE_INFINITY).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } catch (error) {
      fail(error);
    } finally {
      await client.dispose();
    }
  };

  const sseCycle = async (n: number): Promise<void> => {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), FRAME_TIMEOUT_MS);
    stats.sseSubscriptions++;
    try {
      const response = await fetch(`${gatewayUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query: SNAPSHOTS, variables: { m: MATCHES[n % MATCHES.length] } }),
        signal: abort.signal,
      });
      if (response.status !== 200 || response.body === null) throw new Error(`SSE answered ${response.status}`);
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      let seen = 0;
      while (seen < options.framesPerCycle) {
        const { value, done } = await reader.read();
        if (done) throw new Error('SSE stream ended early');
        buffer += decoder.decode(value, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!/^event: next$/m.test(event)) continue;
          if (/"errors"/.test(event)) throw new Error(`SSE error event: ${event.slice(0, 300)}`);
          seen++;
          stats.frames++;
        }
      }
    } catch (error) {
      fail(error);
    } finally {
      clearTimeout(timer);
      abort.abort();
    }
  };

  const loop = async (run: (n: number) => Promise<void>): Promise<void> => {
    while (running) await run(cycle++);
  };
  const loops = [
    ...Array.from({ length: options.wsChurners }, () => loop(wsCycle)),
    ...Array.from({ length: options.sseChurners }, () => loop(sseCycle)),
  ];

  return {
    stats,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}
