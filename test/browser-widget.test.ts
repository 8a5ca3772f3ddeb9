/**
 * In a real browser: Debian's headless Chromium driven by playwright-core
 * (no browser download). The odds widget shows a price the sandbox moves,
 * shows reconnecting while the upstream socket is down and recovers; and
 * GraphiQL loads and runs a query with nothing fetched beyond the gateway.
 *
 * `npm test` installs /usr/bin/chromium when missing (scripts/system-deps.ts). Without it this file fails: a
 * browser test that skips itself would prove nothing.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oddsControl } from '../sandbox/ws/control-client.js';
import { launchChromium } from './support/chromium.js';
import { startStack, type TestStack } from './support/servers.js';

describe('in headless Chromium', () => {
  let stack: TestStack;
  let browser: Browser;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([
      startStack({
        sandbox: { oddsCadence: 'fast' },
        env: {
          ODDS_WATCHDOG_MS: '1000',
          ODDS_LINGER_MS: '200',
          ODDS_BACKOFF_INITIAL_MS: '100',
          ODDS_BACKOFF_MAX_MS: '400',
        },
      }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  /** Every request and WebSocket the page opens, so a test can prove none leaves the gateway. */
  function watchNetwork(page: Page): string[] {
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    page.on('websocket', (socket) => urls.push(socket.url()));
    return urls;
  }

  function offGateway(urls: string[], gatewayUrl = stack.gateway.url): string[] {
    const origin = new URL(gatewayUrl);
    return urls.filter((url) => {
      if (url.startsWith('data:') || url.startsWith('blob:')) return false;
      return new URL(url).host !== origin.host;
    });
  }

  it('the odds widget shows a price change, then reconnecting and recovery after a dropped upstream socket', async () => {
    const page = await browser.newPage();
    const urls = watchNetwork(page);
    const match = '920001';
    const home = page.locator('[data-market="match-result"] .price[data-outcome="Home"]');
    try {
      await page.goto(`${stack.gateway.url}/widgets/odds?match=${match}`);
      await page.locator('#connection[data-state="live"]').waitFor({ timeout: 10_000 });
      const before = Number(await home.textContent());
      expect(before).toBeGreaterThan(1);

      await oddsControl.price(stack.sandbox.url, match, 'match-result', 'Home', 7.5);
      await expect.poll(() => home.textContent(), { timeout: 5_000 }).toBe('7.50');
      await expect.poll(() => page.locator('#changes li[data-kind="PRICE_MOVED"]').count()).toBe(1);

      // The upstream socket drops and refuses upgrades for a while: the widget says so, then recovers.
      await oddsControl.drop(stack.sandbox.url, match, 1_500);
      await page.locator('#connection[data-state="reconnecting"]').waitFor({ timeout: 5_000 });
      await oddsControl.market(stack.sandbox.url, match, 'next-goal', 'suspend');
      await page.locator('#connection[data-state="live"]').waitFor({ timeout: 10_000 });
      await expect
        .poll(() => page.locator('[data-market="next-goal"]').getAttribute('data-status'), { timeout: 5_000 })
        .toBe('suspended');

      // Closed: removed from markets[], still shown as closed.
      await oddsControl.market(stack.sandbox.url, match, 'next-goal', 'close');
      await expect
        .poll(() => page.locator('[data-market="next-goal"]').getAttribute('data-status'), { timeout: 5_000 })
        .toBe('closed');
      await oddsControl.price(stack.sandbox.url, match, 'match-result', 'Home', 8.25);
      await expect.poll(() => home.textContent(), { timeout: 5_000 }).toBe('8.25');

      expect(await page.locator('body').getAttribute('data-state-history')).toMatch(/live.*reconnecting.*live/);
      expect(offGateway(urls)).toEqual([]);
      expect(urls.some((url) => url.endsWith('/widgets/odds/widget.js'))).toBe(true);
    } finally {
      await page.close();
    }
  });

  it('the odds widget shows the teams, score and clock beside the prices, and follows a scripted goal and full time', async () => {
    // A ticker that polls every second (mega plan, all of it for the ticker, a 1 s cache), so the scoreboard follows within the test's waits.
    const live = await startStack({
      sandbox: { oddsCadence: 'fast', allowance: 150_000 },
      env: {
        SPORTS_API_PLAN: 'mega',
        LIVE_TICKER_ALLOWANCE_PERCENT: '100',
        LIVE_TICKER_MIN_INTERVAL_MS: '1',
        CACHE_TTL_WORLDCUP: '1',
      },
    });
    const page = await browser.newPage();
    const urls = watchNetwork(page);
    const game = live.sandbox.fixtures.worldCup.matches.find((m) => m.state === 'live')!;
    const home = page.locator('[data-market="match-result"] .price[data-outcome="Home"]');
    const script = async (body: unknown): Promise<void> => {
      const response = await fetch(`${live.sandbox.url}/__sandbox/matches/${game.v1Id}/events`, {
        method: 'POST',
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
    };
    try {
      await page.goto(`${live.gateway.url}/widgets/odds?match=${game.v1Id}`);
      await page.locator('#connection[data-state="live"]').waitFor({ timeout: 10_000 });
      await expect.poll(() => page.locator('#home-team').textContent(), { timeout: 5_000 }).toBe(game.home!.name);
      expect(await page.locator('#away-team').textContent()).toBe(game.away!.name);
      expect(await page.locator('#score').textContent()).toBe(`${game.homeScore} – ${game.awayScore}`);
      expect(await page.locator('#clock').textContent()).toBe(`${game.minute}'`);
      const before = Number(await home.textContent());
      const [homeGoals, awayGoals] = [game.homeScore!, game.awayScore!];

      await script({ type: 'goal', team: 'home' });
      await expect
        .poll(() => page.locator('#score').textContent(), { timeout: 5_000 })
        .toBe(`${homeGoals + 1} – ${awayGoals}`);
      await expect.poll(async () => Number(await home.textContent()), { timeout: 5_000 }).toBeLessThan(before);

      await script({ type: 'end' });
      await expect.poll(() => page.locator('#clock').textContent(), { timeout: 5_000 }).toBe('Ended');
      expect(await page.locator('#scoreboard').getAttribute('data-status')).toBe('finished');
      expect(offGateway(urls, live.gateway.url)).toEqual([]);
    } finally {
      await page.close();
      await live.close();
    }
  });

  it('GraphiQL loads offline from the gateway and runs a query', async () => {
    const page = await browser.newPage();
    const urls = watchNetwork(page);
    try {
      const query = '{ quota { plan limit } }';
      await page.goto(`${stack.gateway.url}/graphql?query=${encodeURIComponent(query)}`);
      const run = page.locator('.graphiql-execute-button');
      await run.waitFor({ timeout: 15_000 });
      await expect
        .poll(() => page.locator('.graphiql-query-editor').textContent(), { timeout: 10_000 })
        .toContain('quota');
      await run.click();
      await expect
        .poll(() => page.locator('.graphiql-response').textContent(), { timeout: 10_000 })
        .toMatch(/"limit":\s*7500/);
      expect(offGateway(urls)).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
