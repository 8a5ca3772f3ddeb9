/**
 * `npm run cluster`'s settings, from the environment and its one argument,
 * validated together: every bad value is named in one message, before
 * anything is started, as the gateway's own config does.
 */
import { join, resolve } from 'node:path';
import { defaultPlan, isPlan, planAllowances, type Plan } from '../src/upstream/assumptions.js';

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
  const problems: string[] = [];

  const integer = (name: string, raw: string | undefined, fallback: number | undefined, min: number, max: number): number | undefined => {
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return value;
  };
  const url = (name: string, protocols: readonly string[]): string | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    try {
      if (protocols.includes(new URL(raw).protocol)) return raw;
    } catch {
      // Reported below, like a wrong protocol.
    }
    problems.push(`${name} must be a ${protocols.map((protocol) => `${protocol}//`).join(' or ')} URL`);
    return undefined;
  };

  if (args.length > 1) problems.push(`at most one argument (the number of replicas), got ${args.length}`);
  const replicasRaw = args[0] ?? env['CLUSTER_REPLICAS'];
  const replicas = integer(args[0] === undefined ? 'CLUSTER_REPLICAS' : 'the number of replicas', replicasRaw, 3, 1, MAX_REPLICAS) ?? 3;
  const firstPort = integer('PORT', env['PORT'], 4000, 1, 65_535) ?? 4000;
  if (firstPort + replicas - 1 > 65_535) problems.push(`PORT ${firstPort} leaves no room for ${replicas} consecutive ports`);
  const planRaw = (env['SPORTS_API_PLAN'] || defaultPlan((env['SPORTS_API_BASE_URL'] ?? '') === '' ? 'sandbox' : 'real')).toLowerCase();
  if (!isPlan(planRaw)) problems.push(`SPORTS_API_PLAN must be one of ${Object.keys(planAllowances).join(', ')}, got "${planRaw}"`);

  const settings: ClusterSettings = {
    replicas,
    firstPort,
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    redisPort: integer('REDIS_PORT', env['REDIS_PORT'], undefined, 1, 65_535),
    baseUrl: url('SPORTS_API_BASE_URL', ['http:', 'https:']),
    sandboxPort: integer('SANDBOX_PORT', env['SANDBOX_PORT'], 4010, 1, 65_535) ?? 4010,
    // Absolute: the replicas run from the project root, this script from wherever it was started.
    dataDir: resolve(env['DATA_DIR'] || join('data', 'cluster')),
    plan: isPlan(planRaw) ? planRaw : 'free',
  };

  // Ports this script binds itself must not collide with each other.
  const own = [
    ...Array.from({ length: replicas }, (_, index) => ({ name: `replica r${index + 1}`, port: firstPort + index })),
    ...(settings.baseUrl === undefined ? [{ name: 'SANDBOX_PORT', port: settings.sandboxPort }] : []),
    ...(settings.redisUrl === undefined && settings.redisPort !== undefined ? [{ name: 'REDIS_PORT', port: settings.redisPort }] : []),
  ];
  for (const [index, one] of own.entries()) {
    const clash = own.slice(index + 1).find((other) => other.port === one.port);
    if (clash !== undefined) problems.push(`${one.name} and ${clash.name} would both use port ${one.port}`);
  }

  if (problems.length > 0) throw new ClusterSettingsError(problems.join('\n'));
  return settings;
}
