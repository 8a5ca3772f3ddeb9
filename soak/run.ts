/**
 * `npm run soak`: a bounded soak of the gateway. Starts the sandbox and the
 * gateway as child processes, runs steady HTTP queries across versions and
 * subscription churn (graphql-ws and SSE) for SOAK_SECONDS, samples the
 * gateway's RSS, heap, event-loop delay and upstream sockets, then lets it
 * idle and samples once more. Prints a table, writes
 * soak/results/latest.json, and exits 1 when the run is not flat (rules in
 * report.ts).
 *
 * Environment (all optional):
 *   SOAK_SECONDS         load duration, warm-up included       (default 180)
 *   SOAK_WARMUP_SECONDS  samples before this are not judged    (default min(30, SOAK_SECONDS / 6))
 *   SOAK_SAMPLE_SECONDS  sampling interval                     (default min(5, SOAK_SECONDS / 10))
 *   SOAK_DRAIN_SECONDS   idle time before the drained sample   (default 15: odds linger 5 s, pool keep-alive)
 *   SOAK_QPS             steady GraphQL queries per second     (default 100)
 *   SOAK_WORKERS         concurrent HTTP query loops           (default 8)
 *   SOAK_WS_CHURNERS     graphql-ws clients churning           (default 4)
 *   SOAK_SSE_CHURNERS    SSE clients churning                  (default 2)
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startChurn } from './churn.js';
import { startSteadyLoad } from './load.js';
import { startGatewayChild, startSandboxChild, type GatewayChild, type SandboxChild } from './processes.js';
import { judge, percentile, slopePerMinute, table } from './report.js';
import { takeSample, type Sample } from './sampler.js';

function numberFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) {
    process.stderr.write(`soak: ${name} must be a number >= ${min}, got "${raw}"\n`);
    process.exit(2);
  }
  return value;
}

const seconds = numberFromEnv('SOAK_SECONDS', 180, 10);
const settings = {
  seconds,
  warmupSeconds: numberFromEnv('SOAK_WARMUP_SECONDS', Math.min(30, Math.round(seconds / 6)), 0),
  sampleSeconds: numberFromEnv('SOAK_SAMPLE_SECONDS', Math.min(5, Math.round(seconds / 10)), 0.5),
  drainSeconds: numberFromEnv('SOAK_DRAIN_SECONDS', 15, 0),
  qps: numberFromEnv('SOAK_QPS', 100, 1),
  workers: Math.floor(numberFromEnv('SOAK_WORKERS', 8, 1)),
  wsChurners: Math.floor(numberFromEnv('SOAK_WS_CHURNERS', 4, 0)),
  sseChurners: Math.floor(numberFromEnv('SOAK_SSE_CHURNERS', 2, 0)),
  framesPerCycle: 3,
};

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const log = (message: string): void => void process.stderr.write(`soak: ${message}\n`);

async function soak(sandbox: SandboxChild, gateway: GatewayChild): Promise<boolean> {
  const upstreamPort = Number(new URL(sandbox.url).port);
  const started = performance.now();
  const loadAverageAtStart = round(loadavg()[0]!);
  const elapsed = (): number => (performance.now() - started) / 1000;
  const samples: Sample[] = [];
  // A first scrape resets the event-loop histogram, so the first sample covers only the soak.
  await takeSample(gateway.url, upstreamPort, 0, 'warm-up');

  const load = startSteadyLoad(gateway.url, { qps: settings.qps, workers: settings.workers });
  const churn = startChurn(gateway.url, settings);
  log(
    `load running for ${settings.seconds} s (warm-up ${settings.warmupSeconds} s, a sample every ${settings.sampleSeconds} s)`,
  );
  let lastLog = 0;
  while (elapsed() < settings.seconds) {
    await sleep(Math.min(settings.sampleSeconds * 1000, (settings.seconds - elapsed()) * 1000));
    const t = elapsed();
    const sample = await takeSample(
      gateway.url,
      upstreamPort,
      Math.round(t * 10) / 10,
      t < settings.warmupSeconds ? 'warm-up' : 'load',
    );
    samples.push(sample);
    if (t - lastLog >= 30 || t >= settings.seconds) {
      lastLog = t;
      log(
        `t=${t.toFixed(0)}s rss=${(sample.rssBytes / 2 ** 20).toFixed(1)}MiB heap=${(sample.heapUsedBytes / 2 ** 20).toFixed(1)}MiB ` +
          `loop-p99=${sample.eventLoopP99Ms.toFixed(1)}ms pool=${sample.upstreamPoolSockets} tcp=${String(sample.upstreamTcpSockets)} ` +
          `queries=${load.stats.sent} ws=${churn.stats.wsConnections} sse=${churn.stats.sseSubscriptions}`,
      );
    }
  }
  const loadSeconds = elapsed();
  const loadAverageAtEnd = round(loadavg()[0]!);
  await Promise.all([load.stop(), churn.stop()]);
  log(`load stopped; idling ${settings.drainSeconds} s before the drained sample`);
  await sleep(settings.drainSeconds * 1000);
  samples.push(await takeSample(gateway.url, upstreamPort, Math.round(elapsed() * 10) / 10, 'drained'));

  const verdict = judge(samples, load.stats, churn.stats);
  const underLoad = samples.filter((s) => s.phase === 'load');
  const summary = {
    queries: {
      sent: load.stats.sent,
      achievedQps: Math.round((load.stats.sent / loadSeconds) * 10) / 10,
      ok: load.stats.ok,
      answeredFromCache: load.stats.fromCache,
      wentUpstream: load.stats.wentUpstream,
      latencyMs: {
        p50: round(percentile(load.stats.latenciesMs, 50)),
        p99: round(percentile(load.stats.latenciesMs, 99)),
      },
      http5xx: load.stats.http5xx,
      httpOther: load.stats.httpOther,
      transportErrors: load.stats.transportErrors,
      graphqlErrors: load.stats.graphqlErrors,
    },
    churn: { ...churn.stats },
    gatewayCpuPercentUnderLoad: round(cpuPercent(underLoad)),
    // Other work on the machine competes for the same cores and shows as event-loop delay.
    machineLoadAverage1m: { start: loadAverageAtStart, end: loadAverageAtEnd },
    trendUnderLoad: {
      rssMiBPerMinute: round(slopePerMinute(underLoad, (s) => s.rssBytes / 2 ** 20)),
      heapMiBPerMinute: round(slopePerMinute(underLoad, (s) => s.heapUsedBytes / 2 ** 20)),
    },
  };
  const machine = {
    cpus: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: process.platform,
  };

  const results = {
    date: new Date().toISOString(),
    machine,
    settings,
    flat: verdict.flat,
    checks: verdict.checks,
    summary,
    samples,
  };
  const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));
  await mkdir(resultsDir, { recursive: true });
  await writeFile(`${resultsDir}latest.json`, `${JSON.stringify(results, null, 2)}\n`);

  const q = summary.queries;
  const c = summary.churn;
  process.stdout.write(
    [
      '',
      `Soak: ${settings.seconds} s of load (first ${settings.warmupSeconds} s warm-up, not judged), then ${settings.drainSeconds} s idle.`,
      `Machine: ${machine.cpus} cores, ${machine.memoryGiB} GiB, Node ${machine.node}; gateway, sandbox and load generator are three processes on it.`,
      `Queries: ${q.sent} at ${q.achievedQps}/s (target ${settings.qps}), ${q.answeredFromCache} answered from the cache, ${q.wentUpstream} went upstream; latency p50 ${q.latencyMs.p50} ms, p99 ${q.latencyMs.p99} ms.`,
      `Churn: ${c.wsConnections} graphql-ws connections, ${c.wsSubscriptions} graphql-ws and ${c.sseSubscriptions} SSE subscriptions opened and closed, ${c.frames} frames received.`,
      `Gateway CPU under load: ${summary.gatewayCpuPercentUnderLoad}% of one core; machine load average (1 min) ${loadAverageAtStart} at start, ${loadAverageAtEnd} at end.`,
      `Trend under load: RSS ${summary.trendUnderLoad.rssMiBPerMinute} MiB/min, heap ${summary.trendUnderLoad.heapMiBPerMinute} MiB/min.`,
      '',
      table(verdict),
      '',
      `Verdict: ${verdict.flat ? 'flat' : 'NOT flat'}`,
      c.lastError === undefined ? '' : `Last churn error: ${c.lastError}`,
      '',
    ].join('\n'),
  );
  return verdict.flat;
}

/** The gateway's CPU use between the first and the last sample, in % of one core. */
function cpuPercent(samples: readonly Sample[]): number {
  const first = samples[0];
  const last = samples.at(-1);
  if (first === undefined || last === undefined || last.t <= first.t) return 0;
  return ((last.cpuSeconds - first.cpuSeconds) / (last.t - first.t)) * 100;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

async function main(): Promise<number> {
  const apiKey = `soak-${randomBytes(12).toString('hex')}`;
  const children: Array<{ stop(): Promise<void> }> = [];
  const stopAll = async (): Promise<void> => {
    for (const child of children.reverse()) await child.stop();
  };
  process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));
  try {
    const sandbox = await startSandboxChild(apiKey);
    children.push(sandbox);
    const gateway = await startGatewayChild(sandbox, apiKey, {});
    children.push(gateway);
    log(
      `sandbox ${sandbox.url} (pid ${String(sandbox.process.pid)}), gateway ${gateway.url} (pid ${String(gateway.process.pid)})`,
    );
    return (await soak(sandbox, gateway)) ? 0 : 1;
  } catch (error) {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return 1;
  } finally {
    await stopAll();
  }
}

process.exitCode = await main();
