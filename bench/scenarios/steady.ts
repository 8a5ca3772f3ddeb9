/**
 * steady: the warm representative query at a steady load for 60 s
 * (`BENCH_STEADY_SECONDS`), sampling the gateway's RSS each second and its
 * CPU time over the whole run (/proc: the gateway process alone), and at
 * the end what holds its memory (bench/gateway-memory.ts) when the gateway
 * was started with the bench's control channel.
 */
import { graphqlHeaders, operationBody } from '../graphql.js';
import { throughput } from '../load.js';
import { gatewayMemory, type GatewayMemory } from '../gateway-memory.js';
import { measuredPid, procStats } from '../processes.js';
import { median, round } from '../stats.js';
import type { Service } from '../stack.js';
import { representative } from '../workload.js';

export interface SteadyResult {
  durationSeconds: number;
  connections: number;
  requestsPerSecond: number;
  p99Ms: number;
  /** The steady-state RSS: the median of the per-second samples (issue 16's `steady.rssMb`). */
  rssMb: number;
  rssMbMedian: number;
  rssMbMax: number;
  rssMbStart: number;
  rssMbEnd: number;
  /** CPU time over wall time, percent of one core. */
  cpuPercent: number;
  /** What holds the memory at the end of the run. */
  memory: GatewayMemory | undefined;
}

export async function runSteady(
  gateway: Service,
  options: { durationSeconds: number; connections: number },
): Promise<SteadyResult> {
  const pid = measuredPid(gateway.child);
  const rss: number[] = [];
  const start = procStats(pid);
  const startedAt = performance.now();
  const sampler = setInterval(() => rss.push(procStats(pid).rssBytes), 1_000);
  let load;
  try {
    load = await throughput(
      {
        url: gateway.url,
        method: 'POST',
        path: '/graphql',
        headers: { ...graphqlHeaders },
        body: operationBody(representative),
      },
      options,
    );
  } finally {
    clearInterval(sampler);
  }
  const end = procStats(pid);
  const memory = await gatewayMemory(gateway.child);
  const wallMs = performance.now() - startedAt;
  const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);
  return {
    durationSeconds: options.durationSeconds,
    connections: options.connections,
    requestsPerSecond: round(load.requestsPerSecond, 0),
    p99Ms: load.p99Ms,
    rssMb: mb(median(rss)),
    rssMbMedian: mb(median(rss)),
    rssMbMax: mb(Math.max(...rss)),
    rssMbStart: mb(start.rssBytes),
    rssMbEnd: mb(end.rssBytes),
    cpuPercent: round(((end.cpuMs - start.cpuMs) / wallMs) * 100, 1),
    memory,
  };
}
