/**
 * `npm run cluster`'s settings, from the environment and its one argument,
 * validated together: every bad value is named in one message, before
 * anything is started, as the gateway's own config does.
 */
import { join, resolve } from 'node:path';
import { envReader } from '../src/env-reader.js';
import { defaultPlan, type Plan } from '../src/upstream/assumptions.js';
import { sandboxCacheTtls } from '../src/upstream/cache-ttls.js';

export interface ClusterSettings {
  /** `CLUSTER_REPLICAS`, or the first argument. @default 3 */
  replicas: number;
  /** `PORT`: replica rN listens on PORT + N - 1. @default 4000 */
  firstPort: number;
  /** `REDIS_URL`: an existing Redis to use instead of starting one. */
  redisUrl: string | undefined;
  /** `REDIS_PORT` of the redis-server started here. @default a free port, never 6379 */
  redisPort: number | undefined;
  /** `SPORTS_API_BASE_URL`: an upstream to use instead of starting the sandbox. */
  baseUrl: string | undefined;
  /** `SANDBOX_PORT`. @default 4010 */
  sandboxPort: number;
  /** `SANDBOX_MATCH_EVENT_MS`: the sandbox's odds match events, as `npm start` has them (0 = none). @default 3_000 */
  matchEventMs: number;
  /** `SANDBOX_MATCH_MINUTE_MS`: real ms per minute of play of the sandbox's live games, as `npm start` has them (0 = still). @default 10_000 */
  matchMinuteMs: number;
  /** `DATA_DIR`: replica rN keeps its state in DATA_DIR/rN, the started Redis in DATA_DIR/redis. @default './data/cluster' */
  dataDir: string;
  /** `SPORTS_API_PLAN`: the replicas' plan and the sandbox's allowance. @default the largest plan on the sandbox, 'free' on a real upstream */
  plan: Plan;
}

/** More replicas than this on one machine is a mistake, not a cluster. */
const MAX_REPLICAS = 32;

export class ClusterSettingsError extends Error {
  readonly code = 'CLUSTER_SETTINGS';
}

export function readClusterSettings(env: NodeJS.ProcessEnv, args: readonly string[]): ClusterSettings {
  // The argument, when given, is read as if it were CLUSTER_REPLICAS.
  const read = envReader(args[0] === undefined ? env : { ...env, CLUSTER_REPLICAS: args[0] });
  const { problems, url } = read;

  if (args.length > 1) problems.push(`at most one argument (the number of replicas), got ${args.length}`);
  const replicas = read.int('CLUSTER_REPLICAS', 3, 1, MAX_REPLICAS);
  const firstPort = read.int('PORT', 4000, 1, 65_535);
  if (firstPort + replicas - 1 > 65_535)
    problems.push(`PORT ${firstPort} leaves no room for ${replicas} consecutive ports`);

  const settings: ClusterSettings = {
    replicas,
    firstPort,
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    redisPort: read.optionalInt('REDIS_PORT', 1, 65_535),
    baseUrl: url('SPORTS_API_BASE_URL', ['http:', 'https:']),
    sandboxPort: read.int('SANDBOX_PORT', 4010, 1, 65_535),
    matchEventMs: read.int('SANDBOX_MATCH_EVENT_MS', 3_000, 0),
    matchMinuteMs: read.int('SANDBOX_MATCH_MINUTE_MS', 10_000, 0),
    // Absolute: the replicas run from the project root, this script from wherever it was started.
    dataDir: resolve(env['DATA_DIR'] || join('data', 'cluster')),
    plan: read.plan(defaultPlan(env['SPORTS_API_BASE_URL'] ? 'real' : 'sandbox')),
  };

  // Ports this script binds itself must not collide with each other.
  const own = [
    ...Array.from({ length: replicas }, (_, index) => ({ name: `replica r${index + 1}`, port: firstPort + index })),
    ...(settings.baseUrl === undefined ? [{ name: 'SANDBOX_PORT', port: settings.sandboxPort }] : []),
    ...(settings.redisUrl === undefined && settings.redisPort !== undefined
      ? [{ name: 'REDIS_PORT', port: settings.redisPort }]
      : []),
  ];
  for (const [index, one] of own.entries()) {
    const clash = own.slice(index + 1).find((other) => other.port === one.port);
    if (clash !== undefined) problems.push(`${one.name} and ${clash.name} would both use port ${one.port}`);
  }

  if (problems.length > 0) throw new ClusterSettingsError(problems.join('\n'));
  return settings;
}

/**
 * The replicas' settings that the embedded sandbox changes (`CACHE_TTL_*`,
 * src/upstream/cache-ttls.ts), unless set: on `npm run cluster`'s sandbox
 * the replicas see a base URL and would otherwise take a real upstream's.
 */
export function sandboxDefaults(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [cacheClass, seconds] of Object.entries(sandboxCacheTtls)) {
    const name = `CACHE_TTL_${cacheClass.toUpperCase()}`;
    if ((env[name] ?? '') === '') out[name] = String(seconds);
  }
  return out;
}
