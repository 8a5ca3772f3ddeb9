/**
 * engine: the representative query executed on every request (the gateway
 * started with `RESULT_CACHE=false`) while every upstream resource is in the
 * gateway's upstream cache, against the hand-written REST client making its
 * upstream calls on every request (`GET /cold`: node:http, one undici Pool,
 * no cache). Both under the same autocannon load, rounds alternating which
 * side goes first.
 *
 * The figure is CPU per operation read from /proc for each process, so that
 * the load generator's core (shared with the sandbox and whatever else runs
 * on the machine) changes neither side's figure. `ratio` is the REST
 * client's CPU per operation over the gateway's: the throughput each reaches
 * on one core of its own.
 *
 * The engine's floor (issue 34) runs in the same rounds: the same operation
 * executed by graphql-jit alone, no yoga and no plugins, behind a bare
 * `node:http` server in the engine gateway's own process, over the same
 * cached payloads (bench/engine-floor.ts). `floorRatio` is, per round, the
 * gateway's CPU per operation over the floor's.
 */
import { cpuDuring, spreadOf, type Spread } from '../cpu.js';
import { throughput, warmUp } from '../load.js';
import { median, round } from '../stats.js';
import { resetSandboxCounts, sandboxAllowanceRemaining, sandboxRequestTotal, type Service } from '../stack.js';
import { setSandboxQuota } from '../../test/support/client.js';
import { isDeepStrictEqual } from 'node:util';
import { operationBody } from '../graphql.js';
import { representative } from '../workload.js';
import { gatewayAndDirect, rotatedRounds, type Side } from './sides.js';

export interface EngineResult {
  /** Gateway CPU ms per executed operation (rounds). */
  cpuMsPerOp: number;
  cpuMsPerOpRounds: Spread;
  /** The REST client's CPU ms per request (its upstream calls included). */
  directCpuMsPerOp: number;
  directCpuMsPerOpRounds: Spread;
  /** directCpuMsPerOp / cpuMsPerOp, per round. */
  ratio: number;
  ratioRounds: Spread;
  gateway: { requestsPerSecond: number; p50Ms: number; p99Ms: number };
  direct: { requestsPerSecond: number; p50Ms: number; p99Ms: number };
  rounds: number;
  connections: number;
  durationSeconds: number;
  /** Upstream requests per operation the sandbox received from each side (with `sandboxUrl`): below the REST client's, the gateway shared them. */
  upstreamRequestsPerOp?: { gateway: number; direct: number };
  /** The third side's CPU ms per operation, per round (with `third`). */
  thirdCpuMsPerOp?: number[];
  /** The gateway's and the REST client's CPU ms per operation, per round. */
  perRound: { gateway: number[]; direct: number[] };
}

export interface EngineFloorResult extends EngineResult {
  /** The floor's CPU ms per operation (bench/engine-floor.ts). */
  floorCpuMsPerOpRounds: Spread;
  /** Gateway CPU per operation / the floor's, per round. */
  floorRatio: Spread;
  /** The floor's `data` is the gateway's. */
  floorSameData: boolean;
}

export interface UnderLoadOptions {
  rounds: number;
  durationSeconds: number;
  connections: number;
  /** Counts each side's upstream requests from the sandbox's log. */
  sandboxUrl?: string;
  /** A third side measured in the same rounds (CPU per operation of its service only). */
  third?: Side;
  /** Unmeasured operations each side serves first; without it, one second of load each. */
  warmupOperations?: number;
}

export async function runEngine(
  gateway: Service,
  direct: Service,
  floorUrl: string,
  options: UnderLoadOptions,
): Promise<EngineFloorResult> {
  const floorSide: Side = {
    service: gateway,
    target: { url: floorUrl, method: 'POST', path: '/graphql', body: operationBody(representative) },
  };
  const fromFloor = (await (
    await fetch(`${floorUrl}/graphql`, { method: 'POST', body: operationBody(representative) })
  ).json()) as { data?: unknown };
  const fromGateway = (await (
    await fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: operationBody(representative),
    })
  ).json()) as { data?: unknown };
  const measured = await runUnderLoad('engine', gateway, direct, { ...options, third: floorSide });
  const floorCpu = measured.thirdCpuMsPerOp ?? [];
  return {
    ...measured,
    floorCpuMsPerOpRounds: spreadOf(floorCpu),
    floorRatio: spreadOf(measured.perRound.gateway.map((cpu, i) => cpu / floorCpu[i]!)),
    floorSameData: isDeepStrictEqual(fromFloor.data, fromGateway.data),
  };
}

/**
 * Both sides under the same autocannon load, CPU per operation from /proc:
 * the engine scenario, and the truly cold gateway (trueCold in run.ts),
 * whose figure is what a cold operation costs a serving gateway.
 */
export async function runUnderLoad(
  scenario: string,
  gateway: Service,
  direct: Service,
  options: UnderLoadOptions,
): Promise<EngineResult> {
  const { gatewaySide, directSide } = await gatewayAndDirect(scenario, gateway, direct);
  const load = { connections: options.connections, durationSeconds: options.durationSeconds };
  /**
   * The sides spend one sandbox key (Mega: 150,000 a day), which a long run
   * could use up: a gateway refused answers 200 with errors and no upstream
   * work, cheaply. So every run starts with the whole allowance.
   */
  const refill = (sandboxUrl: string): Promise<void> => setSandboxQuota(sandboxUrl, { used: 0 });
  // Unmeasured: JIT, keep-alive connections and the upstream cache on every side.
  for (const side of [gatewaySide, directSide, ...(options.third === undefined ? [] : [options.third])]) {
    if (options.sandboxUrl !== undefined) await refill(options.sandboxUrl);
    if (options.warmupOperations === undefined) await throughput(side.target, { ...load, durationSeconds: 1 });
    else await warmUp(side.target, { connections: options.connections, operations: options.warmupOperations });
  }

  const measure = async (side: Side) => {
    if (options.sandboxUrl !== undefined) {
      await resetSandboxCounts(options.sandboxUrl);
      await refill(options.sandboxUrl);
    }
    const { value, cpuMs } = await cpuDuring(side.service.child, () => throughput(side.target, load));
    if (value.non2xx + value.errors > 0)
      throw new Error(`${scenario}: ${value.non2xx + value.errors} failed requests to ${side.target.path}`);
    // A gateway whose allowance ran out still answers 200 (with errors, and cheaply): not a figure of upstream work.
    if (options.sandboxUrl !== undefined && (await sandboxAllowanceRemaining(options.sandboxUrl)) === 0)
      throw new Error(
        `${scenario}: the sandbox's daily allowance ran out during a measured run of ${side.target.path}`,
      );
    const upstream =
      options.sandboxUrl === undefined ? undefined : (await sandboxRequestTotal(options.sandboxUrl)) / value.requests;
    return { ...value, cpuMsPerOp: cpuMs / value.requests, upstream };
  };
  const [g = [], d = [], third] = await rotatedRounds(
    options.rounds,
    [gatewaySide, directSide, ...(options.third === undefined ? [] : [options.third])],
    measure,
  );
  const ratios = g.map((round_, i) => d[i]!.cpuMsPerOp / round_.cpuMsPerOp);
  const summary = (runs: typeof g) => ({
    requestsPerSecond: round(median(runs.map((r) => r.requestsPerSecond)), 0),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
  });
  const gatewayCpu = spreadOf(g.map((r) => r.cpuMsPerOp));
  const directCpu = spreadOf(d.map((r) => r.cpuMsPerOp));
  const ratio = spreadOf(ratios);
  return {
    cpuMsPerOp: gatewayCpu.median,
    cpuMsPerOpRounds: gatewayCpu,
    directCpuMsPerOp: directCpu.median,
    directCpuMsPerOpRounds: directCpu,
    ratio: ratio.median,
    ratioRounds: ratio,
    gateway: summary(g),
    direct: summary(d),
    rounds: options.rounds,
    connections: options.connections,
    durationSeconds: options.durationSeconds,
    perRound: { gateway: g.map((r) => r.cpuMsPerOp), direct: d.map((r) => r.cpuMsPerOp) },
    ...(third === undefined ? {} : { thirdCpuMsPerOp: third.map((r) => r.cpuMsPerOp) }),
    ...(options.sandboxUrl === undefined
      ? {}
      : {
          upstreamRequestsPerOp: {
            gateway: round(median(g.map((r) => r.upstream ?? 0)), 2),
            direct: round(median(d.map((r) => r.upstream ?? 0)), 2),
          },
        }),
  };
}
