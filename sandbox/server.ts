/**
 * The embedded sandbox upstream (DESIGN.md, "The sandbox upstream"): a real
 * HTTP server on loopback that implements the spec, with deterministic
 * fixtures, a daily allowance, request counting and fault injection.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { planAllowances } from '../src/upstream/assumptions.js';
import { Allowance } from './allowance.js';
import type { ControlState } from './control.js';
import { FaultStore } from './faults.js';
import { buildFixtures, type Fixtures } from './fixtures/build.js';
import { DATASET_NAMES, datasetNamed, isDatasetName, type DatasetName } from './fixtures/dataset.js';
import { handleMatchControl } from './live/control.js';
import { MatchSimulation } from './live/simulation.js';
import { createRequestHandler } from './pipeline.js';
import { RequestLog } from './requests.js';
import { Router } from './router.js';
import { registerAll } from './routes/all.js';
import { attachOddsSocket, type OddsCadence } from './ws/index.js';

export interface SandboxOptions {
  /**
   * Port to listen on; 0 picks a free one (read it from the handle).
   * @default 0
   */
  port?: number;
  /**
   * Interface to listen on.
   * @default '127.0.0.1'
   */
  host?: string;
  /**
   * The one valid `x-api-key`.
   * @default 'sandbox-key'
   */
  apiKey?: string;
  /**
   * Daily allowance of counted requests (spec 8); see `planAllowances`.
   * @default 100 (the free plan)
   */
  allowance?: number;
  /**
   * Delay added before every non-control response, in milliseconds.
   * @default 0
   */
  latencyMs?: number;
  /**
   * Fixture seed: the same seed gives the same data.
   * @default 1
   */
  seed?: number;
  /**
   * Which data to serve (sandbox/fixtures/dataset.ts): `default`, the
   * data the gateway was written with, or `alt`, the same spec with other
   * IDs, names, counts, date offsets, unknown fields and optional parts left
   * out (fixtures/alt-dataset.ts).
   * @default 'default'
   */
  dataset?: DatasetName;
  /**
   * Clock for the allowance and its daily reset, so tests can move time.
   * @default Date.now
   */
  clock?: () => number;
  /**
   * Odds WebSocket cadence (sandbox/ws/cadence.ts): the spec's, or a
   * fast one for tests.
   * @default 'spec'
   */
  oddsCadence?: OddsCadence;
  /**
   * Average milliseconds between the match events a match with odds
   * subscribers has on its own (sandbox/ws/odds-socket.ts); 0 = none,
   * every change is one a control route asked for.
   * @default 0
   */
  matchEventMs?: number;
  /**
   * Real milliseconds per minute of play of the live World Cup games
   * (sandbox/live/simulation.ts), on `clock`: their clocks, goals,
   * half-time and full time, in REST and in odds alike. 0 stands them still
   * at the fixtures' minute and score; only the `/__sandbox/matches` control
   * routes move them.
   * @default 0
   */
  matchMinuteMs?: number;
}

export interface SandboxHandle {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  /** The data being served, for tests that need to know what to expect. */
  readonly fixtures: Fixtures;
  /** Stops listening and destroys open sockets (hung and streaming requests included). */
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const {
    port = 0,
    host = '127.0.0.1',
    apiKey = 'sandbox-key',
    allowance = planAllowances.free,
    latencyMs = 0,
    seed = 1,
    dataset = 'default',
    clock = Date.now,
  } = options;
  if (apiKey === '') throw new TypeError('startSandbox: apiKey must not be empty');
  if (!Number.isInteger(allowance) || allowance < 0)
    throw new TypeError('startSandbox: allowance must be a non-negative integer');
  if (!Number.isFinite(latencyMs) || latencyMs < 0)
    throw new TypeError('startSandbox: latencyMs must be a non-negative number');
  if (!isDatasetName(dataset))
    throw new TypeError(
      `startSandbox: dataset must be one of ${DATASET_NAMES.join(', ')}, got ${JSON.stringify(String(dataset)).slice(0, 40)}`,
    );

  const closing = new AbortController();
  const sockets = new Set<Socket>();
  const control: ControlState = {
    requests: new RequestLog(),
    faults: new FaultStore(),
    allowance: new Allowance(allowance, clock()),
    clock,
  };

  // Fixtures carry image URLs that point back here, so they wait for the port;
  // until then (one synchronous step after listening) nothing can be served.
  let handler: ReturnType<typeof createRequestHandler> | undefined;
  let simulation: MatchSimulation | undefined;
  const server = createServer((req, res) => {
    if (oddsSocket.handleControl(req, res)) return;
    if (simulation !== undefined && handleMatchControl(simulation, oddsSocket.odds, req, res)) return;
    if (handler === undefined) {
      res.writeHead(503).end();
      return;
    }
    void handler(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // The odds WebSocket (`/ws`) and its `/__sandbox/ws`, `/__sandbox/odds` control routes.
  const oddsSocket = attachOddsSocket(server, {
    apiKey,
    seed,
    clock,
    cadence: options.oddsCadence ?? 'spec',
    matchEventMs: options.matchEventMs ?? 0,
  });

  await listen(server, port, host);
  const boundPort = (server.address() as AddressInfo).port;
  const url = `http://${urlHost(host)}:${boundPort}`;
  const fixtures = buildFixtures({ seed, baseUrl: url, dataset: datasetNamed(dataset) });
  const router = registerAll(new Router(), fixtures);
  const live = new MatchSimulation({ worldCup: fixtures.worldCup, seed, clock, minuteMs: options.matchMinuteMs ?? 0 });
  oddsSocket.odds.follow(live);
  simulation = live;
  handler = createRequestHandler({ router, fixtures, control, apiKey, latencyMs, closing: closing.signal, live });

  let closed: Promise<void> | undefined;
  return {
    url,
    port: boundPort,
    fixtures,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        closing.abort();
        live.close();
        oddsSocket.close();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      })),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** A wildcard address is not somewhere a client can connect to; loopback is. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
