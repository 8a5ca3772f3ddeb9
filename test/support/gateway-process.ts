/**
 * The gateway as `npm start` runs it (the build's output, `node dist/main.js`,
 * built once per test run by vitest's globalSetup, test/support/build-dist.ts),
 * in a child process: a request that ends the process shows as an exit,
 * not as a crashed test worker. A free loopback port and a fresh DATA_DIR by
 * default. The cluster harness (cluster.ts) and `npm run cluster` (which
 * builds first) start their replicas with it too, on ports and data
 * directories of their choosing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/net/free-port.js';
import { reapOnExit } from './reap-on-exit.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface GatewayProcess {
  readonly url: string;
  readonly port: number;
  readonly process: ChildProcess;
  /** How the process ended, or undefined while it runs. */
  exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** Resolves when the process has exited. */
  exited(): Promise<void>;
  /** The last lines it wrote (stdout and stderr), for failure messages. */
  tail(): string;
  /** SIGTERM (SIGKILL after 5 s), then removes a DATA_DIR of its own. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash would; resolves once it has exited. Its DATA_DIR is kept. */
  kill(): Promise<void>;
}

export interface GatewayProcessOptions {
  /** A DATA_DIR of the caller's, kept after `stop` (restart and crash tests); default a fresh one, removed on `stop`. */
  dataDir?: string;
  /** Port to listen on (restarts on the same address, consecutive ports); default a free loopback port. */
  port?: number;
  /** Its own process group, so that a terminal's Ctrl-C reaches only the parent, which stops it in order. @default false */
  detached?: boolean;
  /** Every chunk it writes, stdout and stderr, as it comes (a launcher forwarding the logs). */
  onOutput?: (chunk: string) => void;
  /** How long it may take to answer /healthz; past it, it is killed and the start fails with its output. @default 60_000 */
  readyTimeoutMs?: number;
  /** An IPC channel to the child (`process.send`), as the bench opens one for its probes (bench/control.ts). @default false */
  ipc?: boolean;
  /** The node arguments that run the gateway (the bench's entry: bench/gateway-main.ts). @default ['dist/main.js'] */
  entry?: readonly string[];
}

/** Spawns the gateway; `ready` resolves once /healthz answers and rejects, with its output, if it exits first. */
function spawnGateway(
  env: Record<string, string>,
  port: number,
  dataDir: string,
  ownsDataDir: boolean,
  options: Pick<GatewayProcessOptions, 'detached' | 'onOutput' | 'readyTimeoutMs' | 'ipc' | 'entry'> = {},
): { handle: GatewayProcess; ready: Promise<GatewayProcess>; exited: Promise<void> } {
  const child = spawn(process.execPath, options.entry ?? ['dist/main.js'], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: options.ipc === true ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  reapOnExit(child);
  let output = '';
  const keep = (chunk: Buffer): void => {
    const text = chunk.toString('utf8');
    output = (output + text).slice(-8_000);
    options.onOutput?.(text);
  };
  // Always drained: a full pipe would block the child's logging.
  const { stdout, stderr } = child;
  if (stdout === null || stderr === null) throw new Error('the gateway process was spawned without output pipes');
  stdout.on('data', keep);
  stderr.on('data', keep);
  let ended: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      ended = { code, signal };
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const handle: GatewayProcess = {
    url,
    port,
    process: child,
    exit: () => ended,
    exited: () => exited,
    tail: () => output,
    stop: async () => {
      if (ended === undefined) {
        child.kill('SIGTERM');
        const killTimer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(killTimer);
      }
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    },
    kill: async () => {
      if (ended === undefined) child.kill('SIGKILL');
      await exited;
    },
  };
  // Polled until it answers (bounded); the child exiting first fails at once with its output.
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  const deadline = Date.now() + readyTimeoutMs;
  const ready = (async (): Promise<GatewayProcess> => {
    for (;;) {
      if (ended !== undefined)
        throw new Error(`the gateway exited before answering (${JSON.stringify(ended)}):\n${output}`);
      if (Date.now() > deadline) {
        await handle.kill();
        throw new Error(`the gateway did not answer /healthz within ${readyTimeoutMs} ms:\n${output}`);
      }
      try {
        // Bounded: a port held by something that accepts and never answers must not stall the poll past its deadline.
        const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) });
        if (response.ok) return handle;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return { handle, ready, exited };
}

export async function startGatewayProcess(
  env: Record<string, string> = {},
  options: GatewayProcessOptions = {},
): Promise<GatewayProcess> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'sports-graph-process-')));
  return spawnGateway(env, options.port ?? (await freePort()), dataDir, options.dataDir === undefined, options).ready;
}

/** Starts a gateway that is expected to refuse to start: resolves with its exit code and output once it has exited. */
export async function gatewayStartFailure(
  env: Record<string, string>,
  dataDir: string,
): Promise<{ code: number | null; output: string }> {
  const { handle, ready, exited } = spawnGateway(env, await freePort(), dataDir, false);
  const started = await Promise.race([
    ready.then(
      () => true,
      () => false,
    ),
    exited.then(() => false),
  ]);
  if (started) {
    await handle.stop();
    throw new Error(`the gateway started although it should have refused:\n${handle.tail()}`);
  }
  await exited;
  return { code: handle.exit()?.code ?? null, output: handle.tail() };
}
