/**
 * warm: the representative query with every upstream resource cached,
 * gateway against the hand-written endpoint answering the same JSON from the
 * same cache. Rounds alternate which side goes first; each round's ratio is
 * taken side by side, and the figures are medians of the rounds.
 */
import { isDeepStrictEqual } from 'node:util';
import { graphqlHeaders, operationBody, postOperation } from '../graphql.js';
import { cpuDuring, spreadOf, type Spread } from '../cpu.js';
import { throughput, type Throughput } from '../load.js';
import { median, round } from '../stats.js';
import type { Service } from '../stack.js';
import { representative } from '../workload.js';

export interface WarmResult {
  ratio: number;
  gateway: { requestsPerSecond: number; p50Ms: number; p99Ms: number };
  direct: { requestsPerSecond: number; p50Ms: number; p99Ms: number };
  sameJson: boolean;
  /** Gateway CPU ms per operation (/proc), result-cache hits included. */
  cpuMsPerOp: number;
  cpuMsPerOpRounds: Spread;
  rounds: number;
  connections: number;
  durationSeconds: number;
}

export async function runWarm(
  gateway: Service,
  direct: Service,
  options: { rounds: number; durationSeconds: number; connections: number },
): Promise<WarmResult> {
  const fromGateway = await postOperation(gateway.url, representative);
  if (fromGateway.status !== 200 || fromGateway.body.errors !== undefined) {
    throw new Error(
      `warm: the gateway did not answer the representative query: ${JSON.stringify(fromGateway.body.errors)}`,
    );
  }
  const fromDirect = (await (await fetch(`${direct.url}/warm`)).json()) as { data?: unknown };
  // `data` only: the gateway adds its cost/trace `extensions`, which the baseline has no equivalent of.
  const sameJson = isDeepStrictEqual(fromGateway.body.data, fromDirect.data);

  const gatewayTarget = {
    url: gateway.url,
    method: 'POST' as const,
    path: '/graphql',
    headers: { ...graphqlHeaders },
    body: operationBody(representative),
  };
  const directTarget = { url: direct.url, method: 'GET' as const, path: '/warm' };
  const load = { connections: options.connections, durationSeconds: options.durationSeconds };
  // A short unmeasured run each, so that both sides are JIT-warm.
  await throughput(gatewayTarget, { ...load, durationSeconds: 1 });
  await throughput(directTarget, { ...load, durationSeconds: 1 });

  const gatewayRuns: Throughput[] = [];
  const directRuns: Throughput[] = [];
  const ratios: number[] = [];
  const cpuPerOp: number[] = [];
  const gatewayRun = async (): Promise<Throughput> => {
    const { value, cpuMs } = await cpuDuring(gateway.child, () => throughput(gatewayTarget, load));
    cpuPerOp.push(cpuMs / value.requests);
    return value;
  };
  for (let i = 0; i < options.rounds; i += 1) {
    const gatewayFirst = i % 2 === 0;
    const first = gatewayFirst ? await gatewayRun() : await throughput(directTarget, load);
    const second = gatewayFirst ? await throughput(directTarget, load) : await gatewayRun();
    const [g, d] = gatewayFirst ? [first, second] : [second, first];
    if (g.non2xx + g.errors > 0 || d.non2xx + d.errors > 0)
      throw new Error(`warm: failed requests (gateway ${g.non2xx + g.errors}, direct ${d.non2xx + d.errors})`);
    gatewayRuns.push(g);
    directRuns.push(d);
    ratios.push(g.requestsPerSecond / d.requestsPerSecond);
  }
  const summary = (runs: Throughput[]) => ({
    requestsPerSecond: round(median(runs.map((r) => r.requestsPerSecond)), 0),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
  });
  return {
    ratio: round(median(ratios), 3),
    gateway: summary(gatewayRuns),
    direct: summary(directRuns),
    sameJson,
    cpuMsPerOp: spreadOf(cpuPerOp).median,
    cpuMsPerOpRounds: spreadOf(cpuPerOp),
    rounds: options.rounds,
    connections: options.connections,
    durationSeconds: options.durationSeconds,
  };
}
