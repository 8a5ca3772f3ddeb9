/**
 * Issue 35, item 5: connections are held within bounds. A request that
 * trickles is cut (not held for Node's 300 s), connections past
 * GATEWAY_MAX_CONNECTIONS get a coded 503, graphql-ws sockets with no
 * operation are closed, and a peer that stops answering pings is cut.
 * Real sockets against an in-process gateway, with small settings; every
 * wait is for an observed event (an answer, a close), bounded only as a
 * failure guard.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parseResponse, type RawResponse } from './support/raw-http.js';
import { startStack, type TestStack } from './support/servers.js';

/** A raw connection: what the server wrote, and when it closed. */
interface RawConnection {
  readonly socket: Socket;
  /** Resolves with what the server wrote once it closed the connection. */
  readonly closed: Promise<Buffer>;
  /** Resolves with the first complete response. */
  readonly answered: Promise<RawResponse>;
}

function open(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    let answer: (response: RawResponse) => void = () => undefined;
    const answered = new Promise<RawResponse>((settle) => (answer = settle));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const parsed = parseResponse(Buffer.concat(chunks));
      if (parsed?.complete === true) answer(parsed.response);
    });
    // A reset is how some closes arrive: the close below is what the tests read.
    socket.on('error', () => undefined);
    const closed = once(socket, 'close').then(() => Buffer.concat(chunks));
    socket.once('connect', () => resolve({ socket, closed, answered }));
    socket.once('error', reject);
  });
}

/** Resolves with `promise`'s value, or rejects naming `what` after `ms` (a guard against hanging, not a timing assertion). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
    }),
  ]);
}

const bodyCode = (raw: Buffer | RawResponse): unknown => {
  const body = Buffer.isBuffer(raw) ? parseResponse(raw)?.response.body : raw.body;
  return (JSON.parse(body?.toString('utf8') ?? '{}') as { errors?: Array<{ extensions?: { code?: string } }> })
    .errors?.[0]?.extensions?.code;
};

const HEALTHZ = (host: string): string => `GET /healthz HTTP/1.1\r\nhost: ${host}\r\nconnection: keep-alive\r\n\r\n`;

describe('bounded connections', { timeout: 60_000 }, () => {
  let stack: TestStack | undefined;
  const cleanup: Array<() => void> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0)) step();
    await stack?.close();
    stack = undefined;
  });

  it('a request body sent a byte at a time is cut with 408 REQUEST_TIMEOUT after HTTP_REQUEST_TIMEOUT_MS, not held for 300 s', async () => {
    stack = await startStack({ env: { HTTP_HEADERS_TIMEOUT_MS: '500', HTTP_REQUEST_TIMEOUT_MS: '1000' } });
    const { port } = stack.gateway;
    const connection = await open(port);
    const started = Date.now();
    connection.socket.write(
      `POST /graphql HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n`,
    );
    // One byte every 100 ms: the whole body would take 100 s.
    const trickle = setInterval(() => connection.socket.writable && connection.socket.write('{'), 100);
    cleanup.push(
      () => clearInterval(trickle),
      () => connection.socket.destroy(),
    );
    const written = await within(connection.closed, 20_000, 'the trickling request was not cut');
    clearInterval(trickle);
    expect(parseResponse(written)?.response.status).toBe(408);
    expect(bodyCode(written)).toBe('REQUEST_TIMEOUT');
    // Far below Node's 300 s; a loose bound on a busy machine.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('headers sent a byte at a time are cut as well', async () => {
    stack = await startStack({ env: { HTTP_HEADERS_TIMEOUT_MS: '500', HTTP_REQUEST_TIMEOUT_MS: '1000' } });
    const connection = await open(stack.gateway.port);
    const head = `GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nx-padding: ${'a'.repeat(500)}\r\n\r\n`;
    let at = 0;
    const trickle = setInterval(
      () => connection.socket.writable && at < head.length && connection.socket.write(head[at++]!),
      100,
    );
    cleanup.push(
      () => clearInterval(trickle),
      () => connection.socket.destroy(),
    );
    const written = await within(connection.closed, 20_000, 'the trickling headers were not cut');
    expect(parseResponse(written)?.response.status).toBe(408);
    expect(bodyCode(written)).toBe('REQUEST_TIMEOUT');
    expect(at).toBeLessThan(head.length);
  });

  it('past GATEWAY_MAX_CONNECTIONS a connection is answered 503 TOO_MANY_CONNECTIONS, an upgrade too; a freed slot serves again', async () => {
    stack = await startStack({ env: { GATEWAY_MAX_CONNECTIONS: '3' } });
    const { port } = stack.gateway;
    const host = `127.0.0.1:${port}`;
    // Three served connections, each proven counted by an answer, kept open.
    const served: RawConnection[] = [];
    for (let index = 0; index < 3; index += 1) {
      const connection = await open(port);
      cleanup.push(() => connection.socket.destroy());
      connection.socket.write(HEALTHZ(host));
      expect((await within(connection.answered, 10_000, 'a served connection')).status).toBe(200);
      served.push(connection);
    }
    const fourth = await open(port);
    cleanup.push(() => fourth.socket.destroy());
    fourth.socket.write(HEALTHZ(host));
    const refused = await within(fourth.closed, 10_000, 'the fourth connection');
    const response = parseResponse(refused)?.response;
    expect(response?.status).toBe(503);
    expect(response?.headers['retry-after']).toBe('1');
    expect(bodyCode(refused)).toBe('TOO_MANY_CONNECTIONS');

    const ws = new WebSocket(`ws://${host}/graphql`, 'graphql-transport-ws');
    // A refused upgrade leaves it CONNECTING; terminating it then emits an 'error' that is expected, not a failure.
    ws.on('error', () => undefined);
    cleanup.push(() => ws.terminate());
    const [, upgradeAnswer] = (await within(once(ws, 'unexpected-response'), 10_000, 'the refused upgrade')) as [
      unknown,
      { statusCode: number },
    ];
    expect(upgradeAnswer.statusCode).toBe(503);

    // One served connection closes: the next connection is served (asked until the server has seen the close).
    served[0]!.socket.destroy();
    await served[0]!.closed;
    let status = 0;
    for (let attempt = 0; attempt < 100 && status !== 200; attempt += 1) {
      const next = await open(port);
      cleanup.push(() => next.socket.destroy());
      next.socket.write(HEALTHZ(host));
      status = (
        await within(
          Promise.race([next.answered, next.closed.then((raw) => parseResponse(raw)?.response ?? { status: 0 })]),
          10_000,
          'a retried connection',
        )
      ).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(200);
  });

  it('a graphql-ws socket with no operation is closed with 1000 "Idle timeout"; one with a subscription stays until it ends', async () => {
    stack = await startStack({ env: { WS_IDLE_TIMEOUT_MS: '400' } });
    const url = `ws://127.0.0.1:${stack.gateway.port}/graphql`;
    const acked = async (): Promise<WebSocket> => {
      const ws = new WebSocket(url, 'graphql-transport-ws');
      cleanup.push(() => ws.terminate());
      await once(ws, 'open');
      ws.send(JSON.stringify({ type: 'connection_init' }));
      const [ack] = (await once(ws, 'message')) as [Buffer];
      expect(JSON.parse(String(ack))).toMatchObject({ type: 'connection_ack' });
      return ws;
    };
    const idle = await acked();
    const busy = await acked();
    const busyClosed = once(busy, 'close');
    busy.send(
      JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { quotaUpdates { used } }' } }),
    );
    const [first] = (await once(busy, 'message')) as [Buffer];
    expect(JSON.parse(String(first))).toMatchObject({ id: '1', type: 'next' });

    const [code, reason] = (await within(once(idle, 'close'), 20_000, 'the idle socket')) as [number, Buffer];
    expect([code, String(reason)]).toEqual([1000, 'Idle timeout']);
    // The subscribed socket outlived the idle one, which was idle no longer than it.
    expect(busy.readyState).toBe(WebSocket.OPEN);
    // Its subscription ended, it is idle too.
    busy.send(JSON.stringify({ id: '1', type: 'complete' }));
    const [busyCode, busyReason] = (await within(busyClosed, 20_000, 'the socket whose subscription ended')) as [
      number,
      Buffer,
    ];
    expect([busyCode, String(busyReason)]).toEqual([1000, 'Idle timeout']);
  });

  it('a peer that stops answering pings is cut after WS_KEEP_ALIVE_MS, subscription or not', async () => {
    stack = await startStack({ env: { WS_KEEP_ALIVE_MS: '300', WS_IDLE_TIMEOUT_MS: '0' } });
    const ws = new WebSocket(`ws://127.0.0.1:${stack.gateway.port}/graphql`, 'graphql-transport-ws', {
      autoPong: false,
    });
    cleanup.push(() => ws.terminate());
    let pings = 0;
    ws.on('ping', () => (pings += 1));
    await once(ws, 'open');
    ws.send(JSON.stringify({ type: 'connection_init' }));
    await once(ws, 'message');
    ws.send(
      JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { quotaUpdates { used } }' } }),
    );
    const started = Date.now();
    const [code] = (await within(once(ws, 'close'), 20_000, 'the silent peer')) as [number];
    // Terminated, no close frame: a dead peer could not read one.
    expect(code).toBe(1006);
    expect(pings).toBeGreaterThanOrEqual(1);
    // Well inside the 24 s the fixed 12 s interval allowed; loose on a busy machine.
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
