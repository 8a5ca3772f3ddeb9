/**
 * cluster CPU (issue 16, item 5): what `REDIS_URL` costs one replica per
 * operation, beside the single gateway on the same load, and what it costs
 * Redis. Two workloads, both the warm scenario's query and load settings:
 *
 * - `hit`: result-cache hits. Replica r1 (cluster mode) against the warm
 *   scenario's single gateway (no Redis): hits from the replica's own layer,
 *   answered before yoga.
 * - `engine`: `RESULT_CACHE=false`, upstream answers cached: a replica
 *   started for it (`REPLICA_ID` r-engine) against a single gateway with the
 *   same switch.
 *
 * Each side's CPU is read from /proc around its run (bench/cpu.ts), rounds
 * alternating which side goes first; Redis's own CPU over the cluster side's
 * runs is read the same way, and the replica's Redis round trips from its
 * /metrics (test/support/redis-round-trips.ts). All of them are per
 * operation, so a busy load generator changes neither.
 */
import { spreadOf, type Spread } from '../cpu.js';
import { graphqlHeaders, operationBody, postOperation } from '../graphql.js';
import { throughput, type Target } from '../load.js';
import { measuredPid, procStats } from '../processes.js';
import { round } from '../stats.js';
import type { Service } from '../stack.js';
import { representative } from '../workload.js';
import { redisRoundTrips, roundTripsBetween, totalRoundTrips } from '../../test/support/redis-round-trips.js';

export interface ClusterCpuFigures {
  /** The replica's CPU ms per operation, REDIS_URL set: median of rounds. */
  cpuMsPerOp: number;
  cpuMsPerOpRounds: Spread;
  /** The single gateway's on the same load. */
  singleCpuMsPerOp: number;
  singleCpuMsPerOpRounds: Spread;
  /** Redis's own CPU ms per operation of the replica, over all rounds. */
  redisCpuMsPerOp: number;
  /** Redis round trips per operation of the replica, over all rounds (background senders left out). */
  redisRoundTripsPerOp: number;
  requestsPerSecond: { replica: number; single: number };
}

export interface ClusterCpuResult {
  hit: ClusterCpuFigures;
  engine: ClusterCpuFigures;
  rounds: number;
  connections: number;
  durationSeconds: number;
}

export interface ClusterCpuOptions {
  startGateway: (name: string, env: Record<string, string>) => Promise<Service>;
  redisUrl: string;
  redisPid: number;
  /** A replica with the result cache on (r1). */
  replica: Service;
  /** The warm scenario's single gateway. */
  single: Service;
  rounds: number;
  durationSeconds: number;
  connections: number;
}

interface Run {
  cpuMs: number;
  redisCpuMs: number;
  roundTrips: number;
  requests: number;
  requestsPerSecond: number;
}

const target = (service: Service): Target => ({
  url: service.url,
  method: 'POST',
  path: '/graphql',
  headers: { ...graphqlHeaders },
  body: operationBody(representative),
});

async function measure(
  service: Service,
  load: { connections: number; durationSeconds: number },
  redisPid: number,
): Promise<Run> {
  const pid = measuredPid(service.child);
  const [cpuBefore, redisBefore, tripsBefore] = [
    procStats(pid).cpuMs,
    procStats(redisPid).cpuMs,
    await redisRoundTrips(service.url),
  ];
  const result = await throughput(target(service), load);
  const [cpuAfter, redisAfter, tripsAfter] = [
    procStats(pid).cpuMs,
    procStats(redisPid).cpuMs,
    await redisRoundTrips(service.url),
  ];
  if (result.non2xx + result.errors > 0)
    throw new Error(`cluster cpu: ${result.non2xx + result.errors} failed requests to ${service.url}`);
  return {
    cpuMs: cpuAfter - cpuBefore,
    redisCpuMs: redisAfter - redisBefore,
    roundTrips: totalRoundTrips(roundTripsBetween(tripsBefore, tripsAfter)),
    requests: result.requests,
    requestsPerSecond: result.requestsPerSecond,
  };
}

/** `replica` against `single` on the same load, rounds alternating which goes first. */
async function compare(replica: Service, single: Service, options: ClusterCpuOptions): Promise<ClusterCpuFigures> {
  for (const service of [replica, single]) {
    const check = await postOperation(service.url, representative);
    if (check.status !== 200 || check.body.errors !== undefined)
      throw new Error(`cluster cpu: ${service.url} answered errors ${JSON.stringify(check.body.errors)}`);
  }
  const load = { connections: options.connections, durationSeconds: options.durationSeconds };
  // Unmeasured: JIT, keep-alive connections, and every cache the measured runs rely on.
  for (const service of [replica, single]) await throughput(target(service), { ...load, durationSeconds: 1 });
  const replicaRuns: Run[] = [];
  const singleRuns: Run[] = [];
  for (let i = 0; i < options.rounds; i += 1) {
    const replicaFirst = i % 2 === 0;
    const first = await measure(replicaFirst ? replica : single, load, options.redisPid);
    const second = await measure(replicaFirst ? single : replica, load, options.redisPid);
    replicaRuns.push(replicaFirst ? first : second);
    singleRuns.push(replicaFirst ? second : first);
  }
  const perOp = (runs: readonly Run[], figure: (run: Run) => number): number =>
    runs.reduce((sum, run) => sum + figure(run), 0) / runs.reduce((sum, run) => sum + run.requests, 0);
  const cpu = spreadOf(replicaRuns.map((run) => run.cpuMs / run.requests));
  const singleCpu = spreadOf(singleRuns.map((run) => run.cpuMs / run.requests));
  const rps = (runs: readonly Run[]): number =>
    round(runs.reduce((sum, run) => sum + run.requestsPerSecond, 0) / runs.length, 0);
  return {
    cpuMsPerOp: cpu.median,
    cpuMsPerOpRounds: cpu,
    singleCpuMsPerOp: singleCpu.median,
    singleCpuMsPerOpRounds: singleCpu,
    redisCpuMsPerOp: round(
      perOp(replicaRuns, (run) => run.redisCpuMs),
      4,
    ),
    redisRoundTripsPerOp: round(
      perOp(replicaRuns, (run) => run.roundTrips),
      4,
    ),
    requestsPerSecond: { replica: rps(replicaRuns), single: rps(singleRuns) },
  };
}

export async function measureClusterCpu(options: ClusterCpuOptions): Promise<ClusterCpuResult> {
  const hit = await compare(options.replica, options.single, options);
  const engineReplica = await options.startGateway('cluster-engine', {
    REDIS_URL: options.redisUrl,
    REPLICA_ID: 'r-engine',
    RESULT_CACHE: 'false',
  });
  try {
    const engineSingle = await options.startGateway('cluster-single-engine', { RESULT_CACHE: 'false' });
    try {
      const engine = await compare(engineReplica, engineSingle, options);
      return {
        hit,
        engine,
        rounds: options.rounds,
        connections: options.connections,
        durationSeconds: options.durationSeconds,
      };
    } finally {
      await engineSingle.child.stop();
    }
  } finally {
    await engineReplica.child.stop();
  }
}
