/**
 * warm: the representative query with every upstream resource cached,
 * gateway against the hand-written endpoint answering the same JSON from the
 * same cache. Rounds alternate which side goes first; each round's ratio is
 * taken side by side, and the figures are medians of the rounds.
 *
 * The floor (issue 34) runs in the same rounds: a bare `node:http` server
 * (bench/direct/floor-server.ts) on the gateway's core, answering the same
 * POST with the gateway's own answer bytes, pre-serialized. `floorRatio` is,
 * per round, the gateway's CPU per operation over the floor's: what the
 * gateway spends above writing the bytes.
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
  /** The floor's CPU ms per operation (/proc): the same answer bytes from a bare node:http server. */
  floorCpuMsPerOpRounds: Spread;
  /** Gateway CPU per operation / the floor's, per round. */
  floorRatio: Spread;
  rounds: number;
  connections: number;
  durationSeconds: number;
}

export async function runWarm(
  gateway: Service,
  direct: Service,
  startFloor: (body: Buffer, contentType: string) => Promise<Service>,
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
  // The gateway's answer as it writes it (a result-cache hit), bytes and type, for the floor to write.
  const answer = await fetch(`${gateway.url}/graphql`, {
    method: 'POST',
    headers: gatewayTarget.headers,
    body: gatewayTarget.body,
  });
  const floor = await startFloor(
    Buffer.from(await answer.arrayBuffer()),
    answer.headers.get('content-type') ?? 'application/json',
  );
  const floorTarget = { ...gatewayTarget, url: floor.url };
  const load = { connections: options.connections, durationSeconds: options.durationSeconds };
  // A short unmeasured run each, so that both sides are JIT-warm.
  await throughput(gatewayTarget, { ...load, durationSeconds: 1 });
  await throughput(directTarget, { ...load, durationSeconds: 1 });
  await throughput(floorTarget, { ...load, durationSeconds: 1 });

  const gatewayRuns: Throughput[] = [];
  const directRuns: Throughput[] = [];
  const ratios: number[] = [];
  const cpuPerOp: number[] = [];
  const gatewayRun = async (): Promise<Throughput> => {
    const { value, cpuMs } = await cpuDuring(gateway.child, () => throughput(gatewayTarget, load));
    cpuPerOp.push(cpuMs / value.requests);
    return value;
  };
  const floorCpuPerOp: number[] = [];
  const floorRatios: number[] = [];
  const floorRun = async (): Promise<Throughput> => {
    const { value, cpuMs } = await cpuDuring(floor.child, () => throughput(floorTarget, load));
    if (value.non2xx + value.errors > 0) throw new Error(`warm: ${value.non2xx + value.errors} failed floor requests`);
    floorCpuPerOp.push(cpuMs / value.requests);
    return value;
  };
  // Each round runs the three sides in turn, starting one further along each round: a warming or cooling machine favours none.
  const sides = ['gateway', 'direct', 'floor'] as const;
  for (let i = 0; i < options.rounds; i += 1) {
    const ran: Partial<Record<(typeof sides)[number], Throughput>> = {};
    for (let k = 0; k < sides.length; k += 1) {
      const side = sides[(i + k) % sides.length]!;
      ran[side] =
        side === 'gateway'
          ? await gatewayRun()
          : side === 'floor'
            ? await floorRun()
            : await throughput(directTarget, load);
    }
    const g = ran.gateway!;
    const d = ran.direct!;
    if (g.non2xx + g.errors > 0 || d.non2xx + d.errors > 0)
      throw new Error(`warm: failed requests (gateway ${g.non2xx + g.errors}, direct ${d.non2xx + d.errors})`);
    gatewayRuns.push(g);
    directRuns.push(d);
    ratios.push(g.requestsPerSecond / d.requestsPerSecond);
    floorRatios.push(cpuPerOp.at(-1)! / floorCpuPerOp.at(-1)!);
  }
  await floor.child.stop();
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
    floorCpuMsPerOpRounds: spreadOf(floorCpuPerOp),
    floorRatio: spreadOf(floorRatios),
    rounds: options.rounds,
    connections: options.connections,
    durationSeconds: options.durationSeconds,
  };
}
