/**
 * The soak's two servers, each in a child process of its own on a free
 * loopback port: the sandbox upstream (sandbox-child.ts) and the gateway
 * (src/main.ts, exactly what `npm start` runs), so the gateway's RSS, heap
 * and sockets are its own. Children run under `node --import tsx` directly
 * (not the tsx CLI, which would put a wrapper process between us).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../src/net/free-port.js';

const root = fileURLToPath(new URL('../', import.meta.url));

export interface Child {
  readonly process: ChildProcess;
  /** The last lines the child wrote, for a failure message. */
  readonly tail: string[];
  stop(): Promise<void>;
}

function startChild(
  script: string,
  env: Record<string, string>,
  onLine?: (line: string) => void,
  nodeArgs: readonly string[] = [],
): Child {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  const keep = (chunk: Buffer): void => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line === '') continue;
      onLine?.(line);
      tail.push(line);
      if (tail.length > 40) tail.shift();
    }
  };
  // Always drained: a full pipe would block the child's logging.
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited: Promise<void> | undefined;
  const exit = (): Promise<void> =>
    (exited ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    }));
  return {
    process: child,
    tail,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killTimer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exit();
      clearTimeout(killTimer);
    },
  };
}

export interface SandboxChild extends Child {
  readonly url: string;
}

export async function startSandboxChild(apiKey: string): Promise<SandboxChild> {
  let resolveUrl: (url: string) => void = () => undefined;
  const urlLine = new Promise<string>((resolve) => (resolveUrl = resolve));
  const child = startChild('soak/sandbox-child.ts', { SPORTS_API_KEY: apiKey }, (line) => {
    if (!line.startsWith('{"url"')) return;
    resolveUrl((JSON.parse(line) as { url: string }).url);
  });
  const url = await withTimeout(urlLine, 20_000, child, 'the sandbox did not start');
  return { ...child, url };
}

export interface GatewayChild extends Child {
  readonly url: string;
}

/**
 * The gateway as a user would run it, against the sandbox child, on the mega
 * plan (the steady queries must not exhaust the allowance). Short TTLs on
 * lines, V4 odds and V3 windows make part of the mix go upstream again and
 * again, so the upstream pool and cache keep churning too.
 */
export async function startGatewayChild(
  sandbox: SandboxChild,
  apiKey: string,
  extraEnv: Record<string, string>,
): Promise<GatewayChild> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'sports-graph-soak-'));
  const child = startChild(
    'src/main.ts',
    {
      SPORTS_API_BASE_URL: sandbox.url,
      SPORTS_API_KEY: apiKey,
      SPORTS_API_PLAN: 'mega',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      CACHE_TTL_LINES: '2',
      CACHE_TTL_V4ODDS: '2',
      CACHE_TTL_V3WINDOW: '2',
      ...extraEnv,
    },
    undefined,
    gatewayNodeArgs(),
  );
  const url = `http://127.0.0.1:${port}`;
  await withTimeout(waitHealthy(url), 30_000, child, 'the gateway did not become healthy');
  return {
    ...child,
    url,
    stop: async () => {
      await child.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * `SOAK_GATEWAY_NODE_ARGS` (space separated) go to the gateway's node only,
 * for looking inside it during a soak: `--cpu-prof --cpu-prof-dir=DIR`,
 * `--heapsnapshot-signal=SIGUSR2`, `--inspect`.
 */
function gatewayNodeArgs(): string[] {
  return (process.env['SOAK_GATEWAY_NODE_ARGS'] ?? '').split(' ').filter((arg) => arg !== '');
}

async function waitHealthy(url: string): Promise<string> {
  for (;;) {
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return url;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, child: Child, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const exited = new Promise<never>((_, reject) => {
    child.process.once('exit', (code) =>
      reject(new Error(`${message}: exited with ${String(code)}\n${child.tail.join('\n')}`)),
    );
  });
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} within ${ms} ms\n${child.tail.join('\n')}`)), ms);
  });
  try {
    return await Promise.race([promise, exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
