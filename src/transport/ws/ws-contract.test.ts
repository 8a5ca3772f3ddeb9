/**
 * What the direct path (direct-next.ts) relies on in ws, checked through
 * ws's public API on real sockets against the installed ws: `bufferedAmount`
 * counts every message ws holds back, including the one it is busy with
 * (a Blob being read, a message being deflated), so a direct frame is never
 * written ahead of one of ws's. direct-next.ts read ws's private sender
 * (`_sender._state`, `_queue`) for this before; if a ws release stops
 * counting such a message, this test fails rather than frames reordering.
 */
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutionResult } from 'graphql';
import { MessageType, stringifyMessage } from 'graphql-ws';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { DirectNext } from './direct-next.js';
import { preSerializedReplacer } from './preserialized.js';

const servers: WebSocketServer[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A connected pair on a fresh server: the server's socket and its TCP socket, and a client collecting messages. */
async function pair(perMessageDeflate: boolean) {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate });
  servers.push(server);
  await once(server, 'listening');
  const accepted = once(server, 'connection') as Promise<[WebSocket, IncomingMessage]>;
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`, { perMessageDeflate });
  const received: string[] = [];
  client.on('message', (data: Buffer) => received.push(data.toString('utf8')));
  const [serverSide, request] = await accepted;
  await once(client, 'open');
  return { serverSide, raw: request.socket, client, received };
}

const sent = (socket: WebSocket, data: Blob | string): Promise<void> =>
  new Promise((resolve, reject) => socket.send(data, (error) => (error ? reject(error) : resolve())));

describe("ws's bufferedAmount, as the direct path reads it", () => {
  it('counts a Blob being read and the messages queued behind it, and a direct frame waits for them', async () => {
    const { serverSide, raw, client, received } = await pair(false);
    expect(serverSide.bufferedAmount).toBe(0);
    // ws reads a Blob's bytes asynchronously; until then its sender is busy and queues what follows.
    const blob = sent(serverSide, new Blob(['from a blob']));
    expect(serverSide.bufferedAmount).toBe('from a blob'.length);
    const queued = sent(serverSide, 'queued behind it');
    expect(serverSide.bufferedAmount).toBe('from a blob'.length + 'queued behind it'.length);
    const direct = new DirectNext(serverSide, raw, 'd1');
    const result: ExecutionResult = { data: { oddsSnapshots: { n: 1 } } };
    expect(direct.write(result)).toBe(false);
    await Promise.all([blob, queued]);
    while (serverSide.bufferedAmount !== 0) await new Promise((resolve) => setImmediate(resolve));
    expect(direct.write(result)).toBe(true);
    while (received.length < 3) await once(client, 'message');
    expect(received).toEqual([
      'from a blob',
      'queued behind it',
      stringifyMessage(
        { id: 'd1', type: MessageType.Next, payload: { data: result.data ?? null } },
        preSerializedReplacer,
      ),
    ]);
  });

  it('counts a message being deflated (a socket with an extension is never written directly either)', async () => {
    const { serverSide, raw } = await pair(true);
    expect(serverSide.extensions).not.toBe('');
    // Past ws's compression threshold (1 KiB): deflated on zlib's thread, after this tick.
    const message = 'x'.repeat(64 * 1024);
    const done = sent(serverSide, message);
    expect(serverSide.bufferedAmount).toBeGreaterThanOrEqual(message.length);
    expect(new DirectNext(serverSide, raw, 'd2').write({ data: { oddsSnapshots: { n: 1 } } })).toBe(false);
    await done;
  });
});
