/**
 * The one place that decides where a gateway's state lives (DESIGN.md,
 * "State"): alone, on memory and `DATA_DIR` (src/state/local/local-state.ts);
 * with `REDIS_URL`, in the cluster's Redis (src/state/redis/). Everything
 * else receives the interfaces and never asks which.
 *
 * Either way the process locks its `DATA_DIR` (the image store lives there,
 * and one directory belongs to one process): replicas share state through
 * Redis, never through files.
 */
import type { Logger } from 'pino';
import type { Budgets } from '../spend/client-budgets.js';
import type { Config } from '../config.js';
import type { Ledger } from '../spend/ledger.js';
import { LocalBoard, LocalBus, LocalLeases } from './local/coordination.js';
import { lockDataDir } from './data-dir-lock.js';
import { openLocalState } from './local/local-state.js';
import { RedisBudgets } from './redis/redis-budgets.js';
import { RedisLedger } from './redis/redis-ledger.js';
import { removeLeftoverTemporaries } from './state-file.js';
import { RedisBoard, RedisBus, RedisLeases } from './redis/redis-coordination.js';
import { RedisLink } from './redis/redis-link.js';
import { checkEvictionPolicy } from './redis/eviction-policy.js';
import type { RoundTripCounter } from './redis/round-trips.js';
import type { Board, Bus, Leases, StateHealth, StateReadiness } from './shared.js';
import type { Counter } from 'prom-client';
import type { SharedImages } from '../images/shared-images.js';
import type { LocalResultCache, ResultCache } from '../results/result-cache.js';
import type { SharedTier } from '../upstream/shared-tier.js';
import { RedisImages } from './redis/redis-images.js';
import { RedisResponseTier } from './redis/redis-response-tier.js';
import { RedisResultCache } from './redis/redis-result-cache.js';
import type { ApqStore, LocalApqStore } from '../persisted/apq-store.js';
import { RedisApqStore } from './redis/redis-apq-store.js';

export interface SharedState {
  readonly mode: 'single' | 'cluster';
  readonly replicaId: string;
  readonly ledger: Ledger;
  readonly budgets: Budgets;
  readonly bus: Bus;
  readonly leases: Leases;
  readonly board: Board;
  /** The cluster's Redis connection (cluster mode only). */
  readonly link: RedisLink | undefined;
  /** What this replica's own caches sit on: the cluster's shared tiers, or none alone. */
  readonly tiers: SharedTiers;
  health(): Promise<StateHealth>;
  /**
   * Ready once the allowance and budgets can be read: at once alone (the
   * ledger is loaded before the gateway listens); in a cluster, once the
   * shared count has been read from Redis. Redis going away later leaves the
   * replica ready (degraded, on its share): every replica shares that Redis,
   * so taking them out of the load balancer together would turn a degraded
   * cluster into an outage.
   */
  readiness(): StateReadiness;
  /** True while shared state falls back to local state (Redis away). */
  readonly degraded: boolean;
  /** Replicas seen alive at the last heartbeat (1 alone). */
  readonly memberCount: number;
  /** Writes what is pending, leaves the cluster, releases `DATA_DIR`. */
  close(): Promise<void>;
}

/** The shared layers under each replica's own caches; every member undefined (or the local layer itself) alone. */
export interface SharedTiers {
  /** Upstream answers, fresh and stale, and the cluster-wide single flight over them. */
  readonly responses: SharedTier | undefined;
  readonly images: SharedImages | undefined;
  /** The operation-result cache: `local` alone, `local` in front of Redis in a cluster. */
  results(local: LocalResultCache, sharedHits: Pick<Counter, 'inc'>): ResultCache;
  /** Documents registered by automatic persisted queries: `local` alone, `local` in front of Redis in a cluster. */
  apq(local: LocalApqStore): ApqStore;
}

export interface SharedStateOptions {
  readonly config: Config;
  readonly logger: Logger;
  /** Who holds `DATA_DIR`, for the message a second process prints. */
  readonly purpose: string;
  /** Counts round trips to the cluster's Redis (cluster mode only). */
  readonly redisRoundTrips?: RoundTripCounter;
}

/**
 * @throws DataDirInUseError when another process holds DATA_DIR.
 * @throws StateFileError when a state file cannot be trusted.
 */
export async function openSharedState(options: SharedStateOptions): Promise<SharedState> {
  return options.config.cluster.redisUrl === undefined
    ? openSingleNode(options)
    : openClusterNode(options, options.config.cluster.redisUrl);
}

async function openSingleNode({ config, logger, purpose }: SharedStateOptions): Promise<SharedState> {
  const local = await openLocalState({
    dataDir: config.dataDir,
    plan: config.plan,
    clientKeys: config.access.clientKeys,
    logger,
    purpose,
  });
  const { replicaId } = config.cluster;
  return {
    mode: 'single',
    replicaId,
    ledger: local.ledger,
    budgets: local.budgets,
    bus: new LocalBus(),
    leases: new LocalLeases(replicaId),
    board: new LocalBoard(),
    link: undefined,
    tiers: { responses: undefined, images: undefined, results: (local) => local, apq: (local) => local },
    health: () => Promise.resolve({ status: 'ok', mode: 'single', replica: replicaId, reasons: [] }),
    readiness: () => ({ ready: true, reasons: [] }),
    degraded: false,
    memberCount: 1,
    close: () => local.close(),
  };
}

/** The allowance and budgets live in Redis; `DATA_DIR` keeps only what is this replica's own (the image store). */
async function openClusterNode(
  { config, logger, purpose, redisRoundTrips }: SharedStateOptions,
  redisUrl: string,
): Promise<SharedState> {
  const { keyPrefix, replicaId } = config.cluster;
  const lock = lockDataDir(config.dataDir, purpose);
  const clusterLogger = logger.child({ component: 'cluster', replica: replicaId });
  let link: RedisLink;
  let ledger: RedisLedger;
  let bus: RedisBus;
  try {
    await removeLeftoverTemporaries(config.dataDir);
    link = await RedisLink.open({
      url: redisUrl,
      keyPrefix,
      replicaId,
      logger: clusterLogger,
      roundTrips: redisRoundTrips,
    });
    bus = new RedisBus(link);
    // One line when the server's policy could evict the counts, which carry no expiry (src/state/redis/eviction-policy.ts).
    if (link.up) await checkEvictionPolicy(link.command, clusterLogger);
    // A request may be in flight until its operation's deadline; a reservation older than that (and a margin) belonged to a replica that died.
    ledger = await RedisLedger.open({
      plan: config.plan,
      link,
      bus,
      logger: clusterLogger,
      inFlightExpiryMs: config.timeouts.operationMs + 30_000,
    });
  } catch (error) {
    lock.release();
    throw error;
  }
  const leases = new RedisLeases(link);
  return {
    mode: 'cluster',
    replicaId,
    ledger,
    budgets: new RedisBudgets({ keys: config.access.clientKeys, link, bus, logger: clusterLogger }),
    bus,
    leases,
    board: new RedisBoard(link),
    link,
    tiers: {
      responses: new RedisResponseTier({ link, bus, maxStaleMs: config.maxStaleSeconds * 1000 }),
      images: new RedisImages({ link }),
      results: (local, sharedHits) =>
        new RedisResultCache({ local, link, logger: logger.child({ component: 'result-cache' }), sharedHits }),
      apq: (local) => new RedisApqStore({ local, link, logger: logger.child({ component: 'apq' }) }),
    },
    get degraded() {
      return !link.up;
    },
    get memberCount() {
      return Math.max(1, link.members.length);
    },
    readiness: () =>
      ledger.hasSharedView
        ? { ready: true, reasons: [] }
        : {
            ready: false,
            reasons: [`the shared allowance has not been read from Redis yet (${link.downReason ?? 'reading'})`],
          },
    health: async () => {
      const reason = link.downReason;
      return {
        status: reason === undefined ? 'ok' : 'degraded',
        mode: 'cluster',
        replica: replicaId,
        reasons: reason === undefined ? [] : [reason],
        members: [...link.members].sort(),
        recentMembers: link.recentMembers,
        leases: await leases.all(),
      };
    },
    close: async () => {
      try {
        ledger.close();
        await link.close();
      } finally {
        lock.release();
      }
    },
  };
}
