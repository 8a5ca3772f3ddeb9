/**
 * The processes of one bench run: one sandbox, the gateways under test (each
 * with its own DATA_DIR and switches) and the hand-written baseline.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compiledGateway, compiledScript } from './compile.js';
import { detectPinning, spawnTs, waitForHttp, type Child, type Pinning } from './processes.js';
import { freePort } from '../src/net/free-port.js';

export const BENCH_API_KEY = 'bench-key-0000';

export interface Service {
  readonly url: string;
  readonly child: Child;
}

export interface BenchStack {
  readonly pinning: Pinning;
  readonly sandbox: Service;
  /** `script`: another build of the bench's gateway entry (an A/B of two builds); this checkout's (bench/gateway-main.ts) by default. */
  startGateway(
    name: string,
    env?: Record<string, string>,
    nodeFlags?: readonly string[],
    script?: string,
  ): Promise<Service>;
  startDirect(ids: Record<string, string>): Promise<Service>;
  /** The warm floor (bench/direct/floor-server.ts): `body` answered to every request, as `contentType`. */
  startFloor(body: Buffer, contentType: string): Promise<Service>;
  close(): Promise<void>;
}

export async function startBenchStack(latencyMs: number): Promise<BenchStack> {
  const pinning = detectPinning();
  const children: Child[] = [];
  const dirs: string[] = [];
  const sandboxPort = await freePort();
  const sandboxChild = spawnTs(pinning, {
    script: 'bench/sandbox-main.ts',
    env: {
      SANDBOX_PORT: String(sandboxPort),
      SPORTS_API_KEY: BENCH_API_KEY,
      BENCH_UPSTREAM_LATENCY_MS: String(latencyMs),
    },
    cpu: pinning.loadCpu,
  });
  children.push(sandboxChild);
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  await waitForHttp(`${sandboxUrl}/__sandbox/requests`, sandboxChild);

  return {
    pinning,
    sandbox: { url: sandboxUrl, child: sandboxChild },
    startGateway: async (name, env = {}, nodeFlags = [], script?: string) => {
      const port = await freePort();
      const dataDir = await mkdtemp(join(tmpdir(), `sports-graph-bench-${name}-`));
      dirs.push(dataDir);
      // Built as `npm start`'s build is (bench/compile.ts): under tsx every closure pays esbuild's keepNames wrapper, which the bundle does not.
      const child = spawnTs(pinning, {
        script: script ?? (await compiledGateway()),
        compiled: true,
        env: {
          SPORTS_API_BASE_URL: sandboxUrl,
          SPORTS_API_KEY: BENCH_API_KEY,
          SPORTS_API_PLAN: 'mega',
          PORT: String(port),
          DATA_DIR: dataDir,
          LOG_LEVEL: 'warn',
          // As deployed: graphql-js skips its development-only checks (its
          // `instanceOf` walks constructor names on every call otherwise).
          NODE_ENV: 'production',
          ...env,
        },
        cpu: pinning.serverCpu,
        nodeFlags,
        // The bench's probes (bench/control.ts) listen on this channel only.
        ipc: env['BENCH_CONTROL'] === 'on',
      });
      children.push(child);
      const url = `http://127.0.0.1:${port}`;
      await waitForHttp(`${url}/healthz`, child);
      return { url, child };
    },
    startDirect: async (ids) => {
      const port = await freePort();
      const child = spawnTs(pinning, {
        script: await compiledScript('bench/direct/server.ts', 'direct-server'),
        compiled: true,
        env: {
          NODE_ENV: 'production',
          PORT: String(port),
          BENCH_UPSTREAM_URL: sandboxUrl,
          SPORTS_API_KEY: BENCH_API_KEY,
          BENCH_IDS: JSON.stringify(ids),
        },
        cpu: pinning.serverCpu,
      });
      children.push(child);
      const url = `http://127.0.0.1:${port}`;
      await waitForHttp(`${url}/healthz`, child);
      return { url, child };
    },
    startFloor: async (body, contentType) => {
      const port = await freePort();
      const dir = await mkdtemp(join(tmpdir(), 'sports-graph-bench-floor-'));
      dirs.push(dir);
      const bodyFile = join(dir, 'answer');
      await writeFile(bodyFile, body);
      const child = spawnTs(pinning, {
        script: await compiledScript('bench/direct/floor-server.ts', 'floor-server'),
        compiled: true,
        env: {
          NODE_ENV: 'production',
          PORT: String(port),
          BENCH_FLOOR_BODY_FILE: bodyFile,
          BENCH_FLOOR_CONTENT_TYPE: contentType,
        },
        cpu: pinning.serverCpu,
      });
      children.push(child);
      const url = `http://127.0.0.1:${port}`;
      await waitForHttp(`${url}/healthz`, child);
      return { url, child };
    },
    close: async () => {
      await Promise.all(children.reverse().map((child) => child.stop()));
      await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
}

/** Empties the sandbox's request counts. */
export async function resetSandboxCounts(sandboxUrl: string): Promise<void> {
  await fetch(`${sandboxUrl}/__sandbox/requests/reset`, { method: 'POST' });
}

/** Requests the sandbox received since its counts were last reset (the log keeps only the latest 10,000). */
export async function sandboxRequestTotal(sandboxUrl: string): Promise<number> {
  return ((await (await fetch(`${sandboxUrl}/__sandbox/requests`)).json()) as { total: number }).total;
}

/** Requests left in the sandbox key's daily allowance. */
export async function sandboxAllowanceRemaining(sandboxUrl: string): Promise<number> {
  return ((await (await fetch(`${sandboxUrl}/__sandbox/quota`)).json()) as { remaining: number }).remaining;
}

export interface LogEntry {
  readonly method: string;
  readonly path: string;
  readonly query: string;
}

export async function sandboxLog(sandboxUrl: string): Promise<LogEntry[]> {
  return (await (await fetch(`${sandboxUrl}/__sandbox/requests/log`)).json()) as LogEntry[];
}
