/**
 * Operation limits on HTTP and WebSocket alike, each refused before any
 * upstream request, with messages that do not reveal the limit.
 */
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
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
const directives = (n: number) =>
  `{ quota { ${['used', 'limit', 'remaining', 'plan', 'resetsAt']
    .slice(0, n)
    .map((f) => `${f} @include(if: true)`)
    .join(' ')} } }`;

function expectRefused(
  result: { errors?: Array<{ message: string; extensions?: Record<string, unknown> }> },
  limit: string,
): void {
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
    ws = createClient({
      url: `${stack.gateway.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
    });
  });
  afterAll(async () => {
    await ws.dispose();
    await stack.close();
  });
  beforeEach(() => resetCounts(stack.sandbox.url));

  const overWs = (query: string) =>
    new Promise<{ errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }>((resolve, reject) => {
      ws.subscribe(
        { query },
        { next: (r) => resolve(r as never), error: (e) => resolve({ errors: e as never }), complete: () => undefined },
      );
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

  it('every operation-limit refusal (depth, aliases, directives, tokens) answers 400 OPERATION_LIMIT_EXCEEDED, as parse and validation errors answer 400, whatever the accept header', async () => {
    const refusals: Record<string, [string, string]> = {
      depth: [DEEP, 'OPERATION_LIMIT_EXCEEDED'],
      aliases: [aliases(6), 'OPERATION_LIMIT_EXCEEDED'],
      directives: [directives(4), 'OPERATION_LIMIT_EXCEEDED'],
      // Over 300 tokens, under the 4 KiB body bound.
      tokens: [`{ ${Array.from({ length: 320 }, () => '__typename').join(' ')} }`, 'OPERATION_LIMIT_EXCEEDED'],
      parse: ['{ quota {', 'GRAPHQL_PARSE_FAILED'],
      validation: ['{ nope }', 'GRAPHQL_VALIDATION_FAILED'],
    };
    const seen: string[] = [];
    const messages: string[] = [];
    for (const accept of ['application/graphql-response+json', 'application/json']) {
      for (const [name, [query]] of Object.entries(refusals)) {
        const answer = await gql(stack.gateway.url, query, undefined, { accept });
        seen.push(`${accept} ${name}: ${answer.status} ${String(answer.errors?.[0]?.extensions?.['code'])}`);
        messages.push(answer.errors?.[0]?.message ?? '');
      }
    }
    expect(seen).toEqual(
      ['application/graphql-response+json', 'application/json'].flatMap((accept) =>
        Object.entries(refusals).map(([name, [, code]]) => `${accept} ${name}: 400 ${code}`),
      ),
    );
    // A limit is not a syntax error (GraphQL Armor words its refusals as one).
    expect(messages.filter((message) => message.startsWith('Syntax Error: Operation refused'))).toEqual([]);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it("yoga's bodiless refusals carry a code: 404 NOT_FOUND, 405 METHOD_NOT_ALLOWED, 406 NOT_ACCEPTABLE, 415 UNSUPPORTED_MEDIA_TYPE", async () => {
    const body = JSON.stringify({ query: '{ __typename }' });
    const answers = {
      NOT_FOUND: await fetch(`${stack.gateway.url}/nowhere`),
      METHOD_NOT_ALLOWED: await fetch(`${stack.gateway.url}/graphql`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body,
      }),
      NOT_ACCEPTABLE: await fetch(`${stack.gateway.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'image/png' },
        body,
      }),
      UNSUPPORTED_MEDIA_TYPE: await fetch(`${stack.gateway.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'image/png' },
        body,
      }),
    };
    const statuses = { NOT_FOUND: 404, METHOD_NOT_ALLOWED: 405, NOT_ACCEPTABLE: 406, UNSUPPORTED_MEDIA_TYPE: 415 };
    for (const [code, response] of Object.entries(answers)) {
      expect(response.status).toBe(statuses[code as keyof typeof statuses]);
      expect(
        ((await response.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code,
      ).toBe(code);
    }
  });

  it('refuses a request body over the bound with 413', async () => {
    const response = await fetch(`${stack.gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ quota { used } }`, variables: { pad: 'x'.repeat(10_000) } }),
    });
    expect(response.status).toBe(413);
    expect(
      ((await response.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code,
    ).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses a chunked body (no content-length) that grows over the bound with 413, on /graphql and /subgraph, before any upstream request', async () => {
    // The only body bound: yoga's own is off (src/gateway/graphql-yoga.ts), so this is what stops a body that never declares its length.
    await resetCounts(stack.sandbox.url);
    for (const path of ['/graphql', '/subgraph']) {
      const text = JSON.stringify({ query: `{ quota { used } }`, variables: { pad: 'x'.repeat(10_000) } });
      const chunks = [text.slice(0, 3_000), text.slice(3_000)];
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const chunk = chunks.shift();
          if (chunk === undefined) controller.close();
          else controller.enqueue(new TextEncoder().encode(chunk));
        },
      });
      const response = await fetch(`${stack.gateway.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(response.status).toBe(413);
      expect(
        ((await response.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code,
      ).toBe('PAYLOAD_TOO_LARGE');
    }
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
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
    const client = createClient({
      url: `${stack.gateway.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
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
                outcomes.push(
                  String((errors as Array<{ extensions?: Record<string, unknown> }>)[0]?.extensions?.['code']),
                );
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

  it("closes a WebSocket that sends a message over the bound, logging it as the client's fault rather than an internal error trace", async () => {
    // graphql-ws prints socket errors with console.error; a client's oversized message must not reach it.
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const socket = new WebSocket(`${stack.gateway.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
      await new Promise((resolve) => socket.once('open', resolve));
      const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
      socket.send(JSON.stringify({ type: 'connection_init', payload: { pad: 'x'.repeat(20_000) } }));
      expect(await closed).toBe(1009);
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
    expect(
      stack.logs.some(
        (line) => line.includes('"code":"WS_ERR_UNSUPPORTED_MESSAGE_LENGTH"') && line.includes('broke the protocol'),
      ),
    ).toBe(true);
  });
});
