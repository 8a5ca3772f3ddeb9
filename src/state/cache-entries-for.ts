/**
 * Chooses where the upstream response cache keeps its entries
 * (`CACHE_STORE`): memory only, or memory over `DATA_DIR/upstream-cache.mdb`.
 * Both state backends (src/state/open-state.ts) call it, after the DATA_DIR
 * lock is taken (one process per file).
 *
 * In a cluster the file is this replica's own layer, in front of Redis
 * (docs/cluster.md): it answers first because a fresh copy here is as
 * fresh as Redis's by the same TTL, costs no round trip, and still answers
 * while Redis is away.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { MemoryEntries, type CacheEntries } from '../upstream/cache-entries.js';
import { DiskEntries } from '../upstream/disk-entries.js';
import { openCacheStoreFile } from './cache-store-file.js';

/** @throws StateFileError when the cache file cannot be read or written at all. */
export async function cacheEntriesFor(config: Config, logger: Logger): Promise<CacheEntries> {
  if (config.cacheStore === 'memory') return new MemoryEntries(config.cacheMaxBytes);
  const store = await openCacheStoreFile(config.dataDir, logger);
  return DiskEntries.open({
    store,
    memoryBytes: config.cacheMaxBytes,
    diskBytes: config.cacheDiskMaxBytes,
    maxStaleMs: config.maxStaleSeconds * 1000,
    logger: logger.child({ component: 'upstream-cache-file' }),
  });
}
