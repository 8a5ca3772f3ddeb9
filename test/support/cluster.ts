/**
 * A whole cluster with real parts, for the cluster tests: one sandbox
 * upstream in this process (so its counters and fixtures can be read
 * directly), one redis-server of the test's own (redis-server.ts), and N
 * gateway replicas as child processes (gateway-process.ts, what `npm start`
 * runs), each with a DATA_DIR of its own, `REPLICA_ID` r1..rN and `REDIS_URL`
 * set. Replicas are processes, not gateways in this process, because the
 * tests kill them: a lease holder that dies must die the way a crashed
 * machine does, without running any of its cleanup.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/net/free-port.js';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../sandbox/server.js';
import { isPlan, planAllowances } from '../../src/upstream/assumptions.js';
import { startGatewayProcess, type GatewayProcess } from './gateway-process.js';
import { startRedis, type RedisServer } from './redis-server.js';

export interface Replica {
  /** Its `REPLICA_ID`: `r1`..`rN`. */
  readonly id: string;
  /** `http://127.0.0.1:PORT`, the same across restarts. */
  readonly url: string;
  readonly port: number;
  /** Its own DATA_DIR, kept across restarts, removed by the cluster's `close`. */
  readonly dataDir: string;
  /** True while its process runs. */
  readonly running: boolean;
  /** The running process's ID; undefined once it has exited. */
  readonly pid: number | undefined;
  /** The last lines the current (or last) process wrote. */
  tail(): string;
  /** SIGTERM, as an orderly shutdown; resolves once it has exited. Idempotent. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash; resolves once it has exited. */
  kill(): Promise<void>;
  /**
   * Stops it if it runs, then starts it again on the same port and DATA_DIR,
   * with `env` added to the cluster's; resolves once /healthz answers.
   */
  restart(env?: Record<string, string>): Promise<void>;
}

export interface Cluster {
  sandbox: SandboxHandle;
  /** The key the sandbox accepts and every replica sends. */
  apiKey: string;
  redis: RedisServer;
  replicas: Replica[];
  /** Stops every replica, Redis and the sandbox, and removes the data directories. */
  close(): Promise<void>;
}

export interface ClusterOptions {
  /** Gateway replicas. @default 3 */
  replicas?: number;
  /** Environment of every replica, over the cluster's own (`SPORTS_API_PLAN` defaults to 'pro'). */
  env?: Record<string, string>;
  /** The sandbox's options; its allowance defaults to the plan's. */
  sandbox?: SandboxOptions;
}

interface ReplicaSpec {
  id: string;
  port: number;
  dataDir: string;
  env: Record<string, string>;
}

function replica(spec: ReplicaSpec, first: GatewayProcess): Replica {
  let current = first;
  return {
    id: spec.id,
    url: first.url,
    port: spec.port,
    dataDir: spec.dataDir,
    get running() {
      return current.exit() === undefined;
    },
    get pid() {
      return current.exit() === undefined ? current.process.pid : undefined;
    },
    tail: () => current.tail(),
    stop: () => current.stop(),
    kill: () => current.kill(),
    restart: async (env = {}) => {
      await current.stop();
      current = await startGatewayProcess({ ...spec.env, ...env }, { port: spec.port, dataDir: spec.dataDir });
    },
  };
}

async function startReplica(spec: ReplicaSpec): Promise<Replica> {
  try {
    return replica(spec, await startGatewayProcess(spec.env, { port: spec.port, dataDir: spec.dataDir }));
  } catch (error) {
    // The process's own output is already in the message (gateway-process.ts); say which replica it was.
    throw new Error(`replica ${spec.id} did not start: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const { replicas: count = 3, env = {} } = options;
  if (!Number.isInteger(count) || count < 1)
    throw new TypeError(`startCluster: replicas must be a positive integer, got ${count}`);
  const plan = env['SPORTS_API_PLAN'] ?? 'pro';
  if (!isPlan(plan))
    throw new TypeError(
      `startCluster: SPORTS_API_PLAN must be one of ${Object.keys(planAllowances).join(', ')}, got "${plan}"`,
    );
  const apiKey = options.sandbox?.apiKey ?? 'test-key-0000';

  const sandbox = await startSandbox({ port: 0, allowance: planAllowances[plan], ...options.sandbox, apiKey });
  const root = await mkdtemp(join(tmpdir(), 'sports-graph-cluster-'));
  let redis: RedisServer | undefined;
  const started: Replica[] = [];
  const close = async (): Promise<void> => {
    await Promise.all(started.map((one) => one.stop()));
    await redis?.stop();
    await sandbox.close();
    await rm(root, { recursive: true, force: true });
  };

  try {
    redis = await startRedis();
    const specs: ReplicaSpec[] = [];
    const taken = new Set([redis.port]);
    for (let index = 1; index <= count; index += 1) {
      const id = `r${index}`;
      const dataDir = join(root, id);
      await mkdir(dataDir);
      let port = await freePort();
      // The OS may hand the same free port out twice while nothing is bound to it yet.
      while (taken.has(port)) port = await freePort();
      taken.add(port);
      specs.push({
        id,
        port,
        dataDir,
        env: {
          SPORTS_API_BASE_URL: sandbox.url,
          SPORTS_API_KEY: apiKey,
          SPORTS_API_PLAN: plan,
          REDIS_URL: redis.url,
          REPLICA_ID: id,
          ...env,
        },
      });
    }
    // In parallel: each is a cold Node start. Every one is waited for, so that none is left running when another fails.
    const results = await Promise.allSettled(specs.map(startReplica));
    for (const result of results) if (result.status === 'fulfilled') started.push(result.value);
    const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
    if (failures.length > 0)
      throw failures.length === 1 ? failures[0] : new AggregateError(failures, failures.map(String).join('\n\n'));
  } catch (error) {
    await close();
    throw error;
  }

  return { sandbox, apiKey, redis, replicas: started, close };
}
