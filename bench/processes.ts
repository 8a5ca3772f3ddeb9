/**
 * Child processes of the bench: the sandbox upstream, the gateway and the
 * hand-written baseline, each in its own process (so the gateway's RSS and
 * CPU are its own), pinned to a core with `taskset` when the machine has it
 * and two cores or more.
 *
 * Core plan on two cores: core 0 runs the system under test (gateway, or the
 * hand-written baseline: never both under load at once); core 1 runs the load
 * generator (this process) and the sandbox.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export interface Pinning {
  /** `taskset` is on PATH and the machine has at least two cores. */
  readonly enabled: boolean;
  readonly reason: string;
  /** Core of the system under test. */
  readonly serverCpu: number;
  /** Core of the load generator and the sandbox. */
  readonly loadCpu: number;
}

export function detectPinning(): Pinning {
  const cores = availableParallelism();
  const taskset = spawnSync('which', ['taskset'], { encoding: 'utf8' }).status === 0;
  if (!taskset)
    return { enabled: false, reason: 'taskset not found: processes are not pinned', serverCpu: 0, loadCpu: 0 };
  if (cores < 2) return { enabled: false, reason: `${cores} core: processes are not pinned`, serverCpu: 0, loadCpu: 0 };
  return {
    enabled: true,
    reason: `taskset: server on core 0, load generator and sandbox on core 1 (${cores} cores)`,
    serverCpu: 0,
    loadCpu: 1,
  };
}

/** Pins this process (every thread, workers included) to the load generator's core. */
export function pinSelf(pinning: Pinning): void {
  pinProcess(pinning, process.pid, pinning.loadCpu);
}

/** Pins a running process (every thread) to `cpu`: for a process this module did not spawn (redis-server). */
export function pinProcess(pinning: Pinning, pid: number, cpu: number): void {
  if (!pinning.enabled) return;
  spawnSync('taskset', ['-a', '-cp', String(cpu), String(pid)], { stdio: 'ignore' });
}

export interface Child {
  readonly process: ChildProcess;
  readonly pid: number;
  /** Output so far (stdout and stderr), for error messages. */
  output(): string;
  stop(): Promise<void>;
}

export interface SpawnOptions {
  /** Module run with `node --import tsx` (with `compiled`, `node` alone), relative to the repo root. */
  readonly script: string;
  /** Arguments after the script (a peer's command line). */
  readonly args?: readonly string[];
  /** A built module (dist/), run by `node` without the TypeScript loader. @default false */
  readonly compiled?: boolean;
  readonly env: Record<string, string>;
  readonly cpu: number | undefined;
  readonly nodeFlags?: readonly string[];
  /** Open an IPC channel (`process.send`) to the child. */
  readonly ipc?: boolean;
}

export function spawnTs(pinning: Pinning, options: SpawnOptions): Child {
  const nodeArgs = [
    ...(options.nodeFlags ?? []),
    ...(options.compiled === true ? [] : ['--import', 'tsx']),
    options.script,
    ...(options.args ?? []),
  ];
  const [command, args] =
    pinning.enabled && options.cpu !== undefined
      ? ['taskset', ['-c', String(options.cpu), process.execPath, ...nodeArgs]]
      : [process.execPath, nodeArgs];
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: { ...process.env, ...options.env },
    stdio: options.ipc === true ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer): void => {
    // Only the tail matters for an error message.
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  if (child.pid === undefined) throw new Error(`could not start ${options.script}`);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    process: child,
    pid: child.pid,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resolves once `url` answers 200; rejects after `timeoutMs` or when the child exits. */
export async function waitForHttp(url: string, child: Child, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.process.exitCode !== null) throw new Error(`process exited before ${url} answered:\n${child.output()}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${child.output()}`);
}

/** Resident memory and CPU time of a process, from /proc (Linux). */
export interface ProcStats {
  readonly rssBytes: number;
  /** User + system CPU, milliseconds. */
  readonly cpuMs: number;
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
const PAGE_SIZE = Number(spawnSync('getconf', ['PAGESIZE'], { encoding: 'utf8' }).stdout.trim()) || 4096;

export function procStats(pid: number): ProcStats {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  const rssPages = Number(fields[21]);
  return { rssBytes: rssPages * PAGE_SIZE, cpuMs: ((utime + stime) * 1000) / CLOCK_TICKS };
}

/**
 * The node process under a `taskset` wrapper: taskset execs node, so the pid
 * is node's own. Kept as a function so that a wrapper that forks would be
 * caught here rather than measured wrongly.
 */
export function measuredPid(child: Child): number {
  const comm = readFileSync(`/proc/${child.pid}/comm`, 'utf8').trim();
  if (comm !== 'node')
    throw new Error(`pid ${child.pid} is "${comm}", not node: its RSS and CPU would not be the gateway's`);
  return child.pid;
}
