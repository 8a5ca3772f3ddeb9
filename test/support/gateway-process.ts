/**
 * The gateway as `npm start` runs it (src/main.ts, on its embedded sandbox),
 * in a child process: a request that ends the process shows as an exit,
 * not as a crashed test worker. Same way of starting as soak/processes.ts:
 * `node --import tsx` directly, a free loopback port, a fresh DATA_DIR.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/net/free-port.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface GatewayProcess {
  readonly url: string;
  readonly port: number;
  readonly process: ChildProcess;
  /** How the process ended, or undefined while it runs. */
  exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** The last lines it wrote (stdout and stderr), for failure messages. */
  tail(): string;
  stop(): Promise<void>;
}

export async function startGatewayProcess(env: Record<string, string> = {}): Promise<GatewayProcess> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'sports-graph-process-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-8_000);
  };
  // Always drained: a full pipe would block the child's logging.
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
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
    tail: () => output,
    stop: async () => {
      if (ended === undefined) {
        child.kill('SIGTERM');
        const killTimer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(killTimer);
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  // Polled until it answers; the child exiting first fails at once with its output.
  for (;;) {
    if (ended !== undefined) throw new Error(`the gateway exited before answering (${JSON.stringify(ended)}):\n${output}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return handle;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
