/**
 * cold: the representative query with no data cached. The cold gateway runs
 * with every data TTL at 0 (CACHE_TTL_*), so each request goes upstream;
 * the free `/reference/sports` catalogue keeps its day-long TTL, as in
 * service, where it is read once. The baseline is the hand-written client
 * making the same six REST calls in parallel on each request. One request at
 * a time on each side, rounds alternating, p50 per round, median of rounds.
 */
import { graphqlHeaders, operationBody, postOperation } from '../graphql.js';
import { sequentialLatencies } from '../load.js';
import { median, percentile, round } from '../stats.js';
import type { Service } from '../stack.js';
import { representative } from '../workload.js';

export interface ColdResult {
  ratio: number;
  gateway: { p50Ms: number; p99Ms: number };
  direct: { p50Ms: number; p99Ms: number };
  upstreamLatencyMs: number;
  rounds: number;
  requestsPerRound: number;
}

export async function runCold(gateway: Service, direct: Service, options: { rounds: number; requests: number; upstreamLatencyMs: number }): Promise<ColdResult> {
  const check = await postOperation(gateway.url, representative);
  if (check.status !== 200 || check.body.errors !== undefined) throw new Error(`cold: gateway errors ${JSON.stringify(check.body.errors)}`);
  const gatewayTarget = { url: gateway.url, method: 'POST' as const, path: '/graphql', headers: { ...graphqlHeaders }, body: operationBody(representative) };
  const directTarget = { url: direct.url, method: 'GET' as const, path: '/cold' };
  // Unmeasured: JIT and keep-alive connections on both sides.
  await sequentialLatencies(gatewayTarget, 20);
  await sequentialLatencies(directTarget, 20);

  const g50: number[] = [];
  const g99: number[] = [];
  const d50: number[] = [];
  const d99: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < options.rounds; i += 1) {
    const gatewayFirst = i % 2 === 0;
    const first = await sequentialLatencies(gatewayFirst ? gatewayTarget : directTarget, options.requests);
    const second = await sequentialLatencies(gatewayFirst ? directTarget : gatewayTarget, options.requests);
    const [g, d] = gatewayFirst ? [first, second] : [second, first];
    g50.push(percentile(g, 50));
    g99.push(percentile(g, 99));
    d50.push(percentile(d, 50));
    d99.push(percentile(d, 99));
    ratios.push(percentile(g, 50) / percentile(d, 50));
  }
  return {
    ratio: round(median(ratios), 3),
    gateway: { p50Ms: round(median(g50)), p99Ms: round(median(g99)) },
    direct: { p50Ms: round(median(d50)), p99Ms: round(median(d99)) },
    upstreamLatencyMs: options.upstreamLatencyMs,
    rounds: options.rounds,
    requestsPerRound: options.requests,
  };
}
