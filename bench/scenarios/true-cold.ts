/**
 * trueCold: what an operation with nothing cached costs in CPU, gateway
 * against the REST client. Both run beside a sandbox of their own that
 * answers at once (no upstream latency), and each side gets one operation
 * at a time back to back (autocannon, one connection): no operation shares
 * another's upstream request (the gateway's in-flight sharing would answer
 * most of them under concurrent load: 0.6 upstream requests per operation
 * against the REST client's 6), and neither side idles between operations,
 * which would charge every operation for the gaps (timers, caches gone
 * cold). The upstream requests each side made per operation are reported
 * beside the figure, from the sandbox's log.
 *
 * The cold scenario (cold.ts) keeps the latency comparison against a
 * sandbox with latency, one operation at a time.
 */
import type { Spread } from '../cpu.js';
import { spreadOf } from '../cpu.js';
import { startBenchStack } from '../stack.js';
import { runUnderLoad, type EngineResult } from './engine.js';

export interface TrueColdResult extends EngineResult {
  /** cpuMsPerOp / directCpuMsPerOp (median of rounds). */
  cpuRatio: number;
  cpuRatioRounds: Spread;
}

export async function runTrueCold(coldEnv: Record<string, string>, ids: Record<string, string>, rounds: number, nodeFlags: readonly string[] = []): Promise<TrueColdResult> {
  const instant = await startBenchStack(0);
  try {
    const gateway = await instant.startGateway('true-cold', coldEnv, nodeFlags);
    const direct = await instant.startDirect(ids);
    const measured = await runUnderLoad('trueCold', gateway, direct, { rounds, durationSeconds: 3, connections: 1, sandboxUrl: instant.sandbox.url });
    // `ratio` is the REST client's CPU over the gateway's, per round; its inverse per round is the CPU ratio.
    const inverse = spreadOf([measured.ratioRounds.min, measured.ratioRounds.median, measured.ratioRounds.max].map((ratio) => 1 / ratio));
    return { ...measured, cpuRatio: inverse.median, cpuRatioRounds: inverse };
  } finally {
    await instant.close();
  }
}
