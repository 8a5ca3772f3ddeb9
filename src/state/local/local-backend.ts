/**
 * The state of a gateway alone: the ledger and client budgets on
 * `DATA_DIR/quota.json` (local-state.ts), the response cache's entries in
 * memory or the cache file, and, for everything a cluster would share, the
 * local stand-ins: a bus, leases and board inside the process
 * (coordination.ts), no shared images or response tier, and feeds and polls
 * of this replica's own (src/live/sharing.ts).
 */
import { noSharedImages } from '../../images/shared-images.js';
import { sharingAlone } from '../../live/sharing.js';
import type { CacheEntries } from '../../upstream/cache-entries.js';
import { tierAlone } from '../../upstream/shared-tier.js';
import { cacheEntriesFor } from '../cache-entries-for.js';
import type { StateBackend, StateOptions } from '../state-backend.js';
import { LocalApqStore } from './local-apq-store.js';
import { LocalLinkStore } from './local-link-store.js';
import { LocalResultCache } from './local-result-cache.js';
import { LocalBoard, LocalBus, LocalLeases } from './coordination.js';
import { openLocalState } from './local-state.js';

/**
 * @throws DataDirInUseError when another process holds DATA_DIR.
 * @throws StateFileError when a state file cannot be trusted.
 */
export async function openLocalBackend({ config, logger, purpose }: StateOptions): Promise<StateBackend> {
  const local = await openLocalState({
    dataDir: config.dataDir,
    plan: config.plan,
    clientKeys: config.access.clientKeys,
    logger,
    purpose,
  });
  let entries: CacheEntries;
  let links: LocalLinkStore;
  try {
    // After the DATA_DIR lock: the cache file is a state file, one process at a time.
    entries = await cacheEntriesFor(config, logger);
    links = await LocalLinkStore.open(config.dataDir, logger.child({ component: 'counterparts' }));
  } catch (error) {
    await local.close();
    throw error;
  }
  const { replicaId } = config.cluster;
  return {
    mode: 'single',
    replicaId,
    ledger: local.ledger,
    budgets: local.budgets,
    bus: new LocalBus(),
    leases: new LocalLeases(replicaId),
    board: new LocalBoard(),
    responses: { entries, tier: tierAlone },
    images: noSharedImages,
    results: (maxBytes) => new LocalResultCache(maxBytes),
    apq: (bounds) => new LocalApqStore(bounds),
    links,
    live: sharingAlone,
    health: () => Promise.resolve({ status: 'ok', mode: 'single', replica: replicaId, reasons: [] }),
    readiness: () => ({ ready: true, reasons: [] }),
    degraded: false,
    memberCount: 1,
    close: async () => {
      // Before the state: the DATA_DIR lock is released with it.
      await links.close();
      await local.close();
    },
  };
}
