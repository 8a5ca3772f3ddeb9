/**
 * `npm run cluster`: a cluster on one machine. A redis-server (Debian's
 * package) unless REDIS_URL names a Redis, the sandbox upstream unless
 * SPORTS_API_BASE_URL names an upstream, and N gateway replicas (the build,
 * `node dist/main.js`, as `npm start` runs it; `precluster` builds it) on consecutive ports from PORT, each with its own
 * DATA_DIR and REPLICA_ID. Prints every address once all answer /healthz.
 * Ctrl-C or SIGTERM stops the replicas first, then Redis and the sandbox, so
 * that no replica outlives the state it writes to. Children run in process
 * groups of their own: the terminal's Ctrl-C reaches this script only, and
 * the order is this script's; however the script ends, they end with it
 * (test/support/reap-on-exit.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startSandbox, type SandboxHandle } from '../sandbox/server.js';
import { planAllowances } from '../src/upstream/assumptions.js';
import { startGatewayProcess, type GatewayProcess } from '../test/support/gateway-process.js';
import { RedisServerMissingError, startRedis, type RedisServer } from '../test/support/redis-server.js';
import {
  ClusterSettingsError,
  readClusterSettings,
  sandboxDefaults,
  type ClusterSettings,
} from './cluster-settings.js';
import { linePrefixer, type LinePrefixer } from './line-prefixer.js';
import { portIsFree } from './port-is-free.js';

interface RunningReplica {
  id: string;
  child: GatewayProcess;
  output: LinePrefixer;
}

const say = (line: string): void => void process.stdout.write(`cluster: ${line}\n`);

function fail(message: string, code = 1): never {
  process.stderr.write(`cluster: ${message}\n`);
  process.exit(code);
}

/** A URL as it may be printed: a password in it (a REDIS_URL of the operator's) is never shown. */
function printable(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString().replace(/\/$/, '');
}

function describeEnd(end: { code: number | null; signal: NodeJS.Signals | null } | undefined): string {
  if (end === undefined) return 'still running';
  return end.signal !== null ? `killed by ${end.signal}` : `exit code ${String(end.code)}`;
}

let settings: ClusterSettings;
try {
  settings = readClusterSettings(process.env, process.argv.slice(2));
} catch (error) {
  if (error instanceof ClusterSettingsError) fail(error.message, 2);
  throw error;
}

let stopping = false;
let redis: RedisServer | undefined;
let sandbox: SandboxHandle | undefined;
const replicas: RunningReplica[] = [];

let stopped: Promise<void> | undefined;
/** Once, whoever asks first (a signal, a failed start, the last replica dying); each stop is bounded by a SIGKILL. */
function stopAll(): Promise<void> {
  stopped ??= (async () => {
    await Promise.all(replicas.map(({ child }) => child.stop()));
    for (const { output } of replicas) output.flush();
    await redis?.stop();
    await sandbox?.close();
  })();
  return stopped;
}

async function checkPorts(): Promise<void> {
  const wanted = [
    ...Array.from({ length: settings.replicas }, (_, index) => ({
      name: `r${index + 1} (PORT + ${index})`,
      port: settings.firstPort + index,
    })),
    ...(settings.baseUrl === undefined ? [{ name: 'the sandbox (SANDBOX_PORT)', port: settings.sandboxPort }] : []),
    ...(settings.redisUrl === undefined && settings.redisPort !== undefined
      ? [{ name: 'redis-server (REDIS_PORT)', port: settings.redisPort }]
      : []),
  ];
  const taken: string[] = [];
  for (const { name, port } of wanted) if (!(await portIsFree(port))) taken.push(`${port} for ${name}`);
  if (taken.length > 0) fail(`port ${taken.join(', ')} is in use: choose others with PORT, SANDBOX_PORT or REDIS_PORT`);
}

async function startRedisServer(): Promise<string> {
  if (settings.redisUrl !== undefined) return settings.redisUrl;
  // Kept on disk (append-only file): the shared allowance count is money and must survive a restart of the cluster.
  const dir = join(settings.dataDir, 'redis');
  await mkdir(dir, { recursive: true });
  try {
    redis = await startRedis({
      dir,
      detached: true,
      ...(settings.redisPort === undefined ? {} : { port: settings.redisPort }),
    });
  } catch (error) {
    if (error instanceof RedisServerMissingError) fail(`${error.message}, or set REDIS_URL to a Redis of your own`);
    throw error;
  }
  return redis.url;
}

async function startReplicas(env: Record<string, string>): Promise<void> {
  const ids = Array.from({ length: settings.replicas }, (_, index) => `r${index + 1}`);
  // In parallel, and every one waited for, so that none is left running unseen when another fails.
  const results = await Promise.allSettled(
    ids.map(async (id, index) => {
      const dataDir = join(settings.dataDir, id);
      await mkdir(dataDir, { recursive: true });
      const output = linePrefixer(`[${id}] `, (text) => void process.stdout.write(text));
      try {
        const child = await startGatewayProcess(
          { ...env, REPLICA_ID: id },
          // The build, as `npm start` and the container run it (`precluster` made it).
          { port: settings.firstPort + index, dataDir, detached: true, onOutput: (chunk) => output.push(chunk) },
        );
        replicas.push({ id, child, output });
      } catch (error) {
        output.flush();
        // Its output has been printed above, prefixed; the first line says how it ended.
        throw new Error(
          `replica ${id} did not start: ${(error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''}`,
        );
      }
    }),
  );
  const failures = results.flatMap((result) =>
    result.status === 'rejected' ? [String((result.reason as Error).message)] : [],
  );
  if (failures.length > 0) {
    await stopAll();
    fail(failures.join('\n'));
  }
  replicas.sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
}

/** A replica or Redis that dies while the cluster runs is reported; with no replica left, the script ends. */
function watch(): void {
  for (const replica of replicas) {
    void replica.child.exited().then(async () => {
      replica.output.flush();
      if (stopping) return;
      say(`replica ${replica.id} exited (${describeEnd(replica.child.exit())}); restart the cluster to bring it back`);
      if (replicas.every(({ child }) => child.exit() !== undefined)) {
        stopping = true;
        say('no replica is left: stopping');
        await stopAll();
        process.exit(1);
      }
    });
  }
  if (redis !== undefined) {
    const server = redis;
    void server.exited().then((end) => {
      if (!stopping)
        say(
          `redis-server exited (${describeEnd(end)}); its last lines:\n${server.tail().trimEnd().split('\n').slice(-5).join('\n')}`,
        );
    });
  }
}

async function start(): Promise<void> {
  await checkPorts();
  const redisUrl = await startRedisServer();
  let apiKey: string | undefined;
  if (settings.baseUrl === undefined) {
    // The sandbox gets a key of its own for this run unless one is configured, as `npm start` does.
    apiKey = process.env['SPORTS_API_KEY'] || `sandbox-${randomBytes(12).toString('hex')}`;
    // The same live sandbox as `npm start`: games that play, odds that move.
    sandbox = await startSandbox({
      port: settings.sandboxPort,
      apiKey,
      allowance: planAllowances[settings.plan],
      matchEventMs: settings.matchEventMs,
      matchMinuteMs: settings.matchMinuteMs,
    });
  }
  const baseUrl = settings.baseUrl ?? sandbox?.url ?? '';
  await startReplicas({
    REDIS_URL: redisUrl,
    SPORTS_API_BASE_URL: baseUrl,
    SPORTS_API_PLAN: settings.plan,
    LOG_LEVEL: process.env['LOG_LEVEL'] || 'info',
    ...(apiKey === undefined ? {} : { SPORTS_API_KEY: apiKey }),
    // The replicas see a base URL, so they would take a real upstream's defaults: give them the embedded sandbox's where they differ.
    ...(sandbox === undefined ? {} : sandboxDefaults(process.env)),
  });
  if (stopping) return;
  watch();

  const lines = [
    `ready: ${replicas.length} replica${replicas.length === 1 ? '' : 's'}, plan ${settings.plan} (${planAllowances[settings.plan]} upstream requests a day)`,
    `  redis    ${printable(redisUrl)}${redis === undefined ? '' : `  (data in ${join(settings.dataDir, 'redis')})`}`,
    `  upstream ${baseUrl}${sandbox === undefined ? '' : '  (the sandbox)'}`,
    ...replicas.map(
      ({ id, child }) => `  ${id.padEnd(8)} ${child.url}/graphql  (DATA_DIR ${join(settings.dataDir, id)})`,
    ),
    'Ctrl-C stops them all.',
  ];
  say(lines.join('\n'));
}

const started = start();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // npm and tsx may relay the terminal's signal once more: the stop under way is bounded already.
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping the replicas, then Redis and the sandbox`);
    // Replicas still starting are waited for, then stopped with the others.
    void started
      .catch(() => undefined)
      .then(stopAll)
      .then(
        () => process.exit(0),
        (error: unknown) => fail(`stopping failed: ${String(error)}`),
      );
  });
}

started.catch(async (error: unknown) => {
  if (stopping) return;
  stopping = true;
  await stopAll().catch(() => undefined);
  fail(error instanceof Error ? error.message : String(error));
});
