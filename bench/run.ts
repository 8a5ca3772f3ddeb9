/**
 * `npm run bench`: starts the sandbox (upstream latency
 * `BENCH_UPSTREAM_LATENCY_MS`, default 20 ms) and the gateways in their own
 * processes, runs every scenario, prints a table and writes
 * bench/results/latest.json.
 *
 * Options (environment):
 * - `BENCH_ROUNDS` (default 5): rounds per side-by-side comparison; figures are medians.
 * - `BENCH_CPU_ROUNDS` (default 3): rounds of the engine and cold scenarios,
 *   whose CPU figures are reported as min/median/max.
 * - `BENCH_STEADY_SECONDS` (default 60).
 * - `BENCH_FANOUT` (default `1000,10000`): subscriber counts.
 * - `BENCH_FANOUT_MEMORY_ROUNDS` (default 3): rounds of the largest count's
 *   bytes per subscriber (its level's own, and the rest on fresh gateways
 *   that only connect the subscribers), reported as min/median/max.
 * - `BENCH_CPU_PROF=dir`: the gateways run with `--cpu-prof` into `dir`.
 * - `BENCH_ONLY=warm,fanout`: only those scenarios (start, upstream, warm,
 *   cluster, engine, cold (with trueCold), trueCold, fanout, steady; for
 *   working on one);
 *   the results then go to bench/results/partial.json, never latest.json,
 *   except the scenarios that stand alone (start and idle, warm, engine, cold,
 *   trueCold, cluster, fanout: each compares sides it measures itself in
 *   the same rounds: its floor, the REST client),
 *   which replace their own keys in latest.json, whose targets are then
 *   checked again.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { spreadOf } from './cpu.js';
import { pinSelf } from './processes.js';
import { runCluster } from './scenarios/cluster.js';
import { runCold } from './scenarios/cold.js';
import { runEngine } from './scenarios/engine.js';
import { runTrueCold } from './scenarios/true-cold.js';
import { runFanoutLevel, subscriberBytes } from './scenarios/fanout.js';
import { runStart } from './scenarios/start.js';
import { runSteady } from './scenarios/steady.js';
import { measureMinimum, runUpstream } from './scenarios/upstream.js';
import { runWarm } from './scenarios/warm.js';
import { printTable, targetsOf } from './report.js';
import { BENCH_API_KEY, startBenchStack } from './stack.js';
import { representative } from './workload.js';
import { coldEnv } from './cold-env.js';
import { freePort } from '../src/net/free-port.js';

/** Keys of latest.json written by the bench's other entries (bench/peers.ts, bench/matchday.ts). */
const ownEntryKeys = ['peers', 'matchday'];
const latencyMs = Number(process.env['BENCH_UPSTREAM_LATENCY_MS'] ?? '20');
const rounds = Number(process.env['BENCH_ROUNDS'] ?? '5');
const cpuRounds = Number(process.env['BENCH_CPU_ROUNDS'] ?? '3');
const steadySeconds = Number(process.env['BENCH_STEADY_SECONDS'] ?? '60');
const fanoutLevels = (process.env['BENCH_FANOUT'] ?? '1000,10000').split(',').map(Number);
const fanoutMemoryRounds = Number(process.env['BENCH_FANOUT_MEMORY_ROUNDS'] ?? '3');
const cpuProfDir = process.env['BENCH_CPU_PROF'];
const only = process.env['BENCH_ONLY']?.split(',');
const runs = (scenario: string): boolean => only === undefined || only.includes(scenario);
/** The warm scenario's load, which the cluster scenario repeats through its replicas. */
const warmLoad = { durationSeconds: 3, connections: 10 };

const profiled = (): string[] => (cpuProfDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', cpuProfDir]);
/** Load average when a scenario starts: the machine is shared, and its figures are read with this beside them. */
const loadAverage = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

const startedAt = Date.now();
const stack = await startBenchStack(latencyMs);
pinSelf(stack.pinning);
const log = (message: string) =>
  process.stderr.write(`[bench +${Math.round((Date.now() - startedAt) / 1000)}s] ${message}\n`);
log(stack.pinning.reason);
try {
  // First, on an otherwise idle machine: start time and idle memory of fresh processes.
  let started;
  if (runs('start')) {
    log('start');
    started = await runStart(stack.pinning, { url: stack.sandbox.url, apiKey: BENCH_API_KEY }, { rounds, log });
  }

  const ids = representative.variables as Record<string, string>;
  const representativeIds = { game: ids['game'] ?? '', team: ids['team'] ?? '', tournament: ids['tournament'] ?? '' };
  const direct = await stack.startDirect(representativeIds);

  let upstream;
  if (runs('upstream')) {
    log('upstream');
    const fresh = await stack.startGateway('upstream');
    const naive = await stack.startGateway('naive', { UPSTREAM_CACHE: 'off', UPSTREAM_LOADERS: 'off' });
    upstream = await runUpstream(fresh, naive, stack.sandbox.url);
    await fresh.child.stop();
    await naive.child.stop();
  }

  // BENCH_CONTROL: the steady scenario asks it what holds its memory (bench/control.ts).
  const gateway = await stack.startGateway(
    'warm',
    { BENCH_CONTROL: 'on' },
    cpuProfDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', cpuProfDir],
  );
  let warm;
  if (runs('warm')) {
    log('warm');
    warm = await runWarm(gateway, direct, (body, type) => stack.startFloor(body, type), { rounds, ...warmLoad });
  }

  let cluster;
  if (runs('cluster')) {
    let minimum = upstream?.minimum;
    if (minimum === undefined) {
      log('cluster: upstream.minimum on a naive gateway');
      const naive = await stack.startGateway('cluster-naive', { UPSTREAM_CACHE: 'off', UPSTREAM_LOADERS: 'off' });
      minimum = (await measureMinimum(naive, stack.sandbox.url)).minimum;
      await naive.child.stop();
    }
    cluster = await runCluster({
      startGateway: (name, env) => stack.startGateway(name, env),
      pinning: stack.pinning,
      sandboxUrl: stack.sandbox.url,
      minimum,
      single: gateway,
      serverCores: stack.pinning.enabled ? 1 : cpus().length,
      rounds,
      ...warmLoad,
      log,
      loadAverage,
    });
  }

  let engine;
  if (runs('engine')) {
    const loadAtStart = loadAverage();
    log(`engine (load average ${loadAtStart})`);
    // The engine's floor (bench/engine-floor.ts) listens in the engine gateway's process.
    const floorPort = await freePort();
    const engineGateway = await stack.startGateway(
      'engine',
      { RESULT_CACHE: 'false', BENCH_ENGINE_FLOOR_PORT: String(floorPort) },
      profiled(),
    );
    engine = {
      ...(await runEngine(engineGateway, direct, `http://127.0.0.1:${floorPort}`, { rounds: cpuRounds, ...warmLoad })),
      loadAverage: { start: loadAtStart, end: loadAverage() },
    };
    await engineGateway.child.stop();
  }

  let cold;
  let trueCold;
  if (runs('cold')) {
    const loadAtStart = loadAverage();
    log(`cold (load average ${loadAtStart})`);
    const coldGateway = await stack.startGateway('cold', coldEnv, profiled());
    cold = {
      ...(await runCold(coldGateway, direct, { rounds: cpuRounds, requests: 200, upstreamLatencyMs: latencyMs })),
      loadAverage: { start: loadAtStart, end: loadAverage() },
    };
    await coldGateway.child.stop();
  }
  if (runs('cold') || runs('trueCold')) {
    const trueColdAtStart = loadAverage();
    log(`trueCold (load average ${trueColdAtStart})`);
    trueCold = {
      ...(await runTrueCold(coldEnv, representativeIds, cpuRounds, profiled())),
      loadAverage: { start: trueColdAtStart, end: loadAverage() },
    };
  }

  const fanout = [];
  for (const [i, subscribers] of (runs('fanout') ? fanoutLevels : []).entries()) {
    log(`fanout ${subscribers}`);
    fanout.push(
      await runFanoutLevel(
        stack.pinning,
        (env) =>
          stack.startGateway(
            `fanout-${subscribers}`,
            env,
            cpuProfDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', cpuProfDir],
          ),
        stack.sandbox.url,
        {
          subscribers,
          // Rounds of one floor and one odds frame each: an odd count, for a median of the pairs.
          frames: 7,
          clientProcesses: subscribers >= 5_000 ? 2 : 1,
          matchId: String(940_001 + i),
        },
      ),
    );
  }

  // More rounds of the largest level's memory: RSS growth moves from run to run.
  const bytesRounds: number[] = [];
  const largestLevel = fanout.at(-1);
  if (largestLevel !== undefined) {
    bytesRounds.push(largestLevel.bytesPerSubscriber);
    for (let round = 1; round < fanoutMemoryRounds; round += 1) {
      log(`fanout ${largestLevel.subscribers}: memory round ${round + 1}`);
      bytesRounds.push(
        await subscriberBytes(stack.pinning, (env) => stack.startGateway(`fanout-memory-${round}`, env), {
          subscribers: largestLevel.subscribers,
          clientProcesses: largestLevel.subscribers >= 5_000 ? 2 : 1,
          matchId: String(940_001 + fanout.length - 1),
        }),
      );
    }
  }

  let steady;
  if (runs('steady')) {
    log(`steady ${steadySeconds}s`);
    steady = await runSteady(gateway, { durationSeconds: steadySeconds, connections: 10 });
  }
  await gateway.child.stop();

  const largest = fanout.at(-1);
  const results = {
    generatedAt: new Date().toISOString(),
    durationSeconds: Math.round((Date.now() - startedAt) / 1000),
    machine: {
      cpu: cpus()[0]?.model ?? 'unknown',
      serverCores: stack.pinning.enabled ? 1 : cpus().length,
      memoryGb: Math.round(totalmem() / 1024 ** 3),
      node: process.version,
      pinning: stack.pinning.reason,
    },
    upstreamLatencyMs: latencyMs,
    rounds,
    start: started?.start,
    idle: started?.idle,
    warm,
    engine,
    cold,
    trueCold,
    upstream,
    cluster,
    fanout: {
      p99Ms: largest?.p99Ms ?? null,
      p50Ms: largest?.p50Ms ?? null,
      // The median of the memory rounds (the min/median/max in bytesPerSubscriberRounds).
      bytesPerSubscriber: bytesRounds.length === 0 ? null : spreadOf(bytesRounds, 0).median,
      bytesPerSubscriberRounds: bytesRounds.length === 0 ? null : spreadOf(bytesRounds, 0),
      subscribers: largest?.subscribers ?? null,
      cpuUsPerSubscriber: largest?.cpuUsPerSubscriber ?? null,
      floorCpuUsPerSubscriber: largest?.floorCpuUsPerSubscriber ?? null,
      // The name for the same figure.
      floorUsPerSubscriber: largest?.floorCpuUsPerSubscriber ?? null,
      cpuRatio: largest?.cpuRatio ?? null,
      cpuRatioRange: largest?.cpuRatioRange ?? null,
      floorLastMs: largest?.floorLastMs ?? null,
      floorP99Ms: largest?.floorP99Ms ?? null,
      p99Ratio: largest?.p99Ratio ?? null,
      p99RatioRange: largest?.p99RatioRange ?? null,
      p99VsFloorP99: largest?.p99VsFloorP99 ?? null,
      levels: fanout,
    },
    steady,
  };
  if (
    started === undefined ||
    warm === undefined ||
    engine === undefined ||
    cold === undefined ||
    trueCold === undefined ||
    upstream === undefined ||
    cluster === undefined ||
    steady === undefined ||
    largest === undefined
  ) {
    await writeFile(
      new URL('./results/partial.json', import.meta.url),
      `${JSON.stringify({ ...results, targets: targetsOf(results) }, null, 2)}\n`,
    );
    if (
      started !== undefined ||
      warm !== undefined ||
      engine !== undefined ||
      cold !== undefined ||
      trueCold !== undefined ||
      cluster !== undefined ||
      largest !== undefined
    ) {
      // Scenarios whose figures stand alone (fresh processes; CPU per operation of each side, read from /proc)
      // replace only their own keys, and the targets are checked again on the result.
      const latestUrl = new URL('./results/latest.json', import.meta.url);
      const latest = JSON.parse(await readFile(latestUrl, 'utf8')) as Record<string, unknown>;
      const measured = { measuredAt: results.generatedAt, machine: results.machine };
      const updated = {
        ...latest,
        ...(started === undefined ? {} : { start: { ...started.start, ...measured }, idle: started.idle }),
        ...(warm === undefined ? {} : { warm: { ...warm, ...measured } }),
        ...(engine === undefined ? {} : { engine: { ...engine, ...measured } }),
        ...(cold === undefined ? {} : { cold: { ...cold, ...measured } }),
        ...(trueCold === undefined ? {} : { trueCold: { ...trueCold, ...measured } }),
        ...(cluster === undefined ? {} : { cluster: { ...cluster, ...measured } }),
        ...(largest === undefined ? {} : { fanout: { ...results.fanout, ...measured } }),
      };
      await writeFile(
        latestUrl,
        `${JSON.stringify({ ...updated, targets: targetsOf(updated as Parameters<typeof targetsOf>[0]) }, null, 2)}\n`,
      );
      log(
        `replaced ${[started && 'start, idle', warm && 'warm', largest && 'fanout', engine && 'engine', cold && 'cold', trueCold && 'trueCold', cluster && 'cluster'].filter(Boolean).join(', ')} and the targets in bench/results/latest.json`,
      );
    }
    process.stdout.write(
      `${JSON.stringify({ upstream, warm, cluster, engine, cold, trueCold, fanout: results.fanout, steady, targets: targetsOf(results) }, null, 2)}\n`,
    );
    log('partial run: wrote bench/results/partial.json');
  } else {
    const complete = {
      ...results,
      start: started.start,
      idle: started.idle,
      warm,
      engine,
      cold,
      trueCold,
      upstream,
      cluster,
      steady,
    };
    const withTargets = { ...complete, targets: targetsOf({ ...complete, fanout: complete.fanout }) };
    // The entries of their own (npm run bench:peers, bench:matchday) measure what this run does not: keep their keys.
    const latestUrl = new URL('./results/latest.json', import.meta.url);
    const previous = JSON.parse(await readFile(latestUrl, 'utf8')) as Record<string, unknown>;
    const kept = Object.fromEntries(ownEntryKeys.filter((key) => key in previous).map((key) => [key, previous[key]]));
    await writeFile(latestUrl, `${JSON.stringify({ ...withTargets, ...kept }, null, 2)}\n`);
    printTable(withTargets);
    log('wrote bench/results/latest.json');
  }
} finally {
  await stack.close();
}
