/**
 * `npm start` with nothing configured runs the build (`node dist/main.js`,
 * `npm run build` first) on its embedded sandbox, whose World Cup games play
 * on the wall clock (SANDBOX_MATCH_MINUTE_MS, a minute of play every 10 s).
 * A `liveTicker` subscription sees a clock or a score move within 30 s: the
 * ticker polls every 15 s there (the World Cup lists stay fresh 10 s on the
 * sandbox, under the 15 s poll floor), and each poll finds every game at
 * least one minute on.
 */
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process.js';
import { subscribe } from './support/odds-stream.js';

interface Ticker {
  games: Array<{
    ref: { nativeId: string };
    statusGroup: number;
    minute: number | null;
    homeScore: number | null;
    awayScore: number | null;
  }>;
  pollIntervalSeconds: number;
}

const TICKER =
  'subscription { liveTicker { games { ref { nativeId } statusGroup minute homeScore awayScore } pollIntervalSeconds } }';

describe('npm start: the sandbox plays', () => {
  let gateway: GatewayProcess;

  beforeAll(async () => {
    // Empty values count as unset, whatever the test runner's environment holds.
    gateway = await startGatewayProcess({
      SPORTS_API_PLAN: '',
      SPORTS_API_BASE_URL: '',
      SPORTS_API_KEY: '',
      SANDBOX_PORT: '0',
      SANDBOX_MATCH_MINUTE_MS: '',
      CACHE_TTL_WORLDCUP: '',
      LIVE_TICKER_MIN_INTERVAL_MS: '',
      LIVE_TICKER_ALLOWANCE_PERCENT: '',
    });
  }, 60_000);
  afterAll(async () => {
    await gateway?.stop();
  });

  it('a liveTicker subscription sees a game clock or score move within 30 s', async () => {
    const client: Client = createClient({
      url: `${gateway.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      lazy: true,
      retryAttempts: 0,
    });
    const { stream, stop } = subscribe<Ticker>(client, TICKER, {}, 'liveTicker');
    try {
      await stream.until((values) => values.length > 0, 10_000);
      const first = stream.values[0]!;
      expect(first.pollIntervalSeconds).toBe(15);
      expect(first.games.length).toBeGreaterThan(0);
      const moved = (ticker: Ticker): boolean =>
        ticker.games.some((game) => {
          const before = first.games.find((g) => g.ref.nativeId === game.ref.nativeId);
          return (
            before === undefined ||
            before.minute !== game.minute ||
            before.homeScore !== game.homeScore ||
            before.awayScore !== game.awayScore
          );
        }) || ticker.games.length !== first.games.length;
      const subscribed = Date.now();
      await stream.until((values) => values.slice(1).some(moved), 30_000);
      expect(Date.now() - subscribed).toBeLessThan(30_000);
      expect(stream.error).toBeUndefined();
    } finally {
      stop();
      await client.dispose();
    }
  }, 45_000);
});
