/**
 * cold: the representative query with no data cached. The cold gateway runs
 * with every data TTL at 0 (CACHE_TTL_*) and `RESULT_CACHE=false`, so each
 * request executes and goes upstream; the free `/reference/sports`
 * catalogue keeps its day-long TTL, as in service, where it is read once.
 * The baseline is the hand-written client making the same six REST calls in
 * parallel on each request. One request at a time on each side, rounds
 * alternating which side goes first.
 *
 * Two figures: latency (`ratio`, p50 over p50 per round, median of rounds)
 * and CPU per operation of each process from /proc (`cpuRatio`), which a busy
 * machine does not flatter or hurt the way it does wall time.
 */
import { cpuDuring, spreadOf, type Spread } from '../cpu.js';
import { sequentialLatencies } from '../load.js';
import { median, percentile, round } from '../stats.js';
import type { Service } from '../stack.js';
import { gatewayAndDirect, interleavedRounds, type Side } from './sides.js';

export interface ColdResult {
  ratio: number;
  ratioRounds: Spread;
  /** Gateway CPU ms per operation. */
  cpuMsPerOp: number;
  cpuMsPerOpRounds: Spread;
  /** The REST client's CPU ms per request. */
  directCpuMsPerOp: number;
  directCpuMsPerOpRounds: Spread;
  /** cpuMsPerOp / directCpuMsPerOp, per round. */
  cpuRatio: number;
  cpuRatioRounds: Spread;
  gateway: { p50Ms: number; p99Ms: number };
  direct: { p50Ms: number; p99Ms: number };
  upstreamLatencyMs: number;
  rounds: number;
  requestsPerRound: number;
}

export async function runCold(
  gateway: Service,
  direct: Service,
  options: { rounds: number; requests: number; upstreamLatencyMs: number },
): Promise<ColdResult> {
  const { gatewaySide, directSide } = await gatewayAndDirect('cold', gateway, direct);
  // Unmeasured: JIT and keep-alive connections on both sides.
  await sequentialLatencies(gatewaySide.target, 20);
  await sequentialLatencies(directSide.target, 20);

  const measure = async (side: Side) => {
    const { value, cpuMs } = await cpuDuring(side.service.child, () =>
      sequentialLatencies(side.target, options.requests),
    );
    return { p50: percentile(value, 50), p99: percentile(value, 99), cpuMsPerOp: cpuMs / value.length };
  };
  const { gateway: g, direct: d } = await interleavedRounds(options.rounds, { gatewaySide, directSide }, measure);
  const ratio = spreadOf(g.map((r, i) => r.p50 / d[i]!.p50));
  const cpuRatio = spreadOf(g.map((r, i) => r.cpuMsPerOp / d[i]!.cpuMsPerOp));
  const gatewayCpu = spreadOf(g.map((r) => r.cpuMsPerOp));
  const directCpu = spreadOf(d.map((r) => r.cpuMsPerOp));
  return {
    ratio: ratio.median,
    ratioRounds: ratio,
    cpuMsPerOp: gatewayCpu.median,
    cpuMsPerOpRounds: gatewayCpu,
    directCpuMsPerOp: directCpu.median,
    directCpuMsPerOpRounds: directCpu,
    cpuRatio: cpuRatio.median,
    cpuRatioRounds: cpuRatio,
    gateway: { p50Ms: round(median(g.map((r) => r.p50))), p99Ms: round(median(g.map((r) => r.p99))) },
    direct: { p50Ms: round(median(d.map((r) => r.p50))), p99Ms: round(median(d.map((r) => r.p99))) },
    upstreamLatencyMs: options.upstreamLatencyMs,
    rounds: options.rounds,
    requestsPerRound: options.requests,
  };
}
