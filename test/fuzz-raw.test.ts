/**
 * Issue 12, item 1: raw requests that no client library would send, to a
 * gateway running as a child process (dist/main.js, default settings: keys
 * off, result cache on, so the fast path sees them first), over HTTP and over
 * graphql-ws. Bodies: deep nesting (up to 40,000 levels), huge numbers, odd
 * Unicode, invalid UTF-8, wrong types in every position of
 * `{query, variables, operationName, extensions}`; headers: content type,
 * accept, origin, host, a `content-length` that lies, encodings. Whatever
 * arrives, the process stays up and every answer is coded: GraphQL
 * `errors[].extensions.code` (never INTERNAL_SERVER_ERROR), or the JSON
 * refusal body of the image routes, or data; graphql-ws errors are coded and
 * its sockets close with protocol codes, never 4500.
 *
 * CI: fixed seed, bounded runs (FUZZ_SEED / FUZZ_RUNS for a longer hunt).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process.js';
import { sendRaw, type RawRequest, type RawResponse } from './support/raw-http.js';

/**
 * fc.assert, with a failure reported by its own message only: a counterexample
 * holds bodies of 40,000 nested brackets, too long to print. The message
 * shows the request and the answer, cut short, and the seed and path
 * replay it.
 */
async function assertProperty<T>(property: fc.IAsyncPropertyWithHooks<[T]>, numRuns: number): Promise<void> {
  const details = await fc.check(property, { seed: SEED, numRuns, endOnFailure: true });
  if (!details.failed) return;
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    `failed after ${details.numRuns} runs (seed ${details.seed}, path "${details.counterexamplePath ?? ''}"): ${cause.slice(0, 4_000)}`,
  );
}

const SEED = Number(process.env['FUZZ_SEED'] ?? 20_261_212);
const HTTP_RUNS = Number(process.env['FUZZ_RUNS'] ?? 200);
const WS_RUNS = Math.ceil(HTTP_RUNS / 3);

// ---- JSON text, built as text: the deep values cannot be made with JSON.stringify.

const deep = fc
  .record({
    depth: fc.oneof(
      fc.integer({ min: 1, max: 40 }),
      fc.integer({ min: 1, max: 5_000 }),
      fc.integer({ min: 1, max: 40_000 }),
    ),
    shape: fc.constantFrom('object', 'array', 'mixed'),
  })
  .map(({ depth, shape }) => {
    if (shape === 'array') return `${'['.repeat(depth)}${']'.repeat(depth)}`;
    if (shape === 'object') return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    return `${'{"a":['.repeat(depth)}0${']}'.repeat(depth)}`;
  });
/** Deep values where an object is expected, so that they reach the bounds rather than the type check. */
const deepInObject = deep.map((text) => `{"v":${text}}`);
const hugeNumber = fc.constantFrom(
  '1e400',
  '-1e400',
  '1e-400',
  '123456789012345678901234567890',
  '9007199254740993',
  '-0',
  '0.1e999999999',
);
const oddString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }).map((text) => JSON.stringify(text)),
  fc.constantFrom(
    '"\\ud800"',
    '"\\udfff\\ud800"',
    '"\\u0000"',
    '"\\u2028\\u2029"',
    '"\\ufeff"',
    '"\\u202e"',
    '"𝕏👩‍👩‍👧"',
    '"\\\\"',
  ),
);
const flatArray = fc.integer({ min: 0, max: 60_000 }).map((n) => `[${Array.from({ length: n }, () => '0').join(',')}]`);
const smallJson = fc.json({ maxDepth: 4 });
const queryText = fc.constantFrom(
  '"{ __typename }"',
  '"{ quota { used limit remaining } }"',
  '"query Q($skip: Boolean!) { __typename @skip(if: $skip) }"',
  '"query A { __typename } query B { quota { used } }"',
  '"mutation { nope }"',
  '"{ __schema { queryType { name } } }"',
  `"{ ${Array.from({ length: 31 }, (_, i) => `a${i}: __typename`).join(' ')} }"`,
  `"{ __schema { types { ${'ofType { '.repeat(20)}name${' }'.repeat(20)} } } }"`,
  '"{ sports { sport slugs { v1 v2 } } }"',
  '"{"',
  '""',
);
const anyValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: queryText },
  { weight: 2, arbitrary: deep },
  { weight: 2, arbitrary: smallJson },
  { weight: 1, arbitrary: hugeNumber },
  { weight: 2, arbitrary: oddString },
  { weight: 1, arbitrary: flatArray },
  { weight: 1, arbitrary: fc.constantFrom('null', 'true', '0', '[]', '{}', '{"skip":false}', '{"skip":"no"}') },
);

/** Mostly `usual`, sometimes one of `rare`: requests that all fail at the door would test nothing behind it. */
const mostly = <T>(usual: fc.Arbitrary<T>, ...rare: Array<fc.Arbitrary<T>>): fc.Arbitrary<T> =>
  fc.oneof({ weight: 10 * rare.length, arbitrary: usual }, ...rare.map((arbitrary) => ({ weight: 1, arbitrary })));
const some = <T>(...values: T[]): fc.Arbitrary<T> => fc.constantFrom(...values);

/** `{query, variables, operationName, extensions}`, each present or not, holding any kind of value; sometimes a stray or repeated key. */
const operationObject = fc
  .record({
    query: fc.option(mostly(queryText, anyValue), { nil: undefined, freq: 8 }),
    variables: fc.option(mostly(some('{"skip":false}', '{}', 'null'), anyValue, deepInObject, deepInObject), {
      nil: undefined,
      freq: 2,
    }),
    operationName: fc.option(mostly(some('null'), some('"A"'), anyValue), { nil: undefined, freq: 2 }),
    extensions: fc.option(mostly(some('{}', 'null'), anyValue, deepInObject), { nil: undefined, freq: 2 }),
    stray: mostly<string | undefined>(fc.constant(undefined), some('"__proto__"', '"query"', '"batch"')),
  })
  .map((fields) => {
    const { stray, ...known } = fields;
    const members = Object.entries(known)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([key, value]) => `"${key}":${value}`);
    if (stray !== undefined) members.push(`${stray}:${known.query ?? '1'}`);
    return `{${members.join(',')}}`;
  });

const invalidUtf8 = fc
  .uint8Array({ minLength: 1, maxLength: 8 })
  .map((bytes) => Buffer.from([0xff, 0xc3, 0x28, ...bytes]));
const body: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 6, arbitrary: operationObject.map((text) => Buffer.from(text)) },
  {
    weight: 1,
    arbitrary: fc.array(operationObject, { maxLength: 3 }).map((items) => Buffer.from(`[${items.join(',')}]`)),
  },
  { weight: 1, arbitrary: anyValue.map((text) => Buffer.from(text)) },
  {
    weight: 1,
    arbitrary: invalidUtf8.map((bad) =>
      Buffer.concat([Buffer.from('{"query":"{ __typename } '), bad, Buffer.from('"}')]),
    ),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 2_000 }).map((bytes) => Buffer.from(bytes)) },
);

// ---- HTTP requests around the bodies.

const header = (usual: string | undefined, ...rare: string[]): fc.Arbitrary<string | undefined> =>
  mostly<string | undefined>(fc.constant(usual), fc.constantFrom(...rare));
const httpCase = fc.record({
  method: mostly(some('POST'), some('GET')),
  path: mostly(some('/graphql'), some('/graphql?x=1', '/healthz', '/nowhere')),
  body,
  getParams: fc.record(
    { query: mostly(queryText, anyValue), variables: anyValue, operationName: anyValue, extensions: anyValue },
    { requiredKeys: ['query'] },
  ),
  contentType: header(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=utf-16',
    'application/graphql-response+json',
    'application/graphql',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'image/png',
    '',
    ';;;',
  ),
  accept: fc.oneof(
    fc.constant(undefined),
    header(
      'application/json',
      'application/graphql-response+json',
      'text/event-stream',
      'multipart/mixed',
      'text/html',
      '*/*',
      'image/png',
      'application/json;charset=latin1',
      '',
    ),
  ),
  origin: header(undefined, 'same', 'http://evil.example', 'null', 'garbage'),
  host: mostly(some('own'), some('localhost', 'evil.example', 'missing')),
  length: mostly(some('exact'), some('chunked'), some('shorter', 'longer'), some('bogus', 'twice')),
  encoding: header(undefined, 'gzip', 'deflate', 'br', 'identity', 'x-unknown'),
  csrf: fc.boolean(),
  /** A WebSocket upgrade, well-formed or not, now and then. */
  upgrade: mostly<{ protocol: string; key: string | undefined; version: string; method: string } | undefined>(
    fc.constant(undefined),
    fc.record({
      protocol: some('websocket', 'h2c', 'WebSocket', ''),
      key: some<string | undefined>('dGhlIHNhbXBsZSBub25jZQ==', 'not-a-key', undefined),
      version: some('13', '8', '7', 'x'),
      method: some('GET', 'GET', 'POST'),
    }),
  ),
  extra: fc.option(
    fc.tuple(
      fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
      fc.string({ maxLength: 40 }).map((text) => text.replace(/[\r\n\0]/g, '')),
    ),
    { nil: undefined },
  ),
});
type HttpCase = typeof httpCase extends fc.Arbitrary<infer T> ? T : never;

/** Every byte of the UTF-8 form percent-encoded (encodeURIComponent throws on a lone surrogate). */
const percentEncoded = (text: string): string =>
  [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

function rawRequest(port: number, c: HttpCase): RawRequest {
  const headers: Array<[string, string]> = [];
  if (c.host === 'own') headers.push(['host', `127.0.0.1:${port}`]);
  else if (c.host !== 'missing') headers.push(['host', c.host]);
  if (c.contentType !== undefined) headers.push(['content-type', c.contentType]);
  if (c.accept !== undefined) headers.push(['accept', c.accept]);
  if (c.origin !== undefined) headers.push(['origin', c.origin === 'same' ? `http://127.0.0.1:${port}` : c.origin]);
  if (c.encoding !== undefined) headers.push(['content-encoding', c.encoding]);
  if (c.csrf) headers.push(['x-graphql-csrf', '1']);
  if (
    c.extra !== undefined &&
    !['host', 'content-length', 'transfer-encoding', 'connection', 'expect', 'upgrade'].includes(c.extra[0])
  )
    headers.push(c.extra);
  if (c.upgrade !== undefined) {
    headers.push(
      ['connection', 'Upgrade'],
      ['upgrade', c.upgrade.protocol],
      ['sec-websocket-version', c.upgrade.version],
    );
    if (c.upgrade.key !== undefined) headers.push(['sec-websocket-key', c.upgrade.key]);
    return { method: c.upgrade.method, path: c.path, headers };
  }
  if (c.method === 'GET') {
    const query = Object.entries(c.getParams)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(
        ([key, value]) =>
          `${key}=${percentEncoded(key === 'query' && value.startsWith('"') ? (JSON.parse(value) as string) : value)}`,
      )
      .join('&');
    return { method: 'GET', path: `/graphql?${query}`, headers };
  }
  let payload = c.body;
  let endAfterSend = false;
  switch (c.length) {
    case 'exact':
      headers.push(['content-length', String(payload.length)]);
      break;
    case 'shorter':
      headers.push(['content-length', String(Math.floor(payload.length / 2))]);
      break;
    case 'longer':
      // The server waits for bytes that never come; the end of the stream tells it they will not.
      headers.push(['content-length', String(payload.length + 10)]);
      endAfterSend = true;
      break;
    case 'chunked':
      headers.push(['transfer-encoding', 'chunked']);
      payload = Buffer.concat([
        Buffer.from(`${payload.length.toString(16)}\r\n`),
        payload,
        Buffer.from('\r\n0\r\n\r\n'),
      ]);
      break;
    case 'bogus':
      headers.push(['content-length', '12abc']);
      break;
    case 'twice':
      headers.push(['content-length', String(payload.length)], ['content-length', String(payload.length + 1)]);
      break;
  }
  return { method: c.method, path: c.path, headers, body: payload, endAfterSend };
}

// ---- What every answer must be.

interface ErrorLike {
  message?: unknown;
  extensions?: { code?: unknown };
}

/** Throws unless `body` is coded JSON: data, coded GraphQL errors, the image routes' `{error: {code}}`, or /healthz's status. */
function expectCodedJson(text: string, where: () => string): void {
  let body: { data?: unknown; errors?: ErrorLike[]; error?: { code?: unknown }; status?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new Error(`not JSON${where()}`);
  }
  if (Array.isArray(body.errors)) {
    for (const error of body.errors) {
      const code = error.extensions?.code;
      if (typeof code !== 'string' || code === '') throw new Error(`an error without a code${where()}`);
      if (code === 'INTERNAL_SERVER_ERROR') throw new Error(`an unexpected exception${where()}`);
    }
    return;
  }
  if (typeof body.error?.code === 'string') return;
  if ('data' in body || body.status === 'ok') return;
  throw new Error(`neither data nor a coded error${where()}`);
}

/** Throws unless the answer is coded; returns its status and first code (or `data`), for the run's statistics. */
function expectCodedAnswer(response: RawResponse | undefined, request: RawRequest): string {
  const where = (): string =>
    `\n${request.method} ${request.path.slice(0, 300)} ${JSON.stringify(request.headers)}\n${(request.body ?? Buffer.alloc(0)).toString('utf8').slice(0, 300)}\n-> ${response?.status ?? 'no answer'} ${JSON.stringify(response?.headers ?? {})} ${response?.body.toString('utf8').slice(0, 600) ?? ''}`;
  if (response === undefined) throw new Error(`no answer${where()}`);
  if (response.status >= 500) throw new Error(`status ${response.status}${where()}`);
  if (response.status === 101) return '101 upgraded';
  const type = response.headers['content-type'] ?? '';
  const text = response.body.toString('utf8');
  if (type.startsWith('text/html') && response.status === 200) return '200 html';
  let bodies = [text];
  if (type.startsWith('text/event-stream')) {
    bodies = text
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => line.slice('data: '.length));
    if (bodies.length === 0) throw new Error(`an event stream without an event${where()}`);
  } else if (type.startsWith('multipart/mixed')) {
    bodies = text
      .split(/\r\n\r\n/)
      .slice(1)
      .map((part) => part.split('\r\n---')[0] ?? '')
      .filter((part) => part.startsWith('{'));
    if (bodies.length === 0) throw new Error(`a multipart answer without a part${where()}`);
  }
  if (response.headers['content-type'] === undefined && response.status === 204) return '204';
  for (const body of bodies) expectCodedJson(body, where);
  const first = JSON.parse(bodies[0] ?? '{}') as { errors?: ErrorLike[]; error?: { code?: unknown } };
  return `${response.status} ${String(first.errors?.[0]?.extensions?.code ?? first.error?.code ?? 'data')}${process.env['FUZZ_MESSAGES'] ? String(first.errors?.[0]?.message).slice(0, 60) : ''}`;
}

// ---- graphql-ws.

const wsMessage: fc.Arbitrary<{ data: Buffer; binary: boolean }> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record(
        {
          type: fc.constantFrom(
            '"subscribe"',
            '"subscribe"',
            '"ping"',
            '"pong"',
            '"complete"',
            '"connection_init"',
            '"next"',
            '"error"',
            '"nope"',
            '5',
            'null',
          ),
          id: fc.constantFrom('"1"', '"2"', '"__proto__"', '7', '""', 'null'),
          payload: fc.oneof(operationObject, anyValue),
        },
        { requiredKeys: ['type'] },
      )
      .map((fields) => ({
        data: Buffer.from(
          `{${Object.entries(fields)
            .map(([key, value]) => `"${key}":${value}`)
            .join(',')}}`,
        ),
        binary: false,
      })),
  },
  { weight: 1, arbitrary: anyValue.map((text) => ({ data: Buffer.from(text), binary: false })) },
  { weight: 1, arbitrary: invalidUtf8.map((data) => ({ data, binary: false })) },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ data: Buffer.from(bytes), binary: true })),
  },
);
const wsCase = fc.record({
  protocol: fc.constantFrom(
    'graphql-transport-ws',
    'graphql-transport-ws',
    'graphql-transport-ws',
    'graphql-ws',
    'nope',
  ),
  origin: header(undefined, 'same', 'http://evil.example'),
  host: fc.constantFrom('own', 'own', 'own', 'evil.example'),
  init: fc.constantFrom(true, true, true, false),
  messages: fc.array(wsMessage, { minLength: 1, maxLength: 6 }),
});
type WsCase = typeof wsCase extends fc.Arbitrary<infer T> ? T : never;

/** graphql-ws close codes, ws's protocol ones, and ours: anything else (4500, 1011) is an internal error. */
const protocolCloseCodes = new Set([1000, 1005, 1002, 1007, 1009, 4400, 4401, 4403, 4406, 4409, 4429]);

async function runWsCase(gateway: GatewayProcess, c: WsCase, marker: number): Promise<void> {
  const headers: Record<string, string> = {};
  if (c.host !== 'own') headers['host'] = c.host;
  if (c.origin !== undefined) headers['origin'] = c.origin === 'same' ? gateway.url : c.origin;
  // Another subprotocol goes as a plain header: the ws client would fail on its own when the server picks none.
  const url = `${gateway.url.replace('http', 'ws')}/graphql`;
  if (c.protocol !== 'graphql-transport-ws') headers['sec-websocket-protocol'] = c.protocol;
  const socket =
    c.protocol === 'graphql-transport-ws'
      ? new WebSocket(url, c.protocol, { headers })
      : new WebSocket(url, { headers });
  const received: string[] = [];
  const where = (): string =>
    `\n${c.protocol} origin=${String(c.origin)} host=${c.host} init=${String(c.init)}\n-> ${c.messages
      .map((message) => `${message.binary ? '(binary) ' : ''}${message.data.toString('utf8').slice(0, 200)}`)
      .join('\n-> ')}\n<- ${received.join('\n<- ').slice(0, 2_000)}`;
  const opened = await new Promise<{ ok: true } | { ok: false; status: number; body: string }>((resolve, reject) => {
    socket.once('open', () => resolve({ ok: true }));
    socket.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ ok: false, status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    socket.once('error', (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
  if (!opened.ok) {
    if (opened.status >= 500) throw new Error(`upgrade answered ${opened.status}${where()}`);
    expectCodedJson(opened.body, where);
    return;
  }
  let closedBy: number | undefined;
  const closed = new Promise<void>((resolve) =>
    socket.once('close', (code) => {
      closedBy = code;
      resolve();
    }),
  );
  // The marker's pong says every message sent before it has been read (graphql-ws echoes a ping's payload).
  const settled = new Promise<void>((resolve) => {
    socket.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      received.push(text);
      if (text.includes(`"fuzzMarker":${marker}`)) resolve();
    });
    void closed.then(resolve);
  });
  if (c.init) socket.send('{"type":"connection_init"}');
  for (const message of c.messages) {
    if (socket.readyState !== WebSocket.OPEN) break;
    socket.send(message.data, { binary: message.binary });
  }
  if (socket.readyState === WebSocket.OPEN)
    socket.send(JSON.stringify({ type: 'ping', payload: { fuzzMarker: marker } }));
  await settled;
  const serverClosed = closedBy;
  socket.close(1000);
  await closed;

  for (const text of received) {
    let message: { type?: unknown; payload?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      throw new Error(`a message that is not JSON${where()}`);
    }
    if (!['connection_ack', 'next', 'error', 'complete', 'ping', 'pong'].includes(String(message.type)))
      throw new Error(`an unknown message type${where()}`);
    if (message.type === 'error') expectCodedJson(JSON.stringify({ errors: message.payload }), where);
    if (message.type === 'next') expectCodedJson(JSON.stringify(message.payload), where);
  }
  if (serverClosed !== undefined && !protocolCloseCodes.has(serverClosed))
    throw new Error(`closed with ${serverClosed}${where()}`);
}

describe('raw requests against a gateway process', () => {
  let gateway: GatewayProcess;
  beforeAll(async () => {
    gateway = await startGatewayProcess({ OPERATION_TIMEOUT_MS: '3000' });
  });
  afterAll(() => gateway.stop());

  const stillUp = (): void => {
    const exit = gateway.exit();
    if (exit !== undefined) throw new Error(`the gateway exited (${JSON.stringify(exit)}):\n${gateway.tail()}`);
  };

  it('the named regression: a POST whose variables nest 4,500 levels deep is a coded 400, and the process stays up', async () => {
    const body = Buffer.from(`{"query":"{ __typename }","variables":${'{"a":'.repeat(4_500)}1${'}'.repeat(4_500)}}`);
    const request: RawRequest = {
      method: 'POST',
      path: '/graphql',
      headers: [
        ['host', `127.0.0.1:${gateway.port}`],
        ['content-type', 'application/json'],
        ['content-length', String(body.length)],
      ],
      body,
    };
    const { response } = await sendRaw(gateway.port, request);
    expectCodedAnswer(response, request);
    expect(response?.status).toBe(400);
    stillUp();
  });

  it(`HTTP: every generated raw request gets a coded answer below 500 (seed ${SEED}, ${HTTP_RUNS} runs)`, {
    timeout: 120_000,
  }, async () => {
    const outcomes = new Map<string, number>();
    await assertProperty(
      fc.asyncProperty(httpCase, async (c) => {
        stillUp();
        const request = rawRequest(gateway.port, c);
        const { response } = await sendRaw(gateway.port, request);
        const outcome = expectCodedAnswer(response, request);
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }),
      HTTP_RUNS,
    );
    if (process.env['FUZZ_STATS'] !== undefined)
      process.stdout.write(`HTTP outcomes: ${JSON.stringify([...outcomes].sort((a, b) => b[1] - a[1]))}\n`);
    // Generated requests that never got past the first refusal would test nothing behind it.
    expect(outcomes.get('200 data') ?? 0).toBeGreaterThan(HTTP_RUNS / 20);
    expect(
      (outcomes.get('400 VARIABLES_TOO_DEEP') ?? 0) + (outcomes.get('400 EXTENSIONS_TOO_DEEP') ?? 0),
    ).toBeGreaterThan(0);
    stillUp();
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
  });

  it(`graphql-ws: every generated protocol message gets coded answers and protocol close codes (seed ${SEED}, ${WS_RUNS} runs)`, {
    timeout: 120_000,
  }, async () => {
    let marker = 0;
    await assertProperty(
      fc.asyncProperty(wsCase, async (c) => {
        stillUp();
        marker += 1;
        await runWsCase(gateway, c, marker);
      }),
      WS_RUNS,
    );
    stillUp();
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
  });
});
