import { once } from 'node:events';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { OperationContext } from '../../context.js';
import { listenGraphqlWs, type TestGraphqlWs } from '../../../test/support/graphql-ws-server.js';
import { MemberQueue } from '../../streams/member-queue.js';

type Frame = { oddsSnapshots: { n: number } };

/**
 * A real yoga and a real ws server, with a schema whose odds source the
 * test pushes frames into (one per match), counting the contexts yoga builds.
 */
function gatewayParts() {
  const sources = new Map<string, MemberQueue<Frame>>();
  const counts = { contexts: 0 };
  const schema = makeExecutableSchema({
    typeDefs: /* GraphQL */ `
      type Query { ok: Boolean! }
      type Odds { n: Int! }
      type Subscription { oddsSnapshots(matchId: ID!): Odds! }
    `,
    resolvers: {
      Query: { ok: () => true },
      Subscription: {
        oddsSnapshots: {
          subscribe: (_: unknown, { matchId }: { matchId: string }) => {
            const source = new MemberQueue<Frame>(16, () => sources.delete(matchId));
            sources.set(matchId, source);
            return source;
          },
        },
      },
    },
  });
  const yoga = createYoga<Record<string, unknown>, OperationContext>({
    schema,
    logging: false,
    context: () => {
      counts.contexts += 1;
      return {} as OperationContext;
    },
  });
  return { sources, counts, yoga };
}

/** A hand-written graphql-transport-ws client keeping every text message it receives. */
async function connect(
  url: string,
): Promise<{ socket: WebSocket; messages: string[]; waitFor: (count: number) => Promise<void> }> {
  const socket = new WebSocket(url, 'graphql-transport-ws', { perMessageDeflate: false });
  const messages: string[] = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (data: Buffer) => {
    messages.push(data.toString('utf8'));
    for (const wake of waiters.splice(0)) wake();
  });
  const waitFor = async (count: number): Promise<void> => {
    while (messages.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  await once(socket, 'open');
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await waitFor(1);
  expect(messages.shift()).toBe('{"type":"connection_ack"}');
  return { socket, messages, waitFor };
}

const ODDS = 'subscription ($m: ID!) { oddsSnapshots(matchId: $m) { n } }';
const next = (id: string, n: number) =>
  JSON.stringify({ id, type: 'next', payload: { data: { oddsSnapshots: { n } } } });

describe('graphql-ws on the gateway: shared odds subscribers', () => {
  const parts = gatewayParts();
  let server: TestGraphqlWs;
  let url: string;
  beforeAll(async () => {
    server = await listenGraphqlWs(parts.yoga);
    url = server.url;
  });
  afterAll(() => server.close());

  it('build one context per execution, deliver every frame byte-identical and in order to each id, and complete after the last', async () => {
    const ids = ['a', 'ü ✓', 'c"d'];
    const clients = await Promise.all(ids.map(() => connect(url)));
    clients.forEach((client, i) => {
      client.socket.send(
        JSON.stringify({ id: ids[i], type: 'subscribe', payload: { query: ODDS, variables: { m: '1' } } }),
      );
    });
    // The first subscriber starts the execution; a frame now reaches everyone who joined, and later joiners get it at once.
    while (parts.sources.get('1') === undefined) await new Promise((resolve) => setImmediate(resolve));
    const source = parts.sources.get('1')!;
    source.push({ oddsSnapshots: { n: 0 } });
    await Promise.all(clients.map((client) => client.waitFor(1)));
    for (let n = 1; n <= 3; n += 1) source.push({ oddsSnapshots: { n } });
    source.end();
    await Promise.all(clients.map((client) => client.waitFor(5)));
    clients.forEach((client, i) => {
      const id = ids[i]!;
      expect(client.messages).toEqual([
        next(id, 0),
        next(id, 1),
        next(id, 2),
        next(id, 3),
        JSON.stringify({ id, type: 'complete' }),
      ]);
    });
    // Three subscribers, one execution: one context, not three.
    expect(parts.counts.contexts).toBe(1);

    // Other variables: their own execution and context; a query over the socket builds its own too.
    const other = clients[0]!;
    other.socket.send(JSON.stringify({ id: 'q', type: 'subscribe', payload: { query: '{ ok }' } }));
    other.socket.send(JSON.stringify({ id: 'o', type: 'subscribe', payload: { query: ODDS, variables: { m: '2' } } }));
    await other.waitFor(7);
    expect(other.messages.slice(5).sort()).toEqual(
      [
        JSON.stringify({ id: 'q', type: 'next', payload: { data: { ok: true } } }),
        JSON.stringify({ id: 'q', type: 'complete' }),
      ].sort(),
    );
    while (parts.sources.get('2') === undefined) await new Promise((resolve) => setImmediate(resolve));
    expect(parts.counts.contexts).toBe(3);
    for (const client of clients) client.socket.terminate();
  });
});
