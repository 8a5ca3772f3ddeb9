/**
 * Operation limits on HTTP and WebSocket alike, each refused before any
 * upstream request, with messages that do not reveal the limit.
 */
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const LIMITS = {
  LIMIT_MAX_DEPTH: '5',
  LIMIT_MAX_ALIASES: '5',
  LIMIT_MAX_DIRECTIVES: '3',
  LIMIT_MAX_TOKENS: '300',
  LIMIT_MAX_BODY_BYTES: '4096',
  LIMIT_MAX_SUBSCRIPTIONS_PER_SOCKET: '2',
  LIMIT_MAX_WS_MESSAGE_BYTES: '8192',
};

const DEEP = `{ v1 { hockey { athlete(id: 700001) { team { image { url } } } } } }`;
const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: quota { used }`).join(' ')} }`;
const directives = (n: number) => `{ quota { ${['used', 'limit', 'remaining', 'plan', 'resetsAt'].slice(0, n).map((f) => `${f} @include(if: true)`).join(' ')} } }`;

function expectRefused(result: { errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }, limit: string): void {
  expect(result.errors?.length).toBeGreaterThan(0);
  const error = result.errors![0]!;
  expect(typeof error.extensions?.['code']).toBe('string');
  // The message says what was refused, not where the line is.
  expect(error.message).not.toContain(limit);
}

describe('operation limits', () => {
  let stack: TestStack;
  let ws: Client;
  beforeAll(async () => {
    stack = await startStack({ env: LIMITS });
    ws = createClient({ url: `${stack.gateway.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
  });
  afterAll(async () => {
    await ws.dispose();
    await stack.close();
  });
  beforeEach(() => resetCounts(stack.sandbox.url));

  const overWs = (query: string) =>
    new Promise<{ errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }>((resolve, reject) => {
      ws.subscribe({ query }, { next: (r) => resolve(r as never), error: (e) => resolve({ errors: e as never }), complete: () => undefined });
      setTimeout(() => reject(new Error('no answer')), 5_000);
    });

  it('refuses a too-deep query over HTTP and WebSocket, without an upstream request', async () => {
    expectRefused(await gql(stack.gateway.url, DEEP), '5');
    expectRefused(await overWs(DEEP), '5');
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
    const shallow = await gql(stack.gateway.url, `{ quota { used } }`);
    expect(shallow.errors).toBeUndefined();
  });

  it('refuses too many aliases', async () => {
    expect((await gql(stack.gateway.url, aliases(5))).errors).toBeUndefined();
    expectRefused(await gql(stack.gateway.url, aliases(6)), '5');
    expectRefused(await overWs(aliases(6)), '5');
  });

  it('refuses too many directives', async () => {
    expect((await gql(stack.gateway.url, directives(3))).errors).toBeUndefined();
    expectRefused(await gql(stack.gateway.url, directives(4)), '3');
  });

  it('refuses a document with too many tokens', async () => {
    const long = `{ ${Array.from({ length: 400 }, () => '__typename').join(' ')} }`;
    expectRefused(await gql(stack.gateway.url, long), '300');
    expectRefused(await overWs(long), '300');
  });

  it('refuses a request body over the bound with 413', async () => {
    const response = await fetch(`${stack.gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ quota { used } }`, variables: { pad: 'x'.repeat(10_000) } }),
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses batched operations', async () => {
    const response = await fetch(`${stack.gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ query: '{ quota { used } }' }, { query: '{ quota { used } }' }]),
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });

  it('caps subscriptions per socket', async () => {
    const client = createClient({ url: `${stack.gateway.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
    try {
      const outcomes: string[] = [];
      const first = new Promise<void>((resolve) => {
        for (let i = 0; i < 3; i += 1) {
          client.subscribe(
            { query: `subscription { quotaUpdates { used } }` },
            {
              next: (message) => {
                outcomes.push(message.errors === undefined ? 'ok' : String(message.errors[0]?.extensions?.['code']));
                if (outcomes.length >= 3) resolve();
              },
              error: (errors) => {
                outcomes.push(String((errors as Array<{ extensions?: Record<string, unknown> }>)[0]?.extensions?.['code']));
                if (outcomes.length >= 3) resolve();
              },
              complete: () => undefined,
            },
          );
        }
      });
      await first;
      expect(outcomes.filter((o) => o === 'ok')).toHaveLength(2);
      expect(outcomes).toContain('TOO_MANY_SUBSCRIPTIONS');
    } finally {
      await client.dispose();
    }
  });

  it('closes a WebSocket that sends a message over the bound', async () => {
    const socket = new WebSocket(`${stack.gateway.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    await new Promise((resolve) => socket.once('open', resolve));
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { pad: 'x'.repeat(20_000) } }));
    expect(await closed).toBe(1009);
  });
});
