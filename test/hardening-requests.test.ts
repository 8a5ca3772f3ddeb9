/**
 * Issue 12, "one request ends the process": no single request, over HTTP,
 * SSE or graphql-ws, ends or wedges the gateway. The gateway runs as a
 * child process (dist/main.js, keys off and the result cache on: the
 * defaults), so that a crash is an exit the test sees.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { guarded, guardRequests } from '../src/transport/http/request-guard.js';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process.js';
import { sendRaw } from './support/raw-http.js';

/** JSON text of an object nested `depth` levels deep, built as text: JSON.stringify would overflow here too. */
const nestedObject = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const nestedArray = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

interface CodedBody {
  data?: unknown;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
}

const codesOf = (body: CodedBody): Array<string | undefined> =>
  (body.errors ?? []).map((error) => error.extensions?.code);

describe('a request cannot end the process', () => {
  let gateway: GatewayProcess;
  beforeAll(async () => {
    gateway = await startGatewayProcess();
  });
  afterAll(() => gateway.stop());

  const expectAlive = async (): Promise<void> => {
    expect(gateway.exit(), gateway.tail()).toBeUndefined();
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
  };

  const post = (body: string, headers: Array<[string, string]> = []) =>
    sendRaw(gateway.port, {
      method: 'POST',
      path: '/graphql',
      headers: [
        ['host', `127.0.0.1:${gateway.port}`],
        ['content-type', 'application/json'],
        ['content-length', String(Buffer.byteLength(body))],
        ...headers,
      ],
      body: Buffer.from(body),
    });

  it('a POST whose variables nest 4,500 levels deep is refused with 400 VARIABLES_TOO_DEEP, with and without Origin, and the process stays up', async () => {
    const body = `{"query":"{ __typename }","variables":${nestedObject(4_500)}}`;
    // No Origin: the result-cache fast path reads it first (it used to make its cache key and crash).
    const plain = await post(body);
    // With Origin: yoga reads it (it used to answer 500).
    const withOrigin = await post(body, [['origin', `http://127.0.0.1:${gateway.port}`]]);
    for (const { response } of [plain, withOrigin]) {
      expect(response?.status).toBe(400);
      expect(codesOf(JSON.parse(response!.body.toString('utf8')) as CodedBody)).toEqual(['VARIABLES_TOO_DEEP']);
    }
    await expectAlive();
  });

  it('GET, SSE and deep extensions are refused the same way', async () => {
    const get = await sendRaw(gateway.port, {
      method: 'GET',
      // Arrays inside an object: 9 KB, under Node's 16 KiB bound on the request line and headers.
      path: `/graphql?query=${encodeURIComponent('{ __typename }')}&variables=${encodeURIComponent('{"a":')}${nestedArray(4_500)}${encodeURIComponent('}')}`,
      headers: [
        ['host', `127.0.0.1:${gateway.port}`],
        ['x-graphql-csrf', '1'],
      ],
    });
    expect(get.response?.status).toBe(400);
    expect(codesOf(JSON.parse(get.response!.body.toString('utf8')) as CodedBody)).toEqual(['VARIABLES_TOO_DEEP']);

    const sse = await post(`{"query":"{ __typename }","variables":${nestedObject(4_500)}}`, [
      ['accept', 'text/event-stream'],
    ]);
    expect(sse.response?.status).toBe(400);
    const event = sse
      .response!.body.toString('utf8')
      .split('\n')
      .find((line) => line.startsWith('data: {'));
    expect(codesOf(JSON.parse(event!.slice('data: '.length)) as CodedBody)).toEqual(['VARIABLES_TOO_DEEP']);

    const extensions = await post(`{"query":"{ __typename }","extensions":${nestedObject(4_500)}}`);
    expect(extensions.response?.status).toBe(400);
    expect(codesOf(JSON.parse(extensions.response!.body.toString('utf8')) as CodedBody)).toEqual([
      'EXTENSIONS_TOO_DEEP',
    ]);
    await expectAlive();
  });

  it('variables holding more values than the bound are refused with VARIABLES_TOO_LARGE; ordinary variables still run', async () => {
    const large = await post(
      `{"query":"{ __typename }","variables":{"ids":[${Array.from({ length: 20_000 }, () => '0').join(',')}]}}`,
    );
    expect(large.response?.status).toBe(400);
    expect(codesOf(JSON.parse(large.response!.body.toString('utf8')) as CodedBody)).toEqual(['VARIABLES_TOO_LARGE']);

    const ordinary = JSON.stringify({
      query: 'query Q($skip: Boolean!) { __typename @skip(if: $skip) }',
      variables: { skip: false, deeper: { a: [{ b: [1, 2] }] } },
    });
    for (let i = 0; i < 2; i += 1) {
      // Twice: the second is a result-cache hit, answered by the fast path.
      const answer = await post(ordinary);
      expect(answer.response?.status).toBe(200);
      expect((JSON.parse(answer.response!.body.toString('utf8')) as CodedBody).data).toEqual({ __typename: 'Query' });
    }
  });

  it('graphql-ws: a subscribe with 4,500-deep variables gets VARIABLES_TOO_DEEP; a 4,500-deep ping payload closes the socket with 4400, not 4500', async () => {
    const socket = new WebSocket(`${gateway.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const messages: Array<{ type: string; id?: string; payload?: unknown }> = [];
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    // The first message that matches, or `closed` when the socket closes first.
    const arrived = (matches: (message: { type: string; id?: string }) => boolean) =>
      new Promise<{ type: string; payload?: unknown }>((resolve) => {
        const look = (): void => {
          const found = messages.find(matches);
          if (found !== undefined) resolve(found);
          else socket.once('message', look);
        };
        void closed.then((code) => resolve({ type: 'closed', payload: code }));
        look();
      });
    socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString('utf8')) as { type: string }));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send('{"type":"connection_init"}');
    await arrived((message) => message.type === 'connection_ack');
    socket.send(
      `{"type":"subscribe","id":"1","payload":{"query":"{ __typename }","variables":${nestedObject(4_500)}}}`,
    );
    // Whatever answers subscription 1 (it used to be a `next` with an internal error).
    const refused = await arrived((message) => message.id === '1');
    expect(refused.type).toBe('error');
    expect(
      (refused.payload as Array<{ extensions?: { code?: string } }>).map((error) => error.extensions?.code),
    ).toEqual(['VARIABLES_TOO_DEEP']);

    socket.send(`{"type":"ping","payload":${nestedObject(4_500)}}`);
    expect(await closed).toBe(4400);
    await expectAlive();
  });
});

describe('found by the raw fuzz test (test/fuzz-raw.test.ts) and while writing it', () => {
  let gateway: GatewayProcess;
  beforeAll(async () => {
    gateway = await startGatewayProcess();
  });
  afterAll(() => gateway.stop());

  /** Opens a graphql-ws socket, acknowledged, and collects what it receives. */
  async function openSocket(): Promise<{ socket: WebSocket; messages: string[]; closed: Promise<number> }> {
    const socket = new WebSocket(`${gateway.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const messages: string[] = [];
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    const acknowledged = new Promise<void>((resolve) =>
      socket.on('message', (data: Buffer) => {
        messages.push(data.toString('utf8'));
        if (messages.length === 1) resolve();
      }),
    );
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send('{"type":"connection_init"}');
    await acknowledged;
    return { socket, messages, closed };
  }

  it('a mutation (the schema has none) is refused at validation with 400, not a 500 from the compiled executor', async () => {
    const response = await fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation { nope }' }),
    });
    expect(response.status).toBe(400);
    expect(codesOf((await response.json()) as CodedBody)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });

  it('a WebSocket upgrade to another path, or a malformed one, gets a coded refusal (ws answered a bare 400)', async () => {
    const upgrade = (path: string, method: string, headers: Array<[string, string]>) =>
      sendRaw(gateway.port, {
        method,
        path,
        headers: [
          ['host', `127.0.0.1:${gateway.port}`],
          ['connection', 'Upgrade'],
          ['upgrade', 'websocket'],
          ['sec-websocket-version', '13'],
          ...headers,
        ],
      });
    const key: [string, string] = ['sec-websocket-key', 'dGhlIHNhbXBsZSBub25jZQ=='];
    const answers = {
      'other path': await upgrade('/nowhere', 'GET', [key]),
      'no key': await upgrade('/graphql', 'GET', []),
      POST: await upgrade('/graphql', 'POST', [key]),
    };
    const seen = Object.fromEntries(
      Object.entries(answers).map(([name, { response }]) => [
        name,
        `${response?.status} ${String(codesOf(JSON.parse(response?.body.toString('utf8') ?? '{}') as CodedBody)[0])}`,
      ]),
    );
    expect(seen).toEqual({
      'other path': '404 NOT_FOUND',
      'no key': '400 BAD_WEBSOCKET_UPGRADE',
      POST: '405 METHOD_NOT_ALLOWED',
    });
    expect((await upgrade('/graphql', 'GET', [key])).response?.status).toBe(101);
  });

  it('a POST with `connection: Upgrade`, an empty `upgrade` header and no body is answered, whatever its encoding (yoga reads no body stream through its own limit: src/transport/http/body-limit.ts)', async () => {
    // An empty `upgrade` names no protocol, so Node hands it to the request listener as a plain POST with no
    // body. With yoga's own body limit off the front door bounds bodies; this is the raw fuzz test's case
    // (test/fuzz-raw.test.ts: its upgrade headers, any content encoding) that hung when the limit was first turned off.
    const seen: Record<string, string> = {};
    for (const encoding of [undefined, 'gzip', 'deflate', 'br', 'identity', 'x-unknown']) {
      const answered = await sendRaw(gateway.port, {
        method: 'POST',
        path: '/graphql',
        headers: [
          ['host', `127.0.0.1:${gateway.port}`],
          ['content-type', 'application/json'],
          ['origin', `http://127.0.0.1:${gateway.port}`],
          ...(encoding === undefined ? [] : ([['content-encoding', encoding]] as Array<[string, string]>)),
          ['connection', 'Upgrade'],
          ['upgrade', ''],
          ['sec-websocket-version', '13'],
          ['sec-websocket-key', 'dGhlIHNhbXBsZSBub25jZQ=='],
        ],
      });
      const status = answered.response?.status ?? 0;
      seen[encoding ?? 'none'] = status > 0 && status < 500 ? 'answered' : `status ${status}`;
    }
    expect(seen).toEqual({
      none: 'answered',
      gzip: 'answered',
      deflate: 'answered',
      br: 'answered',
      identity: 'answered',
      'x-unknown': 'answered',
    });
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
  });

  it('graphql-ws: a client message of a server-only type (next) closes the socket with 4400, not 4500', async () => {
    const { socket, closed } = await openSocket();
    socket.send('{"type":"next","id":"1","payload":{}}');
    expect(await closed).toBe(4400);
  });

  it('graphql-ws: an operationName that names no operation in the document gets a coded OPERATION_RESOLUTION_FAILURE', async () => {
    const { socket, messages, closed } = await openSocket();
    const answered = new Promise<void>((resolve) => socket.on('message', () => resolve()));
    socket.send(
      JSON.stringify({
        type: 'subscribe',
        id: '1',
        payload: { query: 'query A { __typename } query B { __typename }', operationName: null },
      }),
    );
    await answered;
    expect(JSON.parse(messages[1]!)).toMatchObject({
      id: '1',
      type: 'error',
      payload: [{ extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } }],
    });
    socket.close(1000);
    await closed;
  });
});

describe('the request guard', () => {
  it('a throw in a handler before yoga, now or in a later callback, is a coded 500 on that request, and the server keeps serving', async () => {
    const reported: string[] = [];
    const listener = (req: IncomingMessage, res: ServerResponse): void => {
      if (req.url === '/throws-now') throw new Error('thrown in the listener');
      if (req.url === '/throws-later') {
        req.on(
          'end',
          guarded(
            req,
            res,
            (error) => reported.push(String(error)),
            () => {
              throw new Error('thrown in an end callback');
            },
          ),
        );
        req.resume();
        return;
      }
      res.end('ok');
    };
    const server = createServer(guardRequests(listener, (error) => reported.push(String(error))));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      for (const path of ['/throws-now', '/throws-later']) {
        const response = await fetch(`http://127.0.0.1:${port}${path}`);
        expect(response.status).toBe(500);
        expect(codesOf((await response.json()) as CodedBody)).toEqual(['INTERNAL_SERVER_ERROR']);
      }
      expect(await (await fetch(`http://127.0.0.1:${port}/fine`)).text()).toBe('ok');
      expect(reported).toEqual(['Error: thrown in the listener', 'Error: thrown in an end callback']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
