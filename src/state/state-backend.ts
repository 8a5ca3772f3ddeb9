/**
 * Everything a gateway shares, in one object: with the other replicas of
 * its cluster (the Redis backend, src/state/redis/redis-backend.ts), or
 * with nobody (the local backend, src/state/local/local-backend.ts).
 * src/state/open-state.ts opens one; whatever receives it never asks which.
 */
import type { Logger } from 'pino';
import type { Counter } from 'prom-client';
import type { Config } from '../config.js';
import type { SharedImages } from '../images/shared-images.js';
import type { LiveSharing } from '../live/sharing.js';
import type { LinkStore } from '../identity/link-store.js';
import type { ApqBounds, ApqStore } from '../persisted/apq-store.js';
import type { ResultCache } from '../results/result-cache.js';
import type { Budgets } from '../spend/client-budgets.js';
import type { Ledger } from '../spend/ledger.js';
import type { CacheEntries } from '../upstream/cache-entries.js';
import type { SharedTier } from '../upstream/shared-tier.js';
import type { Board, Bus, Leases, StateHealth, StateReadiness } from './contracts.js';
import type { RoundTripCounter } from './redis/round-trips.js';

export interface StateBackend {
  readonly mode: 'single' | 'cluster';
  readonly replicaId: string;
  readonly ledger: Ledger;
  readonly budgets: Budgets;
  readonly bus: Bus;
  readonly leases: Leases;
  readonly board: Board;
  /** Upstream answers: this replica's own entries (memory, or the `CACHE_STORE` file) and the tier under them. */
  readonly responses: ResponseLayers;
  /** The images every replica shares, under this replica's own store. */
  readonly images: SharedImages;
  /** The operation-result cache: this replica's LRU of `maxBytes`, in front of Redis in a cluster. */
  results(maxBytes: number, sharedHits: Pick<Counter, 'inc'>): ResultCache;
  /** Documents registered by automatic persisted queries: this replica's store, in front of Redis in a cluster. */
  apq(bounds: ApqBounds): ApqStore;
  /** Learned cross-version counterparts: `DATA_DIR/counterparts.json` alone, Redis in a cluster (src/identity/). */
  readonly links: LinkStore;
  /** How the live feeds share upstream sockets and polls, ready for src/live/services.ts. */
  readonly live: LiveSharing;
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
  /** Writes what is pending, leaves the cluster, releases `DATA_DIR`. The response entries close with the cache. */
  close(): Promise<void>;
}

export interface ResponseLayers {
  /** This replica's own layer (src/upstream/cache-entries.ts). */
  readonly entries: CacheEntries;
  /** The layer under it, and the single flight over it (src/upstream/shared-tier.ts). */
  readonly tier: SharedTier;
}

export interface StateOptions {
  readonly config: Config;
  readonly logger: Logger;
  /** Who holds `DATA_DIR`, for the message a second process prints. */
  readonly purpose: string;
  /** Counts round trips to the cluster's Redis (cluster mode only). */
  readonly redisRoundTrips?: RoundTripCounter;
}
