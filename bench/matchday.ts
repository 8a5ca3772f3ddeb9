/**
 * `npm run bench:matchday`: one simulated World Cup matchday
 * (bench/scenarios/matchday.ts) on two fresh gateways, each with a fresh
 * sandbox replaying the same script: (a) every route class pinned at its
 * TTL, the freshness of answers before issue 33, and (b) the freshness
 * policy by match state. Writes the `matchday` key of
 * bench/results/latest.json and prints it. The two days run side by side:
 * each is one operation at a time, and its counts are its own sandbox's.
 *
 * The sandbox runs in this process, on the simulated clock; the gateway is
 * the bench's build (bench/gateway-main.ts) with `BENCH_CONTROL=on`, whose
 * cache clock this process sets over the IPC channel (bench/clock-control.ts)
 * before each instant of the day. Nothing sleeps: a day takes seconds.
 *
 * Options (environment): `BENCH_MATCHDAY_HOURS` (default 24).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../src/net/free-port.js';
import { planAllowances } from '../src/upstream/assumptions.js';
import { defaultCacheTtls, defaultMatchStateTtls } from '../src/upstream/cache-ttls.js';
import { startSandbox } from '../sandbox/server.js';
import type { ClockCommand, ClockReply } from './clock-control.js';
import { compiledGateway } from './compile.js';
import { detectPinning, spawnTs, waitForHttp, type Child } from './processes.js';
import {
  classTtlEnv,
  MATCHDAY_GATEWAY_ENV,
  planMatchday,
  runMatchday,
  WIDGETS,
  type MatchdayPlan,
  type MatchdayRun,
} from './scenarios/matchday.js';
import { round } from './stats.js';

const API_KEY = 'bench-matchday-key';
const hours = Number(process.env['BENCH_MATCHDAY_HOURS'] ?? '24');

const startedAt = Date.now();
const log = (message: string) =>
  process.stderr.write(`[bench:matchday +${Math.round((Date.now() - startedAt) / 1000)}s] ${message}\n`);
// Counts, not CPU, are measured: nothing is pinned, so the two gateways, the sandboxes and the clients spread over the cores.
const pinning = detectPinning();

/** Sets the gateway's cache clock over its IPC channel; resolves on its reply. */
function setGatewayClock(child: Child, nowMs: number): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (message: ClockReply): void => {
      if (message.type !== 'bench_clock_set' || message.nowMs !== nowMs) return;
      child.process.off('message', onMessage);
      resolve();
    };
    child.process.on('message', onMessage);
    const command: ClockCommand = { type: 'bench_clock', nowMs };
    child.process.send(command);
  });
}

/** One day on a fresh sandbox and a fresh gateway with `env`. */
async function day(name: string, env: Record<string, string>): Promise<{ plan: MatchdayPlan; run: MatchdayRun }> {
  let clock = Date.now();
  const sandbox = await startSandbox({ apiKey: API_KEY, allowance: planAllowances.mega, clock: () => clock });
  const dataDir = await mkdtemp(join(tmpdir(), `sports-graph-bench-matchday-${name}-`));
  const port = await freePort();
  const gateway = spawnTs(pinning, {
    script: await compiledGateway(),
    compiled: true,
    env: {
      SPORTS_API_BASE_URL: sandbox.url,
      SPORTS_API_KEY: API_KEY,
      SPORTS_API_PLAN: 'mega',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      BENCH_CONTROL: 'on',
      ...MATCHDAY_GATEWAY_ENV,
      ...env,
    },
    cpu: undefined,
    ipc: true,
  });
  try {
    const gatewayUrl = `http://127.0.0.1:${port}`;
    await waitForHttp(`${gatewayUrl}/healthz`, gateway);
    const target = {
      gatewayUrl,
      sandboxUrl: sandbox.url,
      sandboxApiKey: API_KEY,
      setClock: async (nowMs: number) => {
        clock = nowMs;
        await setGatewayClock(gateway, nowMs);
      },
    };
    const plan = await planMatchday(target, { hours });
    log(`${name}: ${plan.script.length} script events from ${new Date(plan.t0).toISOString()}`);
    const run = await runMatchday(target, plan);
    log(`${name}: ${run.operations} operations, ${run.upstreamRequests} upstream requests in ${run.wallMs} ms`);
    return { plan, run };
  } finally {
    await gateway.stop();
    await sandbox.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

// Side by side: each day is one operation at a time (its requests depend on nothing else), so the two overlap freely.
const [classTtls, policy] = await Promise.all([day('class-ttls', classTtlEnv(defaultCacheTtls)), day('policy', {})]);
if (classTtls.run.operations !== policy.run.operations) {
  throw new Error('matchday: the two runs did not make the same operations');
}
const ratio = round(classTtls.run.upstreamRequests / policy.run.upstreamRequests, 3);
const noStaler = policy.run.liveAge.p95Seconds <= classTtls.run.liveAge.p95Seconds;
const result = {
  measuredAt: new Date().toISOString(),
  simulatedHours: hours,
  from: new Date(classTtls.plan.t0).toISOString(),
  scriptEvents: classTtls.plan.script.length,
  widgets: Object.fromEntries(WIDGETS.map((widget) => [widget.name, `every ${widget.everyMs / 1000} s`])),
  /** (a): every `CACHE_TTL_<CLASS>` pinned at its default, so no answer follows its match's state. */
  classTtls: classTtls.run,
  /** (b): the freshness policy, `defaultMatchStateTtls`. */
  policy: policy.run,
  policyTtls: Object.fromEntries(
    Object.entries(defaultMatchStateTtls).map(([state, seconds]) => [
      state,
      Number.isFinite(seconds) ? seconds : 'immutable',
    ]),
  ),
  /** Upstream requests under the class TTLs over those under the policy. */
  requestRatio: ratio,
  target: '>= 2x fewer upstream requests, live age p95 no worse',
  met: ratio >= 2 && noStaler,
};
const latestUrl = new URL('./results/latest.json', import.meta.url);
const latest = JSON.parse(await readFile(latestUrl, 'utf8')) as Record<string, unknown>;
await writeFile(latestUrl, `${JSON.stringify({ ...latest, matchday: result }, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
log(
  `wrote matchday in bench/results/latest.json (${ratio}x fewer requests, live age p95 ${policy.run.liveAge.p95Seconds} s against ${classTtls.run.liveAge.p95Seconds} s)`,
);
