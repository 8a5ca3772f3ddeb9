/**
 * peers: this gateway against Hive Gateway (bench/peer-hive.ts) on the same
 * sandbox, the same three upstream resources per operation, both on the
 * server core, rounds alternating which side goes first. Hive Gateway runs
 * as installed (it caches nothing by default); this gateway runs in three
 * configurations, each at the connections given:
 *
 * - warm: as shipped (result cache and upstream cache);
 * - resultCacheOff: `RESULT_CACHE=false` (every operation executes over the upstream cache);
 * - trueCold: every data class at TTL 0 (every operation goes upstream; in-flight sharing still applies, as shipped).
 */
import { operationBody, graphqlHeaders } from '../graphql.js';
import { cpuDuring, spreadOf, type Spread } from '../cpu.js';
import { throughput, type Target, type Throughput } from '../load.js';
import { median, round } from '../stats.js';
import type { Service } from '../stack.js';
import type { Operation } from '../workload.js';

export interface PeerCase {
  readonly connections: number;
  /** This gateway's requests per second over Hive Gateway's, per round. */
  readonly throughputRatio: Spread;
  readonly gatewayRequestsPerSecond: number;
  readonly hiveRequestsPerSecond: number;
  readonly gatewayCpuMsPerOp: number;
  readonly hiveCpuMsPerOp: number;
  readonly gatewayP99Ms: number;
  readonly hiveP99Ms: number;
  /** Hive Gateway's CPU per operation over this gateway's (median of rounds): what each side's core buys. */
  readonly cpuPerOpRatio: number;
}

export interface PeerSides {
  readonly gateway: Service;
  readonly gatewayOperation: Operation;
  readonly hive: Service;
  readonly hiveOperation: Operation;
}

const target = (service: Service, operation: Operation): Target => ({
  url: service.url,
  method: 'POST',
  path: '/graphql',
  headers: { ...graphqlHeaders },
  body: operationBody(operation),
});

/** Fails loudly when a side answers with errors: a throughput of error answers is not a figure. */
export async function checkAnswers(service: Service, operation: Operation, name: string): Promise<void> {
  const response = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: graphqlHeaders,
    body: operationBody(operation),
  });
  const body = (await response.json()) as { data?: unknown; errors?: unknown };
  if (response.status !== 200 || body.errors !== undefined || body.data == null)
    throw new Error(`peers: ${name} answered ${response.status} ${JSON.stringify(body).slice(0, 500)}`);
}

export async function comparePeers(
  sides: PeerSides,
  options: { connections: number; rounds: number; durationSeconds: number },
): Promise<PeerCase> {
  const load = { connections: options.connections, durationSeconds: options.durationSeconds };
  const gatewayTarget = target(sides.gateway, sides.gatewayOperation);
  const hiveTarget = target(sides.hive, sides.hiveOperation);
  // Unmeasured: JIT, keep-alive connections, caches where a side has them.
  await throughput(gatewayTarget, { ...load, durationSeconds: 1 });
  await throughput(hiveTarget, { ...load, durationSeconds: 1 });
  const measure = async (service: Service, what: Target): Promise<Run> => {
    const { value, cpuMs } = await cpuDuring(service.child, () => throughput(what, load));
    if (value.non2xx + value.errors > 0)
      throw new Error(`peers: ${value.non2xx + value.errors} failed requests from ${service.url}`);
    return { ...value, cpuMsPerOp: cpuMs / value.requests };
  };
  type Run = Throughput & { cpuMsPerOp: number };
  const gateway: Run[] = [];
  const hive: Run[] = [];
  for (let i = 0; i < options.rounds; i += 1) {
    if (i % 2 === 0) {
      gateway.push(await measure(sides.gateway, gatewayTarget));
      hive.push(await measure(sides.hive, hiveTarget));
    } else {
      hive.push(await measure(sides.hive, hiveTarget));
      gateway.push(await measure(sides.gateway, gatewayTarget));
    }
  }
  return {
    connections: options.connections,
    throughputRatio: spreadOf(gateway.map((g, i) => g.requestsPerSecond / (hive[i]?.requestsPerSecond ?? Number.NaN))),
    gatewayRequestsPerSecond: round(median(gateway.map((r) => r.requestsPerSecond)), 0),
    hiveRequestsPerSecond: round(median(hive.map((r) => r.requestsPerSecond)), 0),
    gatewayCpuMsPerOp: round(median(gateway.map((r) => r.cpuMsPerOp)), 3),
    hiveCpuMsPerOp: round(median(hive.map((r) => r.cpuMsPerOp)), 3),
    gatewayP99Ms: median(gateway.map((r) => r.p99Ms)),
    hiveP99Ms: median(hive.map((r) => r.p99Ms)),
    cpuPerOpRatio: round(median(hive.map((r) => r.cpuMsPerOp)) / median(gateway.map((r) => r.cpuMsPerOp)), 2),
  };
}
