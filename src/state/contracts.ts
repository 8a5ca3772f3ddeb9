/**
 * The kinds of state a replica shares with the rest of its cluster, beside
 * the ledger (src/spend/ledger.ts) and the client budgets
 * (src/spend/client-budgets.ts), and what the state says of itself. Each
 * has a single-node implementation (src/state/local/coordination.ts) and a
 * Redis one (src/state/redis/redis-coordination.ts); the live services see
 * only these interfaces.
 */

/** Messages to every replica (the sender included). Delivery is at most once; a listener must survive a gap. */
export interface Bus {
  publish(channel: string, message: string): void;
  /** Returns the function that stops listening. */
  subscribe(channel: string, listener: (message: string) => void): () => void;
}

/**
 * Named leases: at most one replica holds a name at a time, for `ttlMs`
 * unless renewed. A holder that dies loses it when the time runs out.
 */
export interface Leases {
  /** Takes the lease when nobody holds it; true when this replica holds it now. */
  acquire(name: string, ttlMs: number): Promise<boolean>;
  /** Extends a lease this replica holds; false when it is no longer this replica's. */
  renew(name: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up if this replica holds it. */
  release(name: string): Promise<void>;
  /** Which replica holds `name`, if any. */
  holder(name: string): Promise<string | undefined>;
}

/** Small values every replica can read, each with its own expiry (the latest odds frame of a match). */
export interface Board {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
}

export type StateStatus = 'ok' | 'degraded';

/** What `/readyz` says about the shared state: can this replica take traffic yet. */
export interface StateReadiness {
  readonly ready: boolean;
  /** Why not (empty when ready). */
  readonly reasons: readonly string[];
}

/** What `/healthz` and the metrics say about the shared state. */
export interface StateHealth {
  readonly status: StateStatus;
  readonly mode: 'single' | 'cluster';
  readonly replica: string;
  /** Why the replica is degraded (empty when ok). */
  readonly reasons: readonly string[];
  /** Replicas seen alive (cluster mode). */
  readonly members?: readonly string[];
  /** Replicas seen alive lately, what a share of the allowance divides by while Redis is away (cluster mode). */
  readonly recentMembers?: readonly string[];
  /** Lease name -> holding replica (cluster mode). */
  readonly leases?: Readonly<Record<string, string>>;
}
