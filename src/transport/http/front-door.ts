/**
 * The HTTP front door: the server and what every request passes before its
 * handler, outermost first. No throw escapes, past GATEWAY_MAX_CONNECTIONS a
 * connection is answered 503 TOO_MANY_CONNECTIONS (connection-bounds.ts),
 * answers are compressed when it is worth it (compress.ts), foreign host
 * names are refused before anything reads the request (host-check.ts), and
 * bodies are bounded (body-limit.ts).
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { defaultAllowedHosts, HostPolicy } from '../../access/allowed-hosts.js';
import { limitRequestBody } from './body-limit.js';
import { answerClientErrors } from './client-errors.js';
import { compressResponses } from './compress.js';
import { ConnectionCap, serverTimeouts } from './connection-bounds.js';
import { refuseForeignHosts } from './host-check.js';
import { InFlightRequests } from './in-flight.js';
import { guardRequests, type ReportError } from './request-guard.js';

/** The host names the gateway answers for, and the origins that may call it. */
export function hostPolicyFor(config: Config): HostPolicy {
  return new HostPolicy({
    allowedHosts: config.access.allowedHosts.length > 0 ? config.access.allowedHosts : defaultAllowedHosts(config.host),
    corsOrigins: config.access.corsOrigins,
    // The embedded sandbox has no allowance worth protecting: a dev server on any loopback port may call it.
    loopbackOrigins: config.baseUrl === undefined,
  });
}

/** Logs a request whose handler threw before yoga (request-guard.ts answers it). */
function requestErrorReporter(logger: Logger): ReportError {
  return (error, req) =>
    logger.error(
      { err: error, method: req.method, path: (req.url ?? '').split('?')[0] },
      'a request handler failed before yoga',
    );
}

export interface FrontDoor {
  readonly server: Server;
  /** HTTP requests being answered, for the graceful shutdown. */
  readonly inFlight: InFlightRequests;
  /** Every open connection, cut at the end of a shutdown. */
  readonly sockets: ReadonlySet<Socket>;
  readonly cap: ConnectionCap;
  /** How a request handler's throw before yoga is logged (the WebSocket upgrades report theirs the same way). */
  readonly reportRequestError: ReportError;
}

export interface FrontDoorOptions {
  readonly config: Config;
  readonly hostPolicy: HostPolicy;
  readonly logger: Logger;
  readonly handler: RequestListener;
}

export function openFrontDoor({ config, hostPolicy, logger, handler }: FrontDoorOptions): FrontDoor {
  const reportRequestError = requestErrorReporter(logger);
  const compressed = (next: RequestListener): RequestListener =>
    config.service.compression
      ? compressResponses({ thresholdBytes: config.service.compressionThresholdBytes }, next)
      : next;
  const inFlight = new InFlightRequests();
  const cap = new ConnectionCap(config.connections);
  const server: Server = createServer(
    // The Host check answers a missing Host itself, with a code (host-check.ts). Slow requests are cut.
    { requireHostHeader: false, ...serverTimeouts(config.connections) },
    inFlight.track(
      guardRequests(
        cap.guard(
          compressed(
            refuseForeignHosts(hostPolicy, limitRequestBody(config.limits.maxBodyBytes, handler, reportRequestError), {
              open: ['/healthz', '/readyz'],
            }),
          ),
        ),
        reportRequestError,
      ),
    ),
  );
  cap.attach(server);
  answerClientErrors(server);
  const sockets = new Set<Socket>();
  // Shared by every connection (`this` is the socket): no closure per connection.
  function forget(this: Socket): void {
    sockets.delete(this);
  }
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', forget);
  });
  return { server, inFlight, sockets, cap, reportRequestError };
}
