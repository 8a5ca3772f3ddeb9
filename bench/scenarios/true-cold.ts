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
 * is the part the REST client's whole figure compares with.
 */
import type { Spread } from '../cpu.js';
import { cpuDuring, spreadOf } from '../cpu.js';
import { throughput } from '../load.js';
import { startBenchStack, type Service } from '../stack.js';
import { runUnderLoad, type EngineResult } from './engine.js';
import { gatewayTarget } from './sides.js';

export interface TrueColdResult extends EngineResult {
  /** cpuMsPerOp / directCpuMsPerOp (median of rounds). */
  cpuRatio: number;
  cpuRatioRounds: Spread;
  /** Gateway CPU ms per operation with every upstream answer cached, same load (rounds after the truly cold ones). */
  executionCpuMsPerOp: number;
  executionCpuMsPerOpRounds: Spread;
}

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
    const measured = await runUnderLoad('trueCold', gateway, direct, {
      rounds,
      durationSeconds: 3,
      connections: 1,
      sandboxUrl: instant.sandbox.url,
    });
    // `ratio` is the REST client's CPU over the gateway's, per round; its inverse per round is the CPU ratio.
    const inverse = spreadOf(
      [measured.ratioRounds.min, measured.ratioRounds.median, measured.ratioRounds.max].map((ratio) => 1 / ratio),
    );
    await gateway.child.stop();
    const execution = await executionCpu(
      await instant.startGateway('true-cold-execution', { RESULT_CACHE: 'false' }, nodeFlags),
      rounds,
    );
    return {
      ...measured,
      cpuRatio: inverse.median,
      cpuRatioRounds: inverse,
      executionCpuMsPerOp: execution.median,
      executionCpuMsPerOpRounds: execution,
    };
  } finally {
    await instant.close();
  }
}

/** CPU per operation of a gateway whose upstream answers are all cached: one connection, as the truly cold rounds. */
async function executionCpu(gateway: Service, rounds: number): Promise<Spread> {
  const target = gatewayTarget(gateway.url);
  // Unmeasured: fills the upstream cache, JIT and the keep-alive connection.
  await throughput(target, { connections: 1, durationSeconds: 1 });
  const perRound: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const { value, cpuMs } = await cpuDuring(gateway.child, () =>
      throughput(target, { connections: 1, durationSeconds: 3 }),
    );
    if (value.non2xx + value.errors > 0)
      throw new Error(`trueCold execution: ${value.non2xx + value.errors} failed requests`);
    perRound.push(cpuMs / value.requests);
  }
  return spreadOf(perRound);
}
