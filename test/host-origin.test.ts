/**
 * Issue 12, "DNS rebinding": HTTP did not check `Host` at all, and a
 * WebSocket whose `Origin` equalled a spoofed `Host` was accepted. Now
 * both are checked against the names the gateway answers for
 * (src/access/allowed-hosts.ts), by name, whatever the port.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ConfigError, loadConfig } from '../src/config.js';
import { defaultAllowedHosts } from '../src/access/allowed-hosts.js';
import { requestCounts, resetCounts } from './support/client.js';
import { sendRaw } from './support/raw-http.js';
import { startStack, type TestStack } from './support/servers.js';

interface Answer {
  status: number;
  body: string;
}

const readBody = (res: IncomingMessage): Promise<Answer> =>
  new Promise((resolve) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
  });

/** A request with any `Host` (fetch will not send a foreign one). */
function withHost(
  port: number,
  host: string,
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: { host, ...init.headers } },
      (res) => void readBody(res).then(resolve),
    );
    req.once('error', reject);
    req.end(init.body);
  });
}

const QUERY = JSON.stringify({ query: '{ v1 { hockey { standings { season } } } }' });
const graphqlPost = { method: 'POST', body: QUERY, headers: { 'content-type': 'application/json' } };
/** The refusal's code in either JSON shape; undefined for a body that is not coded JSON. */
const codeOf = (answer: Answer): unknown => {
  try {
    const body = JSON.parse(answer.body) as {
      errors?: Array<{ extensions?: { code?: string } }>;
      error?: { code?: string };
    };
    return body.errors?.[0]?.extensions?.code ?? body.error?.code;
  } catch {
    return undefined;
  }
};

/** How a WebSocket upgrade ended: `open`, or the refusal's status and code. */
function upgrade(
  port: number,
  headers: Record<string, string>,
): Promise<{ outcome: 'open' } | { outcome: 'refused'; status: number; code: unknown }> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws', { headers });
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      socket.close();
      resolve({ outcome: 'open' });
    });
    socket.once('unexpected-response', (_req, res) => {
      void readBody(res).then((answer) => resolve({ outcome: 'refused', status: answer.status, code: codeOf(answer) }));
    });
    socket.once('error', (error) => {
      // After 'unexpected-response' ws also reports an error; the refusal has already answered.
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}

describe('Host and Origin', () => {
  let stack: TestStack;
  let port: number;
  beforeAll(async () => {
    stack = await startStack({ env: { GATEWAY_CORS_ORIGINS: 'https://widgets.example.org' } });
    port = stack.gateway.port;
  });
  afterAll(() => stack.close());

  it('HTTP for a host name the gateway does not serve is refused with 421 HOST_NOT_ALLOWED before any upstream request; its own names are served on any port', async () => {
    await resetCounts(stack.sandbox.url);
    const refused = await withHost(port, `evil.example:${port}`, '/graphql', graphqlPost);
    expect(refused.status).toBe(421);
    expect(codeOf(refused)).toBe('HOST_NOT_ALLOWED');
    const image = await withHost(port, 'evil.example', '/images/v1/competitors/1');
    expect(image.status).toBe(421);
    // The image routes' own error shape.
    expect(JSON.parse(image.body)).toEqual({ error: { code: 'HOST_NOT_ALLOWED', message: expect.any(String) } });
    expect((await withHost(port, 'evil.example', '/metrics')).status).toBe(421);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);

    for (const host of [`127.0.0.1:${port}`, 'localhost:1234', `[::1]:${port}`, 'LOCALHOST.']) {
      const served = await withHost(port, host, '/graphql', {
        ...graphqlPost,
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(served.status, host).toBe(200);
    }
    // /healthz answers for any name (README: a load balancer's probe).
    expect((await withHost(port, 'evil.example', '/healthz')).status).toBe(200);
  });

  it('a WebSocket whose Origin equals a spoofed Host is refused at the upgrade with 421 HOST_NOT_ALLOWED', async () => {
    expect(await upgrade(port, { host: `evil.example:${port}`, origin: `http://evil.example:${port}` })).toEqual({
      outcome: 'refused',
      status: 421,
      code: 'HOST_NOT_ALLOWED',
    });
  });

  it("a WebSocket from a foreign origin is refused with 403 ORIGIN_NOT_ALLOWED; the gateway's own pages, configured origins and non-browsers connect", async () => {
    expect(await upgrade(port, { origin: 'http://evil.example' })).toEqual({
      outcome: 'refused',
      status: 403,
      code: 'ORIGIN_NOT_ALLOWED',
    });
    expect(await upgrade(port, { origin: 'null' })).toEqual({
      outcome: 'refused',
      status: 403,
      code: 'ORIGIN_NOT_ALLOWED',
    });
    for (const origin of [`http://127.0.0.1:${port}`, 'http://localhost:5173', 'https://widgets.example.org']) {
      expect(await upgrade(port, { origin }), origin).toEqual({ outcome: 'open' });
    }
    expect(await upgrade(port, {})).toEqual({ outcome: 'open' });
  });

  it('an HTTP/1.1 request without Host gets a coded 400', async () => {
    const { response } = await sendRaw(port, { method: 'GET', path: '/healthz', headers: [] });
    expect(response?.status).toBe(400);
    expect(codeOf({ status: 400, body: response!.body.toString('utf8') })).toBe('BAD_HTTP_REQUEST');
  });

  it('GATEWAY_ALLOWED_HOSTS replaces the default names; * allows any host, and then a page may connect only from the Host it was served under', async () => {
    await stack.stopGateway();
    port = (await stack.restartGateway({ GATEWAY_ALLOWED_HOSTS: 'api.example.org, 10.0.0.7' })).port;
    expect((await withHost(port, 'api.example.org:443', '/graphql', graphqlPost)).status).toBe(200);
    expect((await withHost(port, '10.0.0.7', '/graphql', graphqlPost)).status).toBe(200);
    expect((await withHost(port, `127.0.0.1:${port}`, '/graphql', graphqlPost)).status).toBe(421);
    expect(await upgrade(port, { host: 'api.example.org', origin: 'https://api.example.org' })).toEqual({
      outcome: 'open',
    });

    await stack.stopGateway();
    port = (await stack.restartGateway({ GATEWAY_ALLOWED_HOSTS: '*' })).port;
    expect((await withHost(port, 'anything.example', '/graphql', graphqlPost)).status).toBe(200);
    expect(await upgrade(port, { host: 'anything.example', origin: 'http://anything.example:8080' })).toEqual({
      outcome: 'open',
    });
    expect(await upgrade(port, { host: 'anything.example', origin: 'http://evil.example' })).toEqual({
      outcome: 'refused',
      status: 403,
      code: 'ORIGIN_NOT_ALLOWED',
    });
  });
});

describe('the default allowed names', () => {
  it('loopback: the bound address and the loopback names; one address: that address; every interface: each address and the machine name', () => {
    expect(new Set(defaultAllowedHosts('127.0.0.1'))).toEqual(new Set(['127.0.0.1', 'localhost', '::1']));
    expect(defaultAllowedHosts('10.1.2.3')).toEqual(['10.1.2.3']);
    expect(new Set(defaultAllowedHosts('::1'))).toEqual(new Set(['127.0.0.1', 'localhost', '::1']));
    const everywhere = defaultAllowedHosts('0.0.0.0');
    expect(everywhere).toContain(hostname().toLowerCase());
    expect(everywhere).toContain('localhost');
    for (const address of Object.values(networkInterfaces()).flatMap((list) => list ?? [])) {
      expect(everywhere).toContain(address.address.toLowerCase().replace(/%.*$/, ''));
    }
    expect(new Set(defaultAllowedHosts('::'))).toEqual(new Set(everywhere));
  });

  it('GATEWAY_ALLOWED_HOSTS takes names and addresses, not URLs or ports', () => {
    expect(loadConfig({ GATEWAY_ALLOWED_HOSTS: 'api.example.org,*,[::1],10.0.0.7' }).access.allowedHosts).toEqual([
      'api.example.org',
      '*',
      '[::1]',
      '10.0.0.7',
    ]);
    for (const bad of ['https://api.example.org', 'api.example.org:443', 'a b']) {
      expect(() => loadConfig({ GATEWAY_ALLOWED_HOSTS: bad })).toThrow(ConfigError);
    }
  });
});
