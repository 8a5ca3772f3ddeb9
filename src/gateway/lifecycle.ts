/**
 * The gateway's life after it is built: listening, the drain that a
 * shutdown starts (subscriptions complete, `/readyz` answers 503), the
 * immediate `close()` and the graceful `shutdown()`, and the order in which
 * what was opened is released.
 */
import { setMaxListeners } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { GatewayServices } from '../context.js';
import type { StateReadiness } from '../state/contracts.js';
import type { FrontDoor } from '../transport/http/front-door.js';
import { waitFor } from '../transport/http/in-flight.js';
import type { WsFront } from '../transport/ws/ws-front.js';

export interface Gateway {
  /** `http://host:port`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly services: GatewayServices;
  /** Stops at once: connections cut, subscriptions dropped (tests, a second signal). */
  close(): Promise<void>;
  /**
   * Graceful stop (SIGTERM): `/readyz` answers 503, no new connection is
   * accepted, subscriptions complete (graphql-ws `complete`, SSE ends),
   * operations in flight finish within `timeoutMs`, then WebSockets close
   * with 1001 Going Away and the state is written (the ledger flushed).
   */
  shutdown(options?: { timeoutMs?: number }): Promise<ShutdownReport>;
  /** What `/readyz` answers (no longer ready from the start of a shutdown, when new connections are refused already). */
  readiness(): StateReadiness;
}

export interface ShutdownReport {
  /** HTTP requests and WebSocket operations still running at the bound, cut. */
  readonly cut: number;
  readonly tookMs: number;
}

export interface Drain {
  /** Aborted by shutdown(): subscriptions complete (src/plugins/use-subscription-drain.ts). */
  readonly signal: AbortSignal;
  abort(): void;
  /** The state's readiness, and not ready once draining. */
  readiness(): StateReadiness;
}

export function drainOf(state: { readiness(): StateReadiness }): Drain {
  const drain = new AbortController();
  // One listener per open subscription (src/live/end-on-abort.ts): thousands is the normal case, not a leak.
  setMaxListeners(0, drain.signal);
  return {
    signal: drain.signal,
    abort: () => drain.abort(),
    readiness: () => {
      if (drain.signal.aborted) return { ready: false, reasons: ['draining: the gateway is shutting down'] };
      return state.readiness();
    },
  };
}

export interface LifecycleParts {
  readonly config: Config;
  readonly logger: Logger;
  readonly services: GatewayServices;
  readonly frontDoor: FrontDoor;
  readonly ws: WsFront;
  readonly drain: Drain;
  /**
   * What the gateway opened behind its transports, closed one after the
   * other in this order once they are shut: the live feeds and the upstream
   * first (their last requests are charged), then the state (quota.json
   * written and its write-ahead copy removed, or the cluster left), tracing
   * last so that the spans of the shutdown itself are exported too.
   */
  readonly opened: ReadonlyArray<{ close(): Promise<void> } | undefined>;
}

async function release(parts: LifecycleParts): Promise<void> {
  for (const part of parts.opened) await part?.close();
}

/** Listens on the configured address; a gateway that never served releases everything (DATA_DIR lock, timers) and throws. */
export async function startGateway(parts: LifecycleParts): Promise<Gateway> {
  const { config, logger, frontDoor, ws } = parts;
  const { server } = frontDoor;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    ws.graphqlWs.stop();
    await release(parts);
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  logger.info({ url, plan: config.plan }, 'gateway listening');
  const serverClosed = new Promise<void>((resolve) => server.once('close', () => resolve()));
  let stopping: Promise<ShutdownReport> | undefined;
  return {
    url,
    port,
    services: parts.services,
    readiness: parts.drain.readiness,
    close: async () => {
      parts.drain.abort();
      ws.graphqlWs.stop();
      for (const client of ws.wsServer.clients) client.terminate();
      await new Promise<void>((resolve) => ws.wsServer.close(() => resolve()));
      for (const socket of frontDoor.sockets) socket.destroy();
      server.close();
      await serverClosed;
      await release(parts);
    },
    shutdown: ({ timeoutMs = config.service.shutdownTimeoutMs } = {}) => {
      stopping ??= shutdown(parts, serverClosed, timeoutMs);
      return stopping;
    },
  };
}

async function shutdown(
  parts: LifecycleParts,
  serverClosed: Promise<void>,
  timeoutMs: number,
): Promise<ShutdownReport> {
  const { logger, frontDoor, ws } = parts;
  const { server, inFlight } = frontDoor;
  const wsOperations = (): number => ws.graphqlWs.operations();
  const started = Date.now();
  const deadline = started + timeoutMs;
  parts.drain.abort();
  inFlight.drain();
  // No new connections; idle keep-alive ones close now, busy ones after their answer (Connection: close).
  server.close();
  server.closeIdleConnections();
  logger.info(
    { requests: inFlight.size, wsOperations: wsOperations(), timeoutMs },
    'shutting down: draining operations in flight',
  );
  await waitFor(() => inFlight.size === 0 && wsOperations() === 0, deadline);
  const cut = inFlight.size + wsOperations();
  if (cut > 0) logger.warn({ cut, timeoutMs }, 'shutdown bound reached: cutting what is still running');
  // graphql-ws sends each `complete` a few promise turns after the operation ends: let them out before the close frames.
  await new Promise((resolve) => setImmediate(resolve));
  ws.graphqlWs.stop();
  // Closes every socket with 1001 Going Away (graphql-ws's own shutdown), then stops the WebSocket server.
  await ws.graphqlWs
    .dispose()
    .catch((error: unknown) => logger.warn({ err: error }, 'closing the WebSocket server failed'));
  // The close handshake: each client answers the 1001 frame; one that does not within a second is cut.
  await waitFor(() => ws.wsServer.clients.size === 0, Date.now() + 1_000);
  for (const client of ws.wsServer.clients) client.terminate();
  server.closeAllConnections();
  for (const socket of frontDoor.sockets) socket.destroy();
  await serverClosed;
  await release(parts);
  const tookMs = Date.now() - started;
  logger.info({ tookMs, cut }, 'shut down');
  return { cut, tookMs };
}
