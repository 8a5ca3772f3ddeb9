/**
 * Start time and idle memory (issue 19): the built gateway (`node
 * dist/main.js`, what `npm start` runs once the build is current) from
 * process start to its first `/healthz` answer, and its resident memory
 * once idle, on the bench's sandbox (no embedded sandbox) and on its own
 * embedded sandbox; the same start under tsx (`npm run dev`) for comparison.
 * Each start is a fresh process and DATA_DIR, pinned to the server core.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuild } from '../../scripts/build.js';
import { freePort } from '../../src/net/free-port.js';
import { measuredPid, procStats, spawnTs, type Pinning } from '../processes.js';
import { median } from '../stats.js';

export interface StartFigures {
  /** Median ms from spawn to the first 200 from `/healthz`, built, without the embedded sandbox. */
  readonly ms: number;
  /** The same with the embedded sandbox (no SPORTS_API_BASE_URL). */
  readonly withSandboxMs: number;
  /** The same under tsx (`npm run dev`), without the embedded sandbox. */
  readonly devMs: number;
  readonly samplesMs: readonly number[];
  /**
   * Median CPU ms (user + system) the built gateway, without the embedded
   * sandbox, spent until its first answer: what the start costs whatever
   * else the machine runs (wall time on a shared machine waits for a core).
   */
  readonly cpuMs: number;
  readonly rounds: number;
}

export interface IdleFigures {
  /** Median resident MB of the built gateway, idle, without the embedded sandbox. */
  readonly rssMb: number;
  /** The same process holding the embedded sandbox too. */
  readonly withSandboxRssMb: number;
  /** The built gateway after one GraphiQL page and its app file were served (the GraphiQL module loaded). */
  readonly afterGraphiqlRssMb: number;
  /** How long after its first answer the memory is read. */
  readonly settleMs: number;
}

const SETTLE_MS = 2_000;

interface OneStart {
  readonly ms: number;
  readonly cpuMs: number;
  readonly rssMb: number;
  readonly afterGraphiqlRssMb: number;
}

async function startOnce(
  pinning: Pinning,
  env: Record<string, string>,
  compiled: boolean,
  visitGraphiql: boolean,
): Promise<OneStart> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'sports-graph-bench-start-'));
  const started = performance.now();
  const child = spawnTs(pinning, {
    script: compiled ? 'dist/main.js' : 'src/main.ts',
    compiled,
    env: { PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production', ...env },
    cpu: pinning.serverCpu,
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    let ms: number | undefined;
    while (ms === undefined) {
      if (child.process.exitCode !== null) throw new Error(`the gateway exited before answering:\n${child.output()}`);
      if (performance.now() - started > 120_000)
        throw new Error(`the gateway did not answer within 120 s:\n${child.output()}`);
      try {
        const response = await fetch(`${url}/healthz`);
        await response.arrayBuffer();
        if (response.ok) ms = Math.round(performance.now() - started);
      } catch {
        // Not listening yet.
      }
      if (ms === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const pid = measuredPid(child);
    const cpuMs = Math.round(procStats(pid).cpuMs);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const rssMb = Math.round(procStats(pid).rssBytes / 1024 ** 2);
    let afterGraphiqlRssMb = rssMb;
    if (visitGraphiql) {
      const page = await (await fetch(`${url}/graphql`, { headers: { accept: 'text/html' } })).text();
      const app = /"(\/graphiql\/graphiql-[0-9a-f]+\.js)"/.exec(page)?.[1];
      if (app === undefined) throw new Error('the GraphiQL page names no app file');
      await (await fetch(`${url}${app}`, { headers: { 'accept-encoding': 'br' } })).arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      afterGraphiqlRssMb = Math.round(procStats(pid).rssBytes / 1024 ** 2);
    }
    return { ms, cpuMs, rssMb, afterGraphiqlRssMb };
  } finally {
    await child.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function runStart(
  pinning: Pinning,
  upstream: { url: string; apiKey: string },
  { rounds, log }: { rounds: number; log: (message: string) => void },
): Promise<{ start: StartFigures; idle: IdleFigures }> {
  const { built } = await ensureBuild({ ifStale: true });
  log(built ? 'start: built dist/' : 'start: dist/ is current');
  const onBench = { SPORTS_API_BASE_URL: upstream.url, SPORTS_API_KEY: upstream.apiKey, SPORTS_API_PLAN: 'mega' };
  const alone: OneStart[] = [];
  const embedded: OneStart[] = [];
  const dev: OneStart[] = [];
  for (let round = 0; round < rounds; round += 1) {
    alone.push(await startOnce(pinning, onBench, true, true));
    embedded.push(await startOnce(pinning, {}, true, false));
    dev.push(await startOnce(pinning, onBench, false, false));
    log(
      `start round ${round + 1}: built ${alone.at(-1)?.ms} ms, embedded sandbox ${embedded.at(-1)?.ms} ms, tsx ${dev.at(-1)?.ms} ms`,
    );
  }
  return {
    start: {
      ms: median(alone.map((one) => one.ms)),
      withSandboxMs: median(embedded.map((one) => one.ms)),
      devMs: median(dev.map((one) => one.ms)),
      samplesMs: alone.map((one) => one.ms),
      cpuMs: median(alone.map((one) => one.cpuMs)),
      rounds,
    },
    idle: {
      rssMb: median(alone.map((one) => one.rssMb)),
      withSandboxRssMb: median(embedded.map((one) => one.rssMb)),
      afterGraphiqlRssMb: median(alone.map((one) => one.afterGraphiqlRssMb)),
      settleMs: SETTLE_MS,
    },
  };
}
