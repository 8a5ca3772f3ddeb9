/**
 * `npm run bench:peers`: this gateway against Hive Gateway (bench/peer-hive.ts,
 * installed on first use) on one sandbox with the bench's upstream latency,
 * in three configurations at 10 and 50 connections. Writes the `peers` key
 * of bench/results/latest.json and prints it.
 *
 * Options (environment): `BENCH_UPSTREAM_LATENCY_MS` (default 20),
 * `BENCH_ROUNDS` (default 3), `BENCH_PEER_SECONDS` (default 3 per round).
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { coldEnv } from './cold-env.js';
import { installHive, peerHiveOperation, peerOperation, startHive } from './peer-hive.js';
import { pinSelf, repoRoot } from './processes.js';
import { checkAnswers, comparePeers, type PeerCase } from './scenarios/peers.js';
import { BENCH_API_KEY, startBenchStack } from './stack.js';

const latencyMs = Number(process.env['BENCH_UPSTREAM_LATENCY_MS'] ?? '20');
const rounds = Number(process.env['BENCH_ROUNDS'] ?? '3');
const durationSeconds = Number(process.env['BENCH_PEER_SECONDS'] ?? '3');
const configurations = {
  warm: {},
  resultCacheOff: { RESULT_CACHE: 'false' },
  trueCold: coldEnv,
} as const;
const connectionCounts = [10, 50];

const startedAt = Date.now();
const log = (message: string) =>
  process.stderr.write(`[bench:peers +${Math.round((Date.now() - startedAt) / 1000)}s] ${message}\n`);
installHive(log);
const stack = await startBenchStack(latencyMs);
pinSelf(stack.pinning);
log(stack.pinning.reason);
const peers: Array<{ stop(): Promise<void> }> = [];
try {
  const hive = await startHive(stack.pinning, { url: stack.sandbox.url, apiKey: BENCH_API_KEY }, peers);
  await checkAnswers(hive, peerHiveOperation, 'Hive Gateway');
  const cases: Record<string, PeerCase> = {};
  for (const [name, env] of Object.entries(configurations)) {
    const gateway = await stack.startGateway(`peers-${name}`, env);
    await checkAnswers(gateway, peerOperation, `the gateway (${name})`);
    for (const connections of connectionCounts) {
      log(`${name} at ${connections} connections`);
      cases[`${name}${connections}`] = await comparePeers(
        { gateway, gatewayOperation: peerOperation, hive, hiveOperation: peerHiveOperation },
        { connections, rounds, durationSeconds },
      );
    }
    await gateway.child.stop();
  }
  const hiveVersion = (
    JSON.parse(
      await readFile(join(repoRoot, 'bench/peers/hive/node_modules/@graphql-hive/gateway/package.json'), 'utf8'),
    ) as { version: string }
  ).version;
  const result = {
    measuredAt: new Date().toISOString(),
    peer: `Hive Gateway ${hiveVersion}, GraphQL Mesh JSON-schema supergraph of the same three V1 hockey routes`,
    upstreamLatencyMs: latencyMs,
    rounds,
    durationSeconds,
    pinning: stack.pinning.reason,
    cases,
    /**
     * With every answer at TTL 0, each operation waits for at least one fresh
     * upstream round trip, so no gateway answers more than connections /
     * latency operations a second (in-flight sharing lets operations join a
     * round trip, not skip it). The truly cold cases are read against it.
     */
    trueColdCeilingRequestsPerSecond: Object.fromEntries(
      connectionCounts.map((connections) => [connections, Math.round((connections * 1000) / latencyMs)]),
    ),
    /** The target: at least 3× Hive Gateway's throughput in every case. */
    minRatio: Math.min(...Object.values(cases).map((c) => c.throughputRatio.median)),
  };
  const latestUrl = new URL('./results/latest.json', import.meta.url);
  const latest = JSON.parse(await readFile(latestUrl, 'utf8')) as Record<string, unknown>;
  await writeFile(latestUrl, `${JSON.stringify({ ...latest, peers: { hive: result } }, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  log('wrote peers.hive in bench/results/latest.json');
} finally {
  await Promise.all(peers.map((peer) => peer.stop()));
  await stack.close();
  await rm(join(repoRoot, 'bench/peers/hive/.run'), { recursive: true, force: true });
}
