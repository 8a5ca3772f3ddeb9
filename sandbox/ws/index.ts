/**
 * The sandbox's odds WebSocket and its control routes, as one handle that
 * `sandbox/server.ts` attaches to its HTTP server.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { handleOddsControl } from './control.js';
import { OddsSocketServer, type OddsSocketOptions } from './odds-socket.js';

export type { OddsCadence } from './cadence.js';
export type { OddsSocketStats } from './odds-socket.js';

export interface OddsSocketHandle {
  readonly odds: OddsSocketServer;
  /** True when the request was an odds control route, now being answered. */
  handleControl(req: IncomingMessage, res: ServerResponse): boolean;
  close(): void;
}

export function attachOddsSocket(server: Server, options: OddsSocketOptions): OddsSocketHandle {
  const odds = new OddsSocketServer(options).attach(server);
  return {
    odds,
    handleControl: (req, res) => handleOddsControl(odds, req, res),
    close: () => odds.close(),
  };
}
