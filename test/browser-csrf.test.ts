/**
 * Cross-site requests in a real browser (Debian's headless Chromium through
 * playwright-core), with pages served from other loopback origins than the
 * gateway's (127.0.0.1): 127.0.0.2 is another site the gateway knows nothing
 * of, 127.0.0.3 is a `GATEWAY_CORS_ORIGINS` origin.
 *
 * What a page of another site can make a browser send without asking (a
 * form POST, an `<img>` GET, a no-cors fetch) reaches the gateway and runs
 * nothing: the sandbox counts 0 upstream requests. The gateway's own pages
 * (a GET as urql sends it, an EventSource) and the allowed origin need no
 * header of ours.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestCounts, resetCounts } from './support/client.js';
import { launchChromium } from './support/chromium.js';
import { startStack, type TestStack } from './support/servers.js';

/** A counted upstream request each (standings of one season): a run of any of them shows in the sandbox's count. */
const standings = (season: number): string => `{ v1 { hockey { standings(season: ${season}) { season } } } }`;

interface PageServer {
  readonly origin: string;
  setPage(path: string, html: string): void;
  close(): Promise<void>;
}

/** Serves the HTML set for each path, from `host` on a free port. */
async function pageServer(host: string): Promise<PageServer> {
  const pages = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    const html = pages.get(req.url ?? '');
    res.writeHead(html === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    origin: `http://${host}:${(server.address() as AddressInfo).port}`,
    setPage: (path, html) => void pages.set(path, html),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('cross-site requests in headless Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  let foreign: PageServer;
  let allowed: PageServer;

  beforeAll(async () => {
    [foreign, allowed, browser] = await Promise.all([
      pageServer('127.0.0.2'),
      pageServer('127.0.0.3'),
      launchChromium(),
    ]);
    stack = await startStack({ env: { GATEWAY_CORS_ORIGINS: allowed.origin } });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await foreign?.close();
    await allowed?.close();
  });

  /** Cross-site requests the gateway refused (its `sports_graph_csrf_refusals_total`): the page cannot see the answers. */
  async function refusedByGateway(): Promise<number> {
    const text = await (await fetch(`${stack.gateway.url}/metrics`)).text();
    return text
      .split('\n')
      .filter((line) => line.startsWith('sports_graph_csrf_refusals_total{'))
      .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
  }

  /** Resolves with the status of the next response from the gateway's /graphql the page gets. */
  function nextGraphqlStatus(page: Page): Promise<number> {
    return page
      .waitForResponse((response) => response.url().startsWith(`${stack.gateway.url}/graphql`), { timeout: 15_000 })
      .then((response) => response.status());
  }

  it('a form POST from another site runs nothing, and the page shows the 403 CSRF_REFUSED that says why', async () => {
    await resetCounts(stack.sandbox.url);
    foreign.setPage(
      '/form',
      `<form method="POST" action="${stack.gateway.url}/graphql"><input name="query" value="${standings(2024)}"></form>
       <script>document.forms[0].submit()</script>`,
    );
    const page = await browser.newPage();
    try {
      const status = nextGraphqlStatus(page);
      await page.goto(`${foreign.origin}/form`);
      expect(await status).toBe(403);
      await page.waitForURL(`${stack.gateway.url}/graphql`);
      const body = JSON.parse((await page.locator('body').textContent()) ?? '') as {
        errors: Array<{ message: string; extensions: Record<string, unknown> }>;
      };
      expect(body.errors[0]?.extensions).toMatchObject({
        code: 'CSRF_REFUSED',
        fetchSite: 'cross-site',
        origin: foreign.origin,
      });
      expect(body.errors[0]?.message).toContain(`from the page origin ${foreign.origin} (Sec-Fetch-Site: cross-site)`);
    } finally {
      await page.close();
    }
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('an <img> GET and no-cors fetches (GET and text/plain POST) from another site reach the gateway and run nothing', async () => {
    await resetCounts(stack.sandbox.url);
    const get = `${stack.gateway.url}/graphql?query=${encodeURIComponent(standings(2025))}`;
    foreign.setPage(
      '/img',
      `<img src="${get}"><script>window.done = new Promise((resolve) => { document.images[0].onerror = () => resolve('error'); document.images[0].onload = () => resolve('load'); });</script>`,
    );
    foreign.setPage(
      '/no-cors',
      `<script>
        window.done = Promise.all([
          fetch(${JSON.stringify(get.replace('2025', '2026'))}, { mode: 'no-cors' }),
          fetch(${JSON.stringify(`${stack.gateway.url}/graphql`)}, {
            method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' },
            body: JSON.stringify({ query: ${JSON.stringify(standings(2023))} }),
          }),
        ]).then((responses) => responses.map((response) => response.type));
      </script>`,
    );
    const page = await browser.newPage();
    try {
      const before = await refusedByGateway();
      await page.goto(`${foreign.origin}/img`);
      // A JSON refusal is no image; the browser does not show the page what it was.
      expect(await page.evaluate(() => (window as unknown as { done: Promise<string> }).done)).toBe('error');
      expect(await refusedByGateway()).toBe(before + 1);

      await page.goto(`${foreign.origin}/no-cors`);
      // Opaque to the page, as no-cors answers are; the gateway refused both.
      expect(await page.evaluate(() => (window as unknown as { done: Promise<string[]> }).done)).toEqual([
        'opaque',
        'opaque',
      ]);
      expect(await refusedByGateway()).toBe(before + 3);
    } finally {
      await page.close();
    }
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('a GATEWAY_CORS_ORIGINS page runs operations: a CORS fetch reads the data, a form POST runs', async () => {
    await resetCounts(stack.sandbox.url);
    allowed.setPage(
      '/app',
      `<script>
        window.done = fetch(${JSON.stringify(`${stack.gateway.url}/graphql`)}, {
          method: 'POST', headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: ${JSON.stringify(standings(2024))} }),
        }).then((response) => response.json());
      </script>`,
    );
    allowed.setPage(
      '/form',
      `<form method="POST" action="${stack.gateway.url}/graphql"><input name="query" value="${standings(2025)}"></form><script>document.forms[0].submit()</script>`,
    );
    const page = await browser.newPage();
    try {
      await page.goto(`${allowed.origin}/app`);
      expect(await page.evaluate(() => (window as unknown as { done: Promise<unknown> }).done)).toMatchObject({
        data: { v1: { hockey: { standings: { season: 2024 } } } },
      });
      const status = nextGraphqlStatus(page);
      await page.goto(`${allowed.origin}/form`);
      expect(await status).toBe(200);
    } finally {
      await page.close();
    }
    expect((await requestCounts(stack.sandbox.url)).byRoute).toEqual({ 'GET /v1/hockey/standings': 2 });
  });

  it("the gateway's own pages need no header: a GET as urql sends it, and an EventSource", async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${stack.gateway.url}/healthz`);
      const got = await page.evaluate(async () => {
        const response = await fetch(`/graphql?query=${encodeURIComponent('{ quota { plan limit } }')}`);
        return { status: response.status, body: (await response.json()) as unknown };
      });
      expect(got).toEqual({
        status: 200,
        body: { data: { quota: { plan: 'PRO', limit: 7_500 } }, extensions: expect.any(Object) },
      });
      const event = await page.evaluate(
        () =>
          new Promise<unknown>((resolve, reject) => {
            const source = new EventSource(
              `/graphql?query=${encodeURIComponent('subscription { quotaUpdates { limit } }')}`,
            );
            source.addEventListener('next', (message) => {
              source.close();
              resolve(JSON.parse((message as MessageEvent<string>).data));
            });
            source.onerror = () => reject(new Error('EventSource failed'));
          }),
      );
      expect(event).toEqual({ data: { quotaUpdates: { limit: 7_500 } } });
    } finally {
      await page.close();
    }
  });
});
