/**
 * A graphql-ws server on a real WebSocket server for the live tests: the
 * gateway's own `serveGraphqlWs` over whatever yoga the test builds, on a
 * free loopback port, with the bounds the gateway uses by default. Test-only.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { YogaServerInstance } from 'graphql-yoga';
import { pino } from 'pino';
import { WebSocketServer } from 'ws';
import { ClientKeys } from '../../src/access/client-keys.js';
import type { OperationContext } from '../../src/context.js';
import { serveGraphqlWs } from '../../src/transport/ws/graphql-ws-server.js';
import { GatewaySocket } from '../../src/transport/ws/preserialized.js';

export interface TestGraphqlWs {
  /** `ws://` address of the server. */
  readonly url: string;
  close(): Promise<void>;
}

export async function listenGraphqlWs(
  yoga: YogaServerInstance<Record<string, unknown>, OperationContext>,
  clientKeys = new ClientKeys([]),
): Promise<TestGraphqlWs> {
  const wsServer = new WebSocketServer({ port: 0, host: '127.0.0.1', WebSocket: GatewaySocket });
  await once(wsServer, 'listening');
  const graphqlWs = serveGraphqlWs({
    wsServer,
    yoga,
    persisted: { webSocketDocument: ({ query }) => Promise.resolve(query) },
    clientKeys,
    inputBounds: { maxDepth: 16, maxValues: 10_000 },
    limits: { maxSubscriptionsPerSocket: 25, maxWsBufferedBytes: 4 * 1024 * 1024 },
    logger: pino({ level: 'silent' }),
  });
  return {
    url: `ws://127.0.0.1:${(wsServer.address() as AddressInfo).port}`,
    close: async () => {
      graphqlWs.stop();
      await graphqlWs.dispose();
    },
  };
}
