/**
 * The WebSocket front door on the HTTP server: upgrades to `/graphql` are
 * routed and refused with codes (src/transport/http/upgrades.ts), a page may
 * open one only from an origin and host name the gateway answers for, and
 * graphql-ws serves what is let in, shared odds executions written straight
 * to their subscribers (graphql-ws-server.ts).
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Logger } from 'pino';
import { WebSocketServer } from 'ws';
import type { ClientKeys } from '../../access/client-keys.js';
import type { Config } from '../../config.js';
import type { PersistedOperations } from '../../plugins/use-persisted-operations.js';
import type { HostPolicy } from '../../access/allowed-hosts.js';
import type { ConnectionCap } from '../http/connection-bounds.js';
import { upgradeAnswer, upgradeRefusal } from '../http/host-check.js';
import type { InputBounds } from '../http/input-bounds.js';
import type { ReportError } from '../http/request-guard.js';
import { routeUpgrades } from '../http/upgrades.js';
import { refuseServerMessageTypes } from './ws-message-types.js';
import { quietPeerProtocolErrors } from './ws-peer-errors.js';
import { serveGraphqlWs, type GraphqlWsOptions, type GraphqlWs } from './graphql-ws-server.js';
import { GatewaySocket } from './preserialized.js';

export interface WsFrontOptions {
  readonly server: Server;
  readonly cap: ConnectionCap;
  readonly config: Config;
  readonly logger: Logger;
  readonly hostPolicy: HostPolicy;
  readonly reportRequestError: ReportError;
  readonly yoga: GraphqlWsOptions['yoga'];
  readonly persisted: PersistedOperations;
  readonly clientKeys: ClientKeys;
  readonly inputBounds: InputBounds;
  /** Given the WebSocket server before graphql-ws serves on it (the bench's probes: bench/gateway-main.ts). */
  readonly onWebSocketServer?: ((wsServer: WebSocketServer) => void) | undefined;
}

export interface WsFront {
  readonly wsServer: WebSocketServer;
  readonly graphqlWs: GraphqlWs;
}

export function openWsFront(options: WsFrontOptions): WsFront {
  const { server, cap, config, logger, hostPolicy, reportRequestError } = options;
  const wsServer = new WebSocketServer({
    // Upgrades are routed by src/transport/http/upgrades.ts, which codes every refusal.
    noServer: true,
    path: '/graphql',
    // Restores pre-serialized subscription payloads (preserialized.ts).
    WebSocket: GatewaySocket,
    maxPayload: config.limits.maxWsMessageBytes,
    // Browsers let any page open a WebSocket: only our own pages and the configured origins may,
    // and only under a host name we answer for (src/transport/http/host-check.ts). Refused at the upgrade, with a coded body.
    verifyClient: (
      { req }: { req: IncomingMessage },
      accept: (ok: boolean, status?: number, body?: string, headers?: Record<string, string>) => void,
    ) => {
      try {
        const refusal = upgradeRefusal(hostPolicy, req);
        if (refusal === undefined) {
          accept(true);
          return;
        }
        const answer = upgradeAnswer(req, refusal);
        accept(false, answer.status, answer.body, answer.headers);
      } catch (error) {
        reportRequestError(error, req);
        accept(false, 500);
      }
    },
  });
  routeUpgrades(server, wsServer, reportRequestError, (req, socket) => cap.refusesUpgrade(req, socket));
  refuseServerMessageTypes(wsServer);
  options.onWebSocketServer?.(wsServer);
  const graphqlWs = serveGraphqlWs({
    wsServer,
    yoga: options.yoga,
    persisted: options.persisted,
    clientKeys: options.clientKeys,
    inputBounds: options.inputBounds,
    limits: config.limits,
    logger,
    idleTimeoutMs: config.connections.wsIdleTimeoutMs,
    keepAliveMs: config.connections.wsKeepAliveMs,
  });
  // After useServer: a client's protocol violation is the client's, not an "internal error" trace (src/transport/ws/ws-peer-errors.ts).
  quietPeerProtocolErrors(wsServer, logger);
  return { wsServer, graphqlWs };
}
