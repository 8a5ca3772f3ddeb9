/**
 * Who may use the gateway: client keys over HTTP and WebSocket, cross-site
 * (CSRF) refusal, CORS, and the introspection / GraphiQL switches.
 */
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const KEY = 'client-key-for-tests-1234';
const QUOTA = `{ quota { used } }`;

describe('client keys', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: { GATEWAY_CLIENT_KEYS: `widget:${KEY},other:another-key-5678` } });
  });
  afterAll(() => stack.close());

  it('HTTP: missing -> 401, invalid -> 403, valid (Bearer or x-client-key) -> data; nothing reaches the upstream without one', async () => {
    await resetCounts(stack.sandbox.url);
    const missing = await gql(stack.gateway.url, `{ v1 { hockey { standings { season } } } }`);
    expect(missing.status).toBe(401);
    expect(missing.errors?.[0]?.extensions?.['code']).toBe('UNAUTHENTICATED');
    const invalid = await gql(stack.gateway.url, QUOTA, undefined, { authorization: 'Bearer nope' });
    expect(invalid.status).toBe(403);
    expect(invalid.errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
    const bearer = await gql(stack.gateway.url, QUOTA, undefined, { authorization: `Bearer ${KEY}` });
    expect(bearer.status).toBe(200);
    expect(bearer.data).toEqual({ quota: { used: expect.any(Number) } });
    const header = await gql(stack.gateway.url, QUOTA, undefined, { 'x-client-key': 'another-key-5678' });
    expect(header.status).toBe(200);
  });

  it('/healthz stays open; /metrics needs a key', async () => {
    expect((await fetch(`${stack.gateway.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${stack.gateway.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${stack.gateway.url}/metrics`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(
      200,
    );
  });

  it('WebSocket: no or wrong key closes with 4403; a key in connectionParams works', async () => {
    const url = `${stack.gateway.url.replace('http', 'ws')}/graphql`;
    for (const connectionParams of [{}, { authorization: 'Bearer wrong' }]) {
      const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams });
      const code = await new Promise<number>((resolve) => {
        client.on('closed', (event) => resolve((event as { code: number }).code));
        client.subscribe(
          { query: QUOTA },
          { next: () => undefined, error: () => undefined, complete: () => undefined },
        );
      });
      expect(code).toBe(4403);
      await client.dispose();
    }
    const client = createClient({
      url,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${KEY}` },
    });
    const result = await new Promise<unknown>((resolve, reject) => {
      client.subscribe({ query: QUOTA }, { next: resolve, error: reject, complete: () => undefined });
    });
    expect(result).toMatchObject({ data: { quota: { used: expect.any(Number) } } });
    await client.dispose();
  });
});

describe('CSRF, CORS, introspection and GraphiQL', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({
      env: {
        GATEWAY_CORS_ORIGINS: 'https://widgets.example.org',
        GATEWAY_INTROSPECTION: 'false',
        GATEWAY_GRAPHIQL: 'false',
      },
    });
  });
  afterAll(() => stack.close());

  const STANDINGS = '{ v1 { hockey { standings { season } } } }';
  const getUrl = (query: string): string => `${stack.gateway.url}/graphql?query=${encodeURIComponent(query)}`;

  it('a client that is not a browser (no Sec-Fetch-Site, no Origin) runs a GET or a form POST with no special header', async () => {
    const get = await fetch(getUrl(QUOTA));
    expect(get.status).toBe(200);
    expect(((await get.json()) as { data: { quota: { used: number } } }).data.quota.used).toEqual(expect.any(Number));
    const form = await fetch(`${stack.gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `query=${encodeURIComponent(QUOTA)}`,
    });
    expect(form.status).toBe(200);
  });

  it('a cross-site browser request is refused, 403 CSRF_REFUSED saying what and why, with nothing sent upstream', async () => {
    await resetCounts(stack.sandbox.url);
    const formBody = `query=${encodeURIComponent(STANDINGS)}`;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const attempts: Array<[string, RequestInit, { fetchSite: string | null; origin: string | null }]> = [
      // <img src> or a no-cors GET: Fetch Metadata, and no Origin at all.
      [
        '<img> GET',
        { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' } },
        { fetchSite: 'cross-site', origin: null },
      ],
      [
        'form POST',
        {
          method: 'POST',
          headers: { ...form, 'sec-fetch-site': 'cross-site', origin: 'https://evil.example.com' },
          body: formBody,
        },
        { fetchSite: 'cross-site', origin: 'https://evil.example.com' },
      ],
      [
        'no-cors text/plain POST from a browser without Fetch Metadata',
        {
          method: 'POST',
          headers: { 'content-type': 'text/plain', origin: 'https://evil.example.com' },
          body: JSON.stringify({ query: STANDINGS }),
        },
        { fetchSite: null, origin: 'https://evil.example.com' },
      ],
      [
        'a sandboxed frame (Origin: null)',
        { method: 'POST', headers: { ...form, 'sec-fetch-site': 'cross-site', origin: 'null' }, body: formBody },
        { fetchSite: 'cross-site', origin: 'null' },
      ],
      [
        'same-site but not an allowed origin',
        {
          method: 'POST',
          headers: { ...form, 'sec-fetch-site': 'same-site', origin: 'http://api.localhost.example' },
          body: formBody,
        },
        { fetchSite: 'same-site', origin: 'http://api.localhost.example' },
      ],
    ];
    for (const [name, init, evidence] of attempts) {
      const url = init.method === 'POST' ? `${stack.gateway.url}/graphql` : getUrl(STANDINGS);
      const response = await fetch(url, init);
      expect(response.status, name).toBe(403);
      const error = (
        (await response.json()) as { errors: Array<{ message: string; extensions: Record<string, unknown> }> }
      ).errors[0]!;
      expect(error.extensions, name).toMatchObject({ code: 'CSRF_REFUSED', ...evidence });
      expect(error.message, name).toMatch(/^Refused to run a GraphQL operation for a cross-site browser request/);
      expect(error.message, name).toContain(
        evidence.origin === null ? 'from a page of another site' : `from the page origin ${evidence.origin}`,
      );
      expect(error.message, name).toContain('GATEWAY_CORS_ORIGINS');
    }
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('same-origin pages, typed URLs, allowed origins and requests with x-graphql-csrf need nothing else', async () => {
    const allowed: Array<[string, Record<string, string>]> = [
      ['a page of the gateway', { 'sec-fetch-site': 'same-origin', origin: stack.gateway.url }],
      ['the address bar', { 'sec-fetch-site': 'none' }],
      ['a GATEWAY_CORS_ORIGINS page', { 'sec-fetch-site': 'cross-site', origin: 'https://widgets.example.org' }],
      [
        'a page on an allowed host name, another port',
        { 'sec-fetch-site': 'same-site', origin: 'http://localhost:5173' },
      ],
      ['an older browser on a page of the gateway', { origin: stack.gateway.url }],
      [
        'the custom header (a browser sends it only after a CORS preflight)',
        { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example.com', 'x-graphql-csrf': '1' },
      ],
    ];
    for (const [name, headers] of allowed) {
      const response = await fetch(getUrl(QUOTA), { headers });
      expect(response.status, name).toBe(200);
    }
  });

  it('CORS answers only the configured origins', async () => {
    const preflight = (origin: string) =>
      fetch(`${stack.gateway.url}/graphql`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    expect((await preflight('https://widgets.example.org')).headers.get('access-control-allow-origin')).toBe(
      'https://widgets.example.org',
    );
    expect((await preflight('https://evil.example.com')).headers.get('access-control-allow-origin')).not.toBe(
      'https://evil.example.com',
    );
  });

  it('a WebSocket from a foreign origin is refused', async () => {
    const socket = new WebSocket(`${stack.gateway.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', {
      headers: { origin: 'https://evil.example.com' },
    });
    const outcome = await new Promise<string>((resolve) => {
      socket.once('open', () => resolve('open'));
      socket.once('unexpected-response', (_req, res) => resolve(`http ${res.statusCode}`));
      socket.once('error', () => resolve('error'));
    });
    expect(outcome).not.toBe('open');
    socket.terminate();
  });

  it('introspection, GraphiQL and /possible-types.json can be switched off', async () => {
    const introspection = await gql(stack.gateway.url, `{ __schema { types { name } } }`);
    expect(introspection.errors?.[0]?.extensions?.['code']).toBeDefined();
    expect(introspection.data?.['__schema']).toBeUndefined();
    const page = await fetch(`${stack.gateway.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type') ?? '').not.toContain('text/html');
    // The possibleTypes map names the schema's types as introspection does: off with it.
    const possibleTypes = await fetch(`${stack.gateway.url}/possible-types.json`);
    expect(possibleTypes.status).toBe(404);
    expect(await possibleTypes.json()).toMatchObject({ errors: [{ extensions: { code: 'NOT_FOUND' } }] });
  });
});
