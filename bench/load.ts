/**
 * Load generators: autocannon for throughput (warm), and a sequential
 * one-request-at-a-time loop with a sub-millisecond clock for latency
 * against the upstream's own latency (cold), where autocannon's 1 ms
 * histogram buckets would be too coarse to compare 21 ms with 22 ms.
 * Throughput can spread its connections over several servers (the cluster
 * scenario's replicas), as a load balancer that balances connections does.
 */
import autocannon from 'autocannon';
import { Pool } from 'undici';

export interface Target {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** The same request to several servers: autocannon opens connection i to `urls[i mod n]`. */
export interface SpreadTarget extends Omit<Target, 'url'> {
  readonly urls: readonly string[];
}

/** Connections each of `servers` servers gets from `connections` (autocannon's round-robin). */
export function connectionsPerServer(connections: number, servers: number): number[] {
  return Array.from(
    { length: servers },
    (_, i) => Math.floor(connections / servers) + (i < connections % servers ? 1 : 0),
  );
}

/**
 * autocannon as it runs: its `url` may be an array (lib/url.js), which its
 * type declarations (@types/autocannon) have not caught up with.
 */
const autocannonRun = autocannon as unknown as (
  options: Omit<autocannon.Options, 'url'> & { url: string | string[] },
) => Promise<autocannon.Result>;

export interface Throughput {
  readonly requestsPerSecond: number;
  /** Responses received in the run (the operations a CPU figure is divided by). */
  readonly requests: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly errors: number;
}

/** What autocannon is told of `target`: where, and the request it sends over and over. */
function requestOf(target: Target | SpreadTarget) {
  return {
    url: 'urls' in target ? target.urls.map((url) => url + target.path) : target.url + target.path,
    method: target.method,
    ...(target.headers === undefined ? {} : { headers: target.headers }),
    ...(target.body === undefined ? {} : { body: target.body }),
    pipelining: 1,
  };
}

export async function throughput(
  target: Target | SpreadTarget,
  options: { connections: number; durationSeconds: number },
): Promise<Throughput> {
  const result = await autocannonRun({
    ...requestOf(target),
    connections: options.connections,
    duration: options.durationSeconds,
  });
  return {
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * `operations` requests on `connections` connections, unmeasured: a side
 * warmed by a count of operations has run its code as often as any other
 * side, however slow each of its operations is (V8 tiers code up by how
 * often it ran, not by how long).
 */
export async function warmUp(target: Target, options: { connections: number; operations: number }): Promise<void> {
  await autocannonRun({ ...requestOf(target), connections: options.connections, amount: options.operations });
}

/** Latencies in ms of `count` requests sent one after the other. */
export async function sequentialLatencies(target: Target, count: number): Promise<number[]> {
  const pool = new Pool(target.url, { connections: 1 });
  const latencies: number[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const started = performance.now();
      const response = await pool.request({
        method: target.method,
        path: target.path,
        ...(target.headers === undefined ? {} : { headers: target.headers }),
        ...(target.body === undefined ? {} : { body: target.body }),
      });
      await response.body.arrayBuffer();
      latencies.push(performance.now() - started);
      if (response.statusCode !== 200) throw new Error(`${target.path}: status ${response.statusCode}`);
    }
  } finally {
    await pool.close();
  }
  return latencies;
}
