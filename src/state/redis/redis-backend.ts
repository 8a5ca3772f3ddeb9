/**
 * The state of a cluster member: the allowance, budgets, response tier,
 * images, results, APQ documents, bus, leases and board in the cluster's
 * Redis (this folder). `DATA_DIR` keeps only what is this replica's own: the
 * image store and the response cache file, each in front of Redis.
 */
import { clusterSharing } from '../../live/sharing.js';
import type { CacheEntries } from '../../upstream/cache-entries.js';
import { cacheEntriesFor } from '../cache-entries-for.js';
import { lockDataDir } from '../data-dir-lock.js';
import { LocalApqStore } from '../local/local-apq-store.js';
import { LocalResultCache } from '../local/local-result-cache.js';
import type { StateBackend, StateOptions } from '../state-backend.js';
import { removeLeftoverTemporaries } from '../state-file.js';
import { checkEvictionPolicy } from './eviction-policy.js';
import { RedisApqStore } from './redis-apq-store.js';
import { RedisBudgets } from './redis-budgets.js';
import { RedisBoard, RedisBus, RedisLeases } from './redis-coordination.js';
import { RedisImages } from './redis-images.js';
import { RedisLedger } from './redis-ledger.js';
import { RedisLink } from './redis-link.js';
import { RedisLinkStore } from './redis-link-store.js';
import { RedisResponseTier } from './redis-response-tier.js';
import { RedisResultCache } from './redis-result-cache.js';

/**
 * @throws DataDirInUseError when another process holds DATA_DIR.
 * @throws StateFileError when the cache file cannot be trusted.
 */
export async function openRedisBackend(
  { config, logger, purpose, redisRoundTrips }: StateOptions,
  redisUrl: string,
): Promise<StateBackend> {
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
  const close = async (): Promise<void> => {
    try {
      ledger.close();
      await link.close();
    } finally {
      lock.release();
    }
  };
  let entries: CacheEntries;
  try {
    // After the DATA_DIR lock: the cache file is a state file, one process at a time.
    entries = await cacheEntriesFor(config, logger);
  } catch (error) {
    await close();
    throw error;
  }
  const leases = new RedisLeases(link);
  const board = new RedisBoard(link);
  return {
    mode: 'cluster',
    replicaId,
    ledger,
    budgets: new RedisBudgets({ keys: config.access.clientKeys, link, bus, logger: clusterLogger }),
    bus,
    leases,
    board,
    responses: { entries, tier: new RedisResponseTier({ link, bus, maxStaleMs: config.maxStaleSeconds * 1000 }) },
    images: new RedisImages({ link }),
    results: (maxBytes, sharedHits) =>
      new RedisResultCache({
        local: new LocalResultCache(maxBytes),
        link: link,
        logger: logger.child({ component: 'result-cache' }),
        sharedHits,
      }),
    links: new RedisLinkStore(link, logger.child({ component: 'counterparts' })),
    apq: (bounds) =>
      new RedisApqStore({
        local: new LocalApqStore(bounds),
        link: link,
        logger: logger.child({ component: 'apq' }),
      }),
    live: clusterSharing({ replicaId, bus, leases, board, link, logger }),
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
    close,
  };
}
