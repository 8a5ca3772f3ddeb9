import { once } from 'node:events';
import { createRequire } from 'node:module';
import type { AddressInfo, Socket } from 'node:net';
import type { ExecutionResult } from 'graphql';
import { MessageType, stringifyMessage } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { DirectNext, nextFrame, nextHead } from './direct-next.js';
import { preSerialize, preSerializedReplacer } from './preserialized.js';
import { MemberQueue } from '../../streams/member-queue.js';

interface FrameOptions {
  fin: boolean;
  rsv1: boolean;
  opcode: number;
  mask: boolean;
  readOnly: boolean;
}
/** ws's own framing (lib/sender.js), which `ws.send` uses for graphql-ws's messages. */
const { Sender } = createRequire(import.meta.url)('ws') as {
  Sender: { frame(data: Buffer, options: FrameOptions): Buffer[] };
};
const wsFrame = (message: string): Buffer =>
  Buffer.concat(
    Sender.frame(Buffer.from(message), { fin: true, rsv1: false, opcode: 1, mask: false, readOnly: false }),
  );

/** The message graphql-ws sends for an error-free `result` (its own stringifyMessage). */
const graphqlWsMessage = (id: string, result: ExecutionResult): string =>
  stringifyMessage({ id, type: MessageType.Next, payload: { data: result.data ?? null } }, preSerializedReplacer);

describe('direct next frames', () => {
  it('are byte for byte the frames ws sends for graphql-ws messages, whatever the id and the payload size', () => {
    const ids = ['1', 'ü-1 ✓', 'a"b\\c', '0f8fad5b-d9cb-469f-a165-70867728950e'];
    // Payload sizes across the frame header's three length forms (7-bit, 16-bit, 64-bit).
    for (const size of [10, 100, 125, 126, 500, 65_535, 65_536, 70_000]) {
      const result: ExecutionResult = {
        data: { oddsSnapshots: { matchId: 'm', name: 'Zürich ✓', pad: 'x'.repeat(size) } },
      };
      const tail = preSerialize(result).tail;
      for (const id of ids)
        expect(nextFrame(nextHead(id), tail).equals(wsFrame(graphqlWsMessage(id, result)))).toBe(true);
    }
  });

  it('carry errors as graphql-ws does', () => {
    const result: ExecutionResult = {
      data: null,
      errors: [
        new (class extends Error {
          toJSON() {
            return { message: 'boom', extensions: { code: 'X' } };
          }
        })('boom'),
      ] as never,
    };
    const expected = stringifyMessage({
      id: '9',
      type: MessageType.Next,
      payload: { data: null, errors: [{ message: 'boom', extensions: { code: 'X' } }] },
    });
    expect(nextFrame(nextHead('9'), preSerialize(result).tail).equals(wsFrame(expected))).toBe(true);
  });
});

describe('a subscriber written to directly', () => {
  let server: WebSocketServer;
  let url: string;
  beforeAll(async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(server, 'listening');
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const client of server.clients) client.terminate();
    await new Promise((resolve) => server.close(resolve));
  });

  /** A connected pair: the server's socket as DirectNext writes to it, and a client collecting text messages. */
  async function pair(
    id = 's1',
  ): Promise<{ direct: DirectNext; serverSide: WebSocket; raw: Socket; client: WebSocket; received: string[] }> {
    const accepted = once(server, 'connection') as Promise<[WebSocket, import('node:http').IncomingMessage]>;
    const client = new WebSocket(url, { perMessageDeflate: false });
    const received: string[] = [];
    client.on('message', (data: Buffer) => received.push(data.toString('utf8')));
    const [serverSide, request] = await accepted;
    await once(client, 'open');
    return {
      direct: new DirectNext(serverSide, request.socket, id),
      serverSide,
      raw: request.socket,
      client,
      received,
    };
  }

  it('receives the messages graphql-ws would have sent, in order with what ws sends around them', async () => {
    const { direct, serverSide, client, received } = await pair();
    const results: ExecutionResult[] = [1, 2, 3].map((n) => ({ data: { oddsSnapshots: { n } } }));
    serverSide.send('before');
    for (const result of results) expect(direct.write(result)).toBe(true);
    serverSide.send('after');
    while (received.length < 5) await once(client, 'message');
    expect(received).toEqual(['before', ...results.map((result) => graphqlWsMessage('s1', result)), 'after']);
    client.terminate();
  });

  it('gives one result to many sockets, each with its own id, from one shared buffer or, for a long id, its own', async () => {
    // Ids of one length share a frame header and a view: one in a row, and again after ids of other lengths.
    const ids = [
      '1',
      '0f8fad5b-d9cb-469f-a165-70867728950e',
      '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      '22',
      'ü ✓',
      '9a2b3c4d-0000-4000-8000-000000000001',
      'x'.repeat(300),
      'e3b0c442-98fc-4c14-9afb-f4c8996fb924',
      '1',
    ];
    const pairs = [];
    // One at a time: each waits for the server's next connection.
    for (const id of ids) pairs.push(await pair(id));
    const result: ExecutionResult = { data: { oddsSnapshots: { matchId: 'm', price: 1.5 } } };
    for (const { direct } of pairs) expect(direct.write(result)).toBe(true);
    for (const [i, { client, received }] of pairs.entries()) {
      while (received.length < 1) await once(client, 'message');
      expect(received).toEqual([graphqlWsMessage(ids[i]!, result)]);
      client.terminate();
    }
  });

  it('keeps a pending write intact while the same result goes on to other sockets', async () => {
    const pending = await pair('aa');
    const others = [await pair('bb'), await pair('cc')];
    const result: ExecutionResult = { data: { oddsSnapshots: { matchId: 'm', price: 2.5 } } };
    // Corked: the write stays pending on its buffer, none of it reaches the kernel yet.
    pending.raw.cork();
    expect(pending.direct.write(result)).toBe(true);
    expect(pending.serverSide.bufferedAmount).toBeGreaterThan(0);
    for (const { direct } of others) expect(direct.write(result)).toBe(true);
    pending.raw.uncork();
    // Larger than loopback's socket buffers: the kernel takes part of it at once, the rest stays pending.
    const big: ExecutionResult = { data: { oddsSnapshots: { pad: 'y'.repeat(8 << 20) } } };
    pending.client.pause();
    expect(pending.direct.write(big)).toBe(true);
    for (const { direct } of others) expect(direct.write(big)).toBe(true);
    pending.client.resume();
    for (const [id, { client, received }] of [
      ['aa', pending],
      ['bb', others[0]!],
      ['cc', others[1]!],
    ] as const) {
      while (received.length < 2) await once(client, 'message');
      expect(received[0]).toBe(graphqlWsMessage(id, result));
      expect(received[1] === graphqlWsMessage(id, big)).toBe(true);
      client.terminate();
    }
  });

  it('leaves a slow reader to graphql-ws: nothing is written raw once anything is buffered', async () => {
    const { direct, serverSide, client } = await pair();
    // The client reads nothing: the kernel's buffers fill, then the TCP socket's own.
    client.pause();
    const big: ExecutionResult = { data: { oddsSnapshots: { pad: 'x'.repeat(1 << 20) } } };
    let written = 0;
    while (direct.write(big)) {
      written += 1;
      expect(written).toBeLessThan(1_000);
    }
    expect(serverSide.bufferedAmount).toBeGreaterThan(0);
    // Still refused while it stays buffered: the slow-consumer check (graphql-ws-server.ts) sees at most one raw frame of backlog.
    expect(direct.write({ data: { oddsSnapshots: { n: 1 } } })).toBe(false);
    client.terminate();
  });

  it('is never written to once closing', async () => {
    const { direct, serverSide, client } = await pair();
    serverSide.close(1000);
    expect(direct.write({ data: { oddsSnapshots: { n: 1 } } })).toBe(false);
    client.terminate();
  });
});

describe('a member queue with a delivery', () => {
  it('offers a result only while its reader waits, and keeps order with what the reader still has to read', async () => {
    const delivered: number[] = [];
    let accept = true;
    const queue = new MemberQueue<number>(16, () => undefined, {
      write: (n) => {
        if (!accept) return false;
        delivered.push(n);
        return true;
      },
    });
    // Nobody waits yet: queued for the reader (the first message is graphql-ws's).
    queue.push(1);
    expect(delivered).toEqual([]);
    expect((await queue.next()).value).toBe(1);
    // The reader waits: delivered directly, and the reader goes on waiting.
    const pending = queue.next();
    queue.push(2);
    queue.push(3);
    expect(delivered).toEqual([2, 3]);
    // Refused (a busy socket): the waiting reader gets it.
    accept = false;
    queue.push(4);
    expect((await pending).value).toBe(4);
    // The end reaches the reader after everything delivered before it.
    accept = true;
    const last = queue.next();
    queue.push(5);
    queue.end();
    expect(delivered).toEqual([2, 3, 5]);
    expect((await last).done).toBe(true);
  });
});
