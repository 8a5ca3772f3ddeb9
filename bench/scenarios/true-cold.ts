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
 *
 * Beside it, what the same build spends on the same operation at the same
 * load with every upstream answer in its cache (`RESULT_CACHE=false` only):
 * executing the operation without any upstream work. The truly cold figure
 * minus this one is what the six upstream resources cost the gateway, which
 * is the part the REST client's whole figure compares with: measured in
 * the same rounds as the other two (a third side, its own process on the
 * same core), `upstreamPartRatio` is per round (truly cold − execution) /
 * the REST client's truly cold CPU per operation (issue 34).
 *
 * Every side first serves WARMUP_OPERATIONS unmeasured operations: the
 * figure is what a serving gateway spends, not what its first operations
 * cost while V8 still compiles them. A V8 log of the truly cold gateway
 * at one connection showed optimized code still being made for 20 to 30
 * seconds (some 5,000 operations); one second of warm-up left most of
 * that compiling in the measured rounds, on the gateway's side only (the
 * REST client's little code is compiled within its first second).
 */
import type { Spread } from '../cpu.js';
import { spreadOf } from '../cpu.js';
import { startBenchStack } from '../stack.js';
import { runUnderLoad, type EngineResult } from './engine.js';
import { gatewayTarget } from './sides.js';

export interface TrueColdResult extends EngineResult {
  /** cpuMsPerOp / directCpuMsPerOp (median of rounds). */
  cpuRatio: number;
  cpuRatioRounds: Spread;
  /** Gateway CPU ms per operation with every upstream answer cached, same load (rounds after the truly cold ones). */
  executionCpuMsPerOp: number;
  executionCpuMsPerOpRounds: Spread;
  /** (cpuMsPerOp − executionCpuMsPerOp) / directCpuMsPerOp, per round. */
  upstreamPartRatio: Spread;
}

const WARMUP_OPERATIONS = 6_000;

export async function runTrueCold(
  coldEnv: Record<string, string>,
  ids: Record<string, string>,
  rounds: number,
  nodeFlags: readonly string[] = [],
): Promise<TrueColdResult> {
  const instant = await startBenchStack(0);
  try {
    const gateway = await instant.startGateway('true-cold', coldEnv, nodeFlags);
    const direct = await instant.startDirect(ids);
    const executionGateway = await instant.startGateway('true-cold-execution', { RESULT_CACHE: 'false' }, nodeFlags);
    const measured = await runUnderLoad('trueCold', gateway, direct, {
      rounds,
      durationSeconds: 3,
      connections: 1,
      warmupOperations: WARMUP_OPERATIONS,
      sandboxUrl: instant.sandbox.url,
      // Its first unmeasured run fills its upstream cache.
      third: { service: executionGateway, target: gatewayTarget(executionGateway.url) },
    });
    // The figure compares the same upstream work: a gateway making fewer requests answered something else (a refusal).
    const requests = measured.upstreamRequestsPerOp;
    if (requests !== undefined && requests.gateway < requests.direct * 0.95)
      throw new Error(
        `trueCold: the gateway made ${requests.gateway} upstream requests per operation, the REST client ${requests.direct}`,
      );
    // `ratio` is the REST client's CPU over the gateway's, per round; its inverse per round is the CPU ratio.
    const inverse = spreadOf(
      [measured.ratioRounds.min, measured.ratioRounds.median, measured.ratioRounds.max].map((ratio) => 1 / ratio),
    );
    const execution = measured.thirdCpuMsPerOp ?? [];
    const { gateway: cold, direct: rest } = measured.perRound;
    return {
      ...measured,
      cpuRatio: inverse.median,
      cpuRatioRounds: inverse,
      executionCpuMsPerOp: spreadOf(execution).median,
      executionCpuMsPerOpRounds: spreadOf(execution),
      upstreamPartRatio: spreadOf(cold.map((cpu, i) => (cpu - execution[i]!) / rest[i]!)),
    };
  } finally {
    await instant.close();
  }
}
