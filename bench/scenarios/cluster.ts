/**
 * cluster: three gateway replicas in cluster mode against the bench's
 * sandbox, with the switches of the single gateways plus `REDIS_URL`,
 * `REPLICA_ID` r1..r3 and a DATA_DIR each, on one redis-server of the bench's
 * own (test/support/redis-server.ts). Redis and the replicas run on the
 * server's core, so on two cores the three replicas share what one replica
 * had: `warm` shows the cost of the cluster, not scale-out.
 *
 * - `upstream`: the upstream scenario's workload on a fresh cluster, spread
 *   round-robin (operation i on replica i mod 3, one at a time: most
 *   operations meet resources another replica fetched). Its `requests` are
 *   what the sandbox received, to compare with `upstream.minimum`: one cache
 *   for the cluster spends what one replica spends. `repeat`: the workload
 *   again, shifted by one replica, so that no operation lands where it ran
 *   before and only a shared cache can answer it.
 * - `warm`: the warm scenario's query and load settings through the three
 *   replicas (autocannon opens connection i to replica i mod 3, as a load
 *   balancer balancing connections does), beside the single gateway of the
 *   warm scenario and one replica alone, in rounds that rotate who goes
 *   first.
 *
 * - CPU per operation with `REDIS_URL` set, beside the single gateway, and
 *   Redis's own (cluster-cpu.ts): `cpuMsPerOp` (result-cache hits),
 *   `engineCpuMsPerOp` (`RESULT_CACHE=false`).
 * - `redisRoundTripsPerOp`: Redis round trips per operation, from the
 *   replicas' /metrics (background senders left out): `cold` over the
 *   round-robin workload on the fresh cluster, `sharedHit` over its repeat
 *   (every operation on a replica that never ran it: its result comes from
 *   Redis), `hit` and `engine` over the CPU runs.
 *
 * One cluster serves all (a cluster start is three cold starts on one
 * core); the warm runs come after the workload, whose first operation is the
 * warm query.
 */
import { isDeepStrictEqual } from 'node:util';
import { graphqlHeaders, operationBody, postOperation } from '../graphql.js';
import { connectionsPerServer, throughput, type SpreadTarget, type Target, type Throughput } from '../load.js';
import { pinProcess, type Pinning } from '../processes.js';
import { median, round } from '../stats.js';
import type { Service } from '../stack.js';
import { representative, workload } from '../workload.js';
import { runWorkload, type WorkloadRun } from './upstream.js';
import { startRedis, type RedisServer } from '../../test/support/redis-server.js';
import { redisRoundTrips, roundTripsBetween, totalRoundTrips } from '../../test/support/redis-round-trips.js';
import { measureClusterCpu, type ClusterCpuResult } from './cluster-cpu.js';

export interface ClusterUpstreamResult {
  replicas: number;
  /** How the operations were spread over the replicas for `requests` and `repeat`. */
  spread: string;
  operations: number;
  /** Requests the sandbox received for the workload across the replicas, nothing cached at start. */
  requests: number;
  /** `upstream.minimum` of the same run: the distinct resources the workload needs. */
  minimum: number;
  /** The workload again, each operation on the next replica: expected 0 within the TTLs. */
  repeat: number;
  /** Operations answered by each replica in the round-robin run. */
  operationsPerReplica: number[];
  /** Operations that answered with errors, all runs (expected 0). */
  operationErrors: number;
}

interface Figure {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface ClusterWarmResult {
  replicas: number;
  /** Median over rounds of three replicas' throughput over the single gateway's. */
  ratio: number;
  /** Median over rounds of one replica's (cluster mode) throughput over the single gateway's. */
  oneReplicaRatio: number;
  /** The warm scenario's gateway: no Redis, one process. */
  single: Figure;
  /** Replica r1 alone: cluster mode's cost per request. */
  oneReplica: Figure;
  /** The three replicas, connections spread round-robin. */
  threeReplicas: Figure;
  connectionsPerReplica: number[];
  /** Every replica's answer has the single gateway's `data`. */
  sameJson: boolean;
  /** Cores the replicas, Redis and the single gateway all run on (the server's core when pinned). */
  serverCores: number;
  rounds: number;
  connections: number;
  durationSeconds: number;
}

export interface ClusterResult {
  upstream: ClusterUpstreamResult;
  warm: ClusterWarmResult;
  /** Replica CPU ms per result-cache hit with REDIS_URL set (cpu.hit has the single gateway's beside it). */
  cpuMsPerOp: number;
  /** Replica CPU ms per executed operation (RESULT_CACHE=false, upstream answers cached), REDIS_URL set. */
  engineCpuMsPerOp: number;
  redisRoundTripsPerOp: { hit: number; sharedHit: number; engine: number; cold: number };
  /** `cold` and `sharedHit` by sender (src/state/redis/round-trips.ts), per operation. */
  redisRoundTripsBySender: { sharedHit: Record<string, number>; cold: Record<string, number> };
  cpu: ClusterCpuResult;
  /** Load average when the cluster scenario started and ended (1, 5, 15 minutes). */
  loadAverage: { start: string; end: string };
}

export interface ClusterOptions {
  /** Starts a gateway with the bench's environment plus `env` (stack.startGateway). */
  startGateway: (name: string, env: Record<string, string>) => Promise<Service>;
  pinning: Pinning;
  sandboxUrl: string;
  /** `upstream.minimum`, measured on a naive gateway in the same run. */
  minimum: number;
  /** The single gateway the warm scenario measures. */
  single: Service;
  serverCores: number;
  replicas?: number;
  rounds: number;
  durationSeconds: number;
  connections: number;
  log: (message: string) => void;
  loadAverage: () => string;
}

const CLUSTER_FORM_TIMEOUT_MS = 30_000;

/** The replicas, resolved once every one's /healthz sees all of them, so that nothing is measured while the cluster forms. */
async function startReplicas(options: ClusterOptions, redis: RedisServer, count: number): Promise<Service[]> {
  const ids = Array.from({ length: count }, (_, i) => `r${i + 1}`);
  const replicas: Service[] = [];
  // One after the other: pinned to one core, parallel cold starts take no less in all and each takes three times as long.
  for (const id of ids)
    replicas.push(await options.startGateway(`cluster-${id}`, { REDIS_URL: redis.url, REPLICA_ID: id }));
  const deadline = Date.now() + CLUSTER_FORM_TIMEOUT_MS;
  for (const [i, replica] of replicas.entries()) {
    for (;;) {
      const health = (await (await fetch(`${replica.url}/healthz`)).json()) as {
        status?: string;
        mode?: string;
        members?: string[];
      };
      if (
        health.status === 'ok' &&
        health.mode === 'cluster' &&
        ids.every((id) => health.members?.includes(id) === true)
      )
        break;
      if (Date.now() > deadline)
        throw new Error(
          `cluster: replica ${ids[i]} did not see ${ids.join(', ')} within ${CLUSTER_FORM_TIMEOUT_MS} ms: ${JSON.stringify(health)}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return replicas;
}

async function stopAll(services: readonly Service[]): Promise<void> {
  await Promise.all(services.map((service) => service.child.stop()));
}

function upstreamResult(
  options: ClusterOptions,
  count: number,
  runs: { spread: WorkloadRun; again: WorkloadRun },
): ClusterUpstreamResult {
  return {
    replicas: count,
    spread: `round-robin: operation i on replica i mod ${count}, one at a time; repeat: on replica (i + 1) mod ${count}`,
    operations: workload.length,
    requests: runs.spread.log.length,
    minimum: options.minimum,
    repeat: runs.again.log.length,
    operationsPerReplica: runs.spread.perGateway,
    operationErrors: runs.spread.errors + runs.again.errors,
  };
}

const summary = (runs: readonly Throughput[]): Figure => ({
  requestsPerSecond: round(median(runs.map((r) => r.requestsPerSecond)), 0),
  p50Ms: median(runs.map((r) => r.p50Ms)),
  p99Ms: median(runs.map((r) => r.p99Ms)),
});

async function measureWarm(options: ClusterOptions, replicas: readonly Service[]): Promise<ClusterWarmResult> {
  const fromSingle = await postOperation(options.single.url, representative);
  if (fromSingle.status !== 200 || fromSingle.body.errors !== undefined) {
    throw new Error(
      `cluster warm: the single gateway did not answer the representative query: ${JSON.stringify(fromSingle.body.errors)}`,
    );
  }
  let sameJson = true;
  for (const replica of replicas) {
    const answer = await postOperation(replica.url, representative);
    if (answer.status !== 200 || answer.body.errors !== undefined) {
      throw new Error(
        `cluster warm: replica ${replica.url} did not answer the representative query: ${JSON.stringify(answer.body.errors)}`,
      );
    }
    sameJson &&= isDeepStrictEqual(answer.body.data, fromSingle.body.data);
  }

  const request = {
    method: 'POST' as const,
    path: '/graphql',
    headers: { ...graphqlHeaders },
    body: operationBody(representative),
  };
  const [first] = replicas;
  if (first === undefined) throw new TypeError('cluster warm: no replica');
  const targets: ReadonlyArray<Target | SpreadTarget> = [
    { ...request, url: options.single.url },
    { ...request, url: first.url },
    { ...request, urls: replicas.map((replica) => replica.url) },
  ];
  const load = { connections: options.connections, durationSeconds: options.durationSeconds };
  // Unmeasured first, so that every process is JIT-warm (the spread run warms all replicas).
  for (const target of targets) await throughput(target, { ...load, durationSeconds: 1 });

  const runs: Throughput[][] = targets.map(() => []);
  const ratios: number[] = [];
  const oneReplicaRatios: number[] = [];
  for (let i = 0; i < options.rounds; i += 1) {
    // Each round starts with the next target, so that none always runs first or last.
    const measured: Throughput[] = [];
    for (let k = 0; k < targets.length; k += 1) {
      const index = (i + k) % targets.length;
      const result = await throughput(targets[index]!, load);
      if (result.non2xx + result.errors > 0)
        throw new Error(`cluster warm: ${result.non2xx + result.errors} failed requests (target ${index})`);
      measured[index] = result;
    }
    const [single, one, three] = measured as [Throughput, Throughput, Throughput];
    runs[0]!.push(single);
    runs[1]!.push(one);
    runs[2]!.push(three);
    ratios.push(three.requestsPerSecond / single.requestsPerSecond);
    oneReplicaRatios.push(one.requestsPerSecond / single.requestsPerSecond);
  }
  return {
    replicas: replicas.length,
    ratio: round(median(ratios), 3),
    oneReplicaRatio: round(median(oneReplicaRatios), 3),
    single: summary(runs[0]!),
    oneReplica: summary(runs[1]!),
    threeReplicas: summary(runs[2]!),
    connectionsPerReplica: connectionsPerServer(options.connections, replicas.length),
    sameJson,
    serverCores: options.serverCores,
    rounds: options.rounds,
    connections: options.connections,
    durationSeconds: options.durationSeconds,
  };
}

/** The replicas' Redis round trips (background senders left out) per workload operation while `run` ran, in all and by sender. */
async function roundTripsPerOp(
  replicas: readonly Service[],
  run: () => Promise<WorkloadRun>,
): Promise<{ value: WorkloadRun; perOp: number; bySender: Record<string, number> }> {
  const read = (): Promise<Array<Map<string, number>>> =>
    Promise.all(replicas.map((replica) => redisRoundTrips(replica.url)));
  const before = await read();
  const value = await run();
  const after = await read();
  const bySender: Record<string, number> = {};
  for (const [i, reading] of after.entries()) {
    for (const [sender, trips] of Object.entries(roundTripsBetween(before[i] ?? new Map(), reading)))
      bySender[sender] = (bySender[sender] ?? 0) + trips;
  }
  const perOp = (trips: number): number => round(trips / workload.length, 3);
  return {
    value,
    perOp: perOp(totalRoundTrips(bySender)),
    bySender: Object.fromEntries(Object.entries(bySender).map(([sender, trips]) => [sender, perOp(trips)])),
  };
}

export async function runCluster(options: ClusterOptions): Promise<ClusterResult> {
  const count = options.replicas ?? 3;
  const redis = await startRedis();
  try {
    // Part of the system under test: on the server's core with the replicas, off the load generator's.
    if (redis.pid !== undefined) pinProcess(options.pinning, redis.pid, options.pinning.serverCpu);
    const replicas = await startReplicas(options, redis, count);
    try {
      const loadAtStart = options.loadAverage();
      options.log(`cluster upstream (load average ${loadAtStart})`);
      const spread = await roundTripsPerOp(replicas, () => runWorkload(replicas, options.sandboxUrl, 0));
      const again = await roundTripsPerOp(replicas, () => runWorkload(replicas, options.sandboxUrl, 1));
      const upstream = upstreamResult(options, count, { spread: spread.value, again: again.value });
      options.log('cluster warm');
      const warm = await measureWarm(options, replicas);
      options.log(`cluster cpu (load average ${options.loadAverage()})`);
      const [first] = replicas;
      if (first === undefined || redis.pid === undefined)
        throw new TypeError('cluster cpu: no replica or no Redis process');
      const cpu = await measureClusterCpu({ ...options, redisUrl: redis.url, redisPid: redis.pid, replica: first });
      return {
        upstream,
        warm,
        cpuMsPerOp: cpu.hit.cpuMsPerOp,
        engineCpuMsPerOp: cpu.engine.cpuMsPerOp,
        redisRoundTripsPerOp: {
          hit: cpu.hit.redisRoundTripsPerOp,
          sharedHit: again.perOp,
          engine: cpu.engine.redisRoundTripsPerOp,
          cold: spread.perOp,
        },
        redisRoundTripsBySender: { sharedHit: again.bySender, cold: spread.bySender },
        cpu,
        loadAverage: { start: loadAtStart, end: options.loadAverage() },
      };
    } finally {
      await stopAll(replicas);
    }
  } finally {
    await redis.stop();
  }
}
