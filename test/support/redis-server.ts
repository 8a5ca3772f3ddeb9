/**
 * A throwaway `redis-server` (Debian's package) on a loopback port of its own,
 * for the cluster tests and `npm run cluster` (scripts/cluster.ts). Never the
 * shared 6379: a test must not read or wipe anybody else's data, and two test
 * files must not see each other's keys. No persistence unless a directory is
 * given, so `restart()` brings back an empty server, which is what a test
 * that kills Redis needs to prove its replicas rejoin and reconcile.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../../src/net/free-port.js';
import { reapOnExit } from './reap-on-exit.js';

/** Where Debian's `redis-server` package puts the binary. */
export const DEBIAN_REDIS_SERVER = '/usr/bin/redis-server';

/** The port a shared, system-wide Redis listens on: never chosen here. */
const SHARED_REDIS_PORT = 6379;

export class RedisServerMissingError extends Error {
  readonly code = 'REDIS_SERVER_MISSING';
  constructor(searched: string) {
    super(
      `redis-server was not found (searched PATH and ${searched}): install Debian's redis-server package (sudo apt-get install redis-server)`,
    );
    this.name = 'RedisServerMissingError';
  }
}

export interface RedisServer {
  /** `redis://127.0.0.1:PORT`, what `REDIS_URL` takes. */
  readonly url: string;
  readonly port: number;
  /** True while a redis-server process of this handle runs. */
  readonly running: boolean;
  /** The running process's ID; undefined once it has exited. */
  readonly pid: number | undefined;
  /** Resolves when the current process exits (at once if none runs), with how it ended. */
  exited(): Promise<ProcessEnd>;
  /** The last lines it wrote, for failure messages. */
  tail(): string;
  /** SIGTERM (SIGKILL after 5 s); resolves once it has exited. Calling it again, or after `kill`, does nothing. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash would: resolves once it has exited. */
  kill(): Promise<void>;
  /** Kills it if it runs, then starts it again on the same port (empty without `dir`); resolves when it answers PING. */
  restart(): Promise<void>;
}

export interface ProcessEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RedisServerOptions {
  /**
   * Port to listen on; a port chosen here is never 6379.
   * @default a free loopback port
   */
  port?: number;
  /**
   * Keep the data in this directory (append-only file), so it survives a
   * restart; without it nothing is written anywhere.
   * @default no persistence
   */
  dir?: string;
  /**
   * Start the process in its own process group, so that a Ctrl-C in the
   * terminal reaches only the parent, which then stops it in order.
   * @default false
   */
  detached?: boolean;
  /**
   * How long to wait for a PING to be answered after start.
   * @default 20_000
   */
  readyTimeoutMs?: number;
  /**
   * More `redis-server` arguments, after the helper's own (e.g.
   * `['--maxmemory', '2mb', '--maxmemory-policy', 'volatile-lru']`).
   * @default none
   */
  serverArgs?: readonly string[];
}

/** The redis-server binary: the first on PATH, else Debian's; a coded error naming the package when neither exists. */
export async function findRedisServer(
  path: string | undefined = process.env['PATH'],
  fallback = DEBIAN_REDIS_SERVER,
): Promise<string> {
  const candidates = [
    ...(path ?? '')
      .split(delimiter)
      .filter((dir) => dir !== '')
      .map((dir) => join(dir, 'redis-server')),
    fallback,
  ];
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; try the next.
    }
  }
  throw new RedisServerMissingError(fallback);
}

async function choosePort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port !== SHARED_REDIS_PORT) return port;
  }
}

/** Answers PING once, or throws: a fresh client that never retries, so a refused connection fails fast. */
async function ping(port: number): Promise<void> {
  const client = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: 1_000,
  });
  // Connection errors are the expected answer while it starts; without a listener ioredis prints them.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const answer = await client.ping();
    if (answer !== 'PONG') throw new Error(`PING answered ${answer}`);
  } finally {
    client.disconnect();
  }
}

export async function startRedis(options: RedisServerOptions = {}): Promise<RedisServer> {
  const { dir, detached = false, readyTimeoutMs = 20_000, serverArgs = [] } = options;
  const binary = await findRedisServer();
  let port = options.port ?? (await choosePort());
  let child: ChildProcess | undefined;
  let ended: Promise<ProcessEnd> = Promise.resolve({ code: null, signal: null });
  let output = '';

  const args = (): string[] => [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--daemonize',
    'no',
    ...(dir === undefined
      ? ['--save', '', '--appendonly', 'no', '--dir', tmpdir()]
      : ['--save', '', '--appendonly', 'yes', '--dir', dir]),
    ...serverArgs,
  ];

  const spawnOne = (): void => {
    const started = spawn(binary, args(), { stdio: ['ignore', 'pipe', 'pipe'], detached });
    reapOnExit(started);
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-8_000);
    };
    // Always drained: a full pipe would block the server.
    started.stdout?.on('data', keep);
    started.stderr?.on('data', keep);
    child = started;
    ended = new Promise<ProcessEnd>((resolve) => {
      started.once('error', (error) => {
        keep(Buffer.from(`${error.message}\n`));
        resolve({ code: null, signal: null });
      });
      started.once('exit', (code, signal) => resolve({ code, signal }));
    }).then((end) => {
      if (child === started) child = undefined;
      return end;
    });
  };

  // Polled until it answers (bounded); the process exiting first fails at once with its output.
  const ready = async (): Promise<void> => {
    const deadline = Date.now() + readyTimeoutMs;
    let exited = false;
    void ended.then(() => (exited = true));
    for (;;) {
      if (exited) throw new Error(`redis-server exited before answering on port ${port}:\n${output}`);
      try {
        await ping(port);
        return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline)
        throw new Error(`redis-server did not answer PING on port ${port} within ${readyTimeoutMs} ms:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const signalAndWait = async (signal: NodeJS.Signals): Promise<void> => {
    const running = child;
    if (running === undefined) return;
    running.kill(signal);
    const killTimer = signal === 'SIGKILL' ? undefined : setTimeout(() => running.kill('SIGKILL'), 5_000);
    await ended;
    clearTimeout(killTimer);
  };

  // A port chosen here can be taken between the check and the bind: choose again, a few times.
  for (let attempt = 1; ; attempt += 1) {
    spawnOne();
    try {
      await ready();
      break;
    } catch (error) {
      await signalAndWait('SIGKILL');
      if (options.port !== undefined || attempt === 3) throw error;
      port = await choosePort();
      output = '';
    }
  }

  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get running() {
      return child !== undefined;
    },
    get pid() {
      return child?.pid;
    },
    exited: () => ended,
    tail: () => output,
    stop: () => signalAndWait('SIGTERM'),
    kill: () => signalAndWait('SIGKILL'),
    restart: async () => {
      await signalAndWait('SIGKILL');
      spawnOne();
      try {
        await ready();
      } catch (error) {
        await signalAndWait('SIGKILL');
        throw error;
      }
    },
  };
}
