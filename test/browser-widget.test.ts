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
import { oddsControl } from '../src/sandbox/ws/control-client.js';
import { launchChromium } from './support/chromium.js';
import { startStack, type TestStack } from './support/servers.js';

describe('in headless Chromium', () => {
  let stack: TestStack;
  let browser: Browser;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([
      startStack({
        sandbox: { oddsCadence: 'fast' },
        env: { ODDS_WATCHDOG_MS: '1000', ODDS_LINGER_MS: '200', ODDS_BACKOFF_INITIAL_MS: '100', ODDS_BACKOFF_MAX_MS: '400' },
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

  function offGateway(urls: string[]): string[] {
    const origin = new URL(stack.gateway.url);
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
      await expect.poll(() => page.locator('[data-market="next-goal"]').getAttribute('data-status'), { timeout: 5_000 }).toBe('suspended');

      // Closed: removed from markets[], still shown as closed.
      await oddsControl.market(stack.sandbox.url, match, 'next-goal', 'close');
      await expect.poll(() => page.locator('[data-market="next-goal"]').getAttribute('data-status'), { timeout: 5_000 }).toBe('closed');
      await oddsControl.price(stack.sandbox.url, match, 'match-result', 'Home', 8.25);
      await expect.poll(() => home.textContent(), { timeout: 5_000 }).toBe('8.25');

      expect(await page.locator('body').getAttribute('data-state-history')).toMatch(/live.*reconnecting.*live/);
      expect(offGateway(urls)).toEqual([]);
      expect(urls.some((url) => url.endsWith('/widgets/odds/widget.js'))).toBe(true);
    } finally {
      await page.close();
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
      await expect.poll(() => page.locator('.graphiql-query-editor').textContent(), { timeout: 10_000 }).toContain('quota');
      await run.click();
      await expect.poll(() => page.locator('.graphiql-response').textContent(), { timeout: 10_000 }).toMatch(/"limit":\s*7500/);
      expect(offGateway(urls)).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
