import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { clientIdentity } from '../../access/client-identity.js';
import { ClientKeys } from '../../access/client-keys.js';
import { presentedKeyInContext } from '../../access/presented-in-context.js';
import type { OperationContext } from '../../context.js';
import { useClientKeys } from '../../plugins/use-client-keys.js';
import { listenGraphqlWs, type TestGraphqlWs } from '../../../test/support/graphql-ws-server.js';
import { KEPT_HEADERS, keptOfUpgrade, type UpgradeRequest } from './upgrade-request.js';

describe('what a graphql-ws connection keeps of its upgrade request', () => {
  it('keeps the client key and trace headers and the socket, and nothing else of the request', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(wss, 'listening');
    const kept: UpgradeRequest[] = [];
    wss.on('connection', (_socket, request) => kept.push(keptOfUpgrade(request)));
    const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
    const sent = {
      authorization: 'Bearer k-1',
      'x-client-key': 'k-2',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      tracestate: 'vendor=1',
    };
    const full = new WebSocket(url, {
      headers: { ...sent, cookie: 'session=1', 'user-agent': 'test', 'x-other': 'y' },
    });
    const bare = new WebSocket(url);
    await Promise.all([once(full, 'open'), once(bare, 'open')]);
    while (kept.length < 2) await new Promise((resolve) => setImmediate(resolve));
    const [withHeaders, without] =
      kept[0]!.headers['x-client-key'] === undefined ? [kept[1]!, kept[0]!] : [kept[0]!, kept[1]!];
    expect(withHeaders.headers).toEqual(sent);
    expect(Object.keys(withHeaders.headers).sort()).toEqual([...KEPT_HEADERS].sort());
    expect(without.headers).toEqual({});
    // What the access rules read of it: the key (connectionParams first, then these headers) and the peer's address.
    expect(presentedKeyInContext({ connectionParams: {}, req: withHeaders })).toBe('k-1');
    expect(
      presentedKeyInContext({ connectionParams: {}, req: { ...withHeaders, headers: { 'x-client-key': 'k-2' } } }),
    ).toBe('k-2');
    // A connection_init without a payload leaves connectionParams undefined: the upgrade's headers still count.
    expect(presentedKeyInContext({ connectionParams: undefined, req: withHeaders })).toBe('k-1');
    expect(clientIdentity({ req: without })).toBe('address:127.0.0.1');
    full.terminate();
    bare.terminate();
    wss.close();
  });
});

describe('graphql-ws with client keys: the key presented on the upgrade request', () => {
  const keys = new ClientKeys([{ name: 'alice', key: 'alice-key-0001' }]);
  const schema = makeExecutableSchema({
    typeDefs: /* GraphQL */ `
      type Query { client: String }
    `,
    resolvers: {
      Query: { client: (_: unknown, __: unknown, context: { clientName?: string }) => context.clientName ?? null },
    },
  });
  const yoga = createYoga<Record<string, unknown>, OperationContext>({
    schema,
    logging: false,
    plugins: [useClientKeys(keys)],
  });
  let server: TestGraphqlWs;
  let url: string;
  beforeAll(async () => {
    server = await listenGraphqlWs(yoga, keys);
    url = server.url;
  });
  afterAll(() => server.close());

  /** Opens a socket with `headers` on its upgrade, sends connection_init (with `init` as its payload), and returns the first message or the close code. */
  async function open(
    headers: Record<string, string>,
    init: { payload?: Record<string, unknown> } = { payload: {} },
  ): Promise<{ socket: WebSocket; first: string | number }> {
    const socket = new WebSocket(url, 'graphql-transport-ws', { headers });
    const first = new Promise<string | number>((resolve) => {
      socket.once('message', (data: Buffer) => resolve(data.toString('utf8')));
      socket.once('close', (code: number) => resolve(code));
    });
    await once(socket, 'open');
    socket.send(JSON.stringify({ type: 'connection_init', ...init }));
    return { socket, first: await first };
  }

  it('is checked at connection_init (4403 for a wrong one) and names the client of each operation on the socket', async () => {
    expect((await open({ 'x-client-key': 'wrong-key' })).first).toBe(4403);
    expect((await open({})).first).toBe(4403);
    // graphql-ws's own client sends a payload; the protocol lets a client leave it out, and the key on the upgrade still names it.
    const cases = [
      { headers: { 'x-client-key': 'alice-key-0001' }, init: { payload: {} } },
      { headers: { authorization: 'Bearer alice-key-0001' }, init: { payload: {} } },
      { headers: { authorization: 'Bearer alice-key-0001' }, init: {} },
    ];
    for (const { headers, init } of cases) {
      const { socket, first } = await open(headers, init);
      expect(first).toBe('{"type":"connection_ack"}');
      const answer = new Promise<string>((resolve) =>
        socket.once('message', (data: Buffer) => resolve(data.toString('utf8'))),
      );
      socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: '{ client }' } }));
      expect(await answer).toBe(JSON.stringify({ id: '1', type: 'next', payload: { data: { client: 'alice' } } }));
      socket.terminate();
    }
  });
});
