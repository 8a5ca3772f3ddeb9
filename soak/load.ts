/**
 * Steady GraphQL queries over HTTP: `workers` loops on one undici Pool, each
 * sending its next query at a fixed pace (together `qps` a second), so the
 * load is the same at the start and the end of the soak whatever the
 * gateway's speed (a slow gateway shows as a lower achieved rate, not as a
 * growing queue in the load generator).
 */
import { Pool } from 'undici';
import { operationAt } from './queries.js';

export interface LoadStats {
  sent: number;
  ok: number;
  /** Answered with at least one upstream request (`extensions.cost.upstreamRequests` > 0). */
  wentUpstream: number;
  /** Answered with none: the shared cache (or an in-flight request) answered. */
  fromCache: number;
  /** HTTP 5xx. */
  http5xx: number;
  /** Any other non-200 status. */
  httpOther: number;
  /** 200 with `errors` in the body, by error code. */
  graphqlErrors: Record<string, number>;
  /** Connection failures and timeouts on the client side. */
  transportErrors: number;
  latenciesMs: number[];
}

interface GraphQLBody {
  data?: unknown;
  errors?: Array<{ extensions?: { code?: unknown } }>;
  extensions?: { cost?: { upstreamRequests?: unknown } };
}

export interface SteadyLoad {
  readonly stats: LoadStats;
  stop(): Promise<void>;
}

export function startSteadyLoad(gatewayUrl: string, options: { qps: number; workers: number }): SteadyLoad {
  const pool = new Pool(gatewayUrl, { connections: options.workers, keepAliveTimeout: 30_000 });
  const stats: LoadStats = {
    sent: 0,
    ok: 0,
    wentUpstream: 0,
    fromCache: 0,
    http5xx: 0,
    httpOther: 0,
    graphqlErrors: {},
    transportErrors: 0,
    latenciesMs: [],
  };
  let running = true;
  let counter = 0;
  const intervalMs = (1000 * options.workers) / options.qps;

  const sendOne = async (): Promise<void> => {
    const n = counter++;
    const operation = operationAt(n);
    stats.sent++;
    const started = performance.now();
    try {
      const response = await pool.request({
        method: 'POST',
        path: '/graphql',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
        body: JSON.stringify({ query: operation.query, variables: operation.variables(Math.floor(n / 2)) }),
        headersTimeout: 15_000,
        bodyTimeout: 15_000,
      });
      const text = await response.body.text();
      stats.latenciesMs.push(performance.now() - started);
      if (response.statusCode >= 500) stats.http5xx++;
      else if (response.statusCode !== 200) stats.httpOther++;
      if (response.statusCode !== 200) return;
      const body = JSON.parse(text) as GraphQLBody;
      if (body.errors !== undefined && body.errors.length > 0) {
        for (const error of body.errors) {
          const code = typeof error.extensions?.code === 'string' ? error.extensions.code : 'NO_CODE';
          stats.graphqlErrors[code] = (stats.graphqlErrors[code] ?? 0) + 1;
        }
        return;
      }
      stats.ok++;
      const upstream = body.extensions?.cost?.upstreamRequests;
      if (typeof upstream === 'number' && upstream > 0) stats.wentUpstream++;
      else stats.fromCache++;
    } catch {
      stats.transportErrors++;
    }
  };

  const worker = async (index: number): Promise<void> => {
    // Spread the workers over one interval so the rate is even, not bursty.
    let next = performance.now() + (intervalMs * index) / options.workers;
    while (running) {
      const wait = next - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (!running) break;
      next += intervalMs;
      await sendOne();
      // Behind schedule (a slow answer): skip the missed slots instead of bursting to catch up.
      if (next < performance.now()) next = performance.now();
    }
  };
  const workers = Array.from({ length: options.workers }, (_, index) => worker(index));

  return {
    stats,
    stop: async () => {
      running = false;
      await Promise.all(workers);
      await pool.close();
    },
  };
}
