/**
 * Issue 29, item 6: CORS that explains itself (src/plugins/use-cors.ts).
 *
 * On the embedded sandbox a front-end dev server on any loopback port works
 * with no setting: its preflight gets the Access-Control-* headers and its
 * real POST runs (the CSRF refusal lets it through) and is readable. Against
 * a real upstream, a preflight from an origin that is not allowed gets a 403
 * naming GATEWAY_CORS_ORIGINS, logged once per origin. Before, every
 * preflight got `405 METHOD_NOT_ALLOWED` and nothing was logged.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestCounts, resetCounts } from './support/client.js';
import { launchChromium } from './support/chromium.js';
import { startStack, type TestStack } from './support/servers.js';

const STANDINGS = '{ v1 { hockey { standings { entries { position } } } } }';

/** A browser's preflight for a JSON POST to /graphql from `origin`. */
function preflight(gatewayUrl: string, origin: string): Promise<Response> {
  return fetch(`${gatewayUrl}/graphql`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });
}

/** The real POST a browser sends after the preflight (cross-site: another port of another loopback name). */
function corsPost(gatewayUrl: string, origin: string): Promise<Response> {
  return fetch(`${gatewayUrl}/graphql`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' },
    body: JSON.stringify({ query: STANDINGS }),
  });
}

describe('CORS on the embedded sandbox: loopback dev servers work with no setting', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // No SPORTS_API_BASE_URL, as `npm start` with nothing set: the gateway is on the embedded sandbox.
    stack = await startStack({ adjust: (config) => ({ ...config, baseUrl: undefined }) });
  });
  afterAll(() => stack.close());

  it.each(['http://localhost:5173', 'http://127.0.0.1:3000', 'http://[::1]:8080'])(
    'a preflight from %s gets 204 with the Access-Control-* headers',
    async (origin) => {
      const answer = await preflight(stack.gateway.url, origin);
      expect(answer.status).toBe(204);
      expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
      expect(answer.headers.get('access-control-allow-methods')).toBe('GET, POST');
      expect(answer.headers.get('access-control-allow-headers')).toBe('content-type');
      expect(answer.headers.get('vary')).toContain('Origin');
    },
  );

  it('the real cross-origin POST from a loopback dev server runs and carries Access-Control-Allow-Origin', async () => {
    const answer = await corsPost(stack.gateway.url, 'http://localhost:5173');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const body = (await answer.json()) as { data?: unknown; errors?: unknown };
    expect(body.errors).toBeUndefined();
    expect(body.data).toBeTruthy();
  });

  it('an origin that is not loopback is still refused, with the setting named', async () => {
    const answer = await preflight(stack.gateway.url, 'http://evil.example');
    expect(answer.status).toBe(403);
    const body = (await answer.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
    expect(body.errors[0]?.extensions.code).toBe('CORS_ORIGIN_REFUSED');
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('in headless Chromium, a page on another loopback port reads a query answer from the gateway', async () => {
    let browser: Browser | undefined;
    const page = `<script>
      window.done = fetch(${JSON.stringify(`${stack.gateway.url}/graphql`)}, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: ${JSON.stringify(STANDINGS)} }),
      }).then((r) => r.json()).then((body) => body.data.v1.hockey.standings.entries.length, (error) => 'failed: ' + error);
    </script>`;
    // `localhost`, not the gateway's 127.0.0.1: another site as well as another port.
    const server: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      browser = await launchChromium();
      const tab = await browser.newPage();
      await tab.goto(`http://localhost:${(server.address() as AddressInfo).port}/`);
      const entries = await tab.evaluate(() => (window as unknown as { done: Promise<number | string> }).done);
      expect(typeof entries === 'number' && entries > 0 ? 'read' : entries).toBe('read');
    } finally {
      await browser?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('CORS against a real upstream: only GATEWAY_CORS_ORIGINS, and a refusal that says so', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  const refusalLines = (origin: string): string[] =>
    stack.logs.filter((line) => {
      const parsed = JSON.parse(line) as { msg: string; origin?: string };
      return parsed.origin === origin && parsed.msg.startsWith("refused a browser's CORS preflight");
    });

  it('a preflight from a dev server not allowed gets 403 CORS_ORIGIN_REFUSED naming GATEWAY_CORS_ORIGINS, logged once per origin', async () => {
    for (let i = 0; i < 4; i += 1) {
      const answer = await preflight(stack.gateway.url, 'http://localhost:5173');
      expect(answer.status).toBe(403);
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
      const body = (await answer.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
      expect(body.errors[0]?.extensions.code).toBe('CORS_ORIGIN_REFUSED');
      expect(body.errors[0]?.message).toContain('GATEWAY_CORS_ORIGINS');
      expect(body.errors[0]?.message).toContain('http://localhost:5173');
    }
    expect(refusalLines('http://localhost:5173')).toHaveLength(1);
    expect(refusalLines('http://localhost:5173')[0]).toContain('GATEWAY_CORS_ORIGINS=http://localhost:5173');
    // Another origin is another line.
    expect((await preflight(stack.gateway.url, 'http://localhost:3000')).status).toBe(403);
    expect(refusalLines('http://localhost:3000')).toHaveLength(1);
  });

  it('the real POST from that origin runs nothing (CSRF_REFUSED) and spends nothing', async () => {
    await resetCounts(stack.sandbox.url);
    const answer = await fetch(`${stack.gateway.url}/graphql`, {
      method: 'POST',
      headers: {
        origin: 'http://evil.example',
        'content-type': 'application/json',
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'cors',
      },
      body: JSON.stringify({ query: STANDINGS }),
    });
    expect(answer.status).toBe(403);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('with GATEWAY_CORS_ORIGINS set, that origin gets 204 and its POST runs and is readable', async () => {
    await stack.stopGateway();
    await stack.restartGateway({ GATEWAY_CORS_ORIGINS: 'http://localhost:5173' });
    const answer = await preflight(stack.gateway.url, 'http://localhost:5173');
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const post = await corsPost(stack.gateway.url, 'http://localhost:5173');
    expect(post.status).toBe(200);
    expect(post.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(((await post.json()) as { errors?: unknown }).errors).toBeUndefined();
    // Loopback is not allowed by default here: another port is another origin.
    expect((await preflight(stack.gateway.url, 'http://localhost:5174')).status).toBe(403);
  });

  it('an OPTIONS that is no preflight (no Origin) is answered as before', async () => {
    const answer = await fetch(`${stack.gateway.url}/graphql`, { method: 'OPTIONS' });
    expect(answer.status).toBe(405);
  });
});
