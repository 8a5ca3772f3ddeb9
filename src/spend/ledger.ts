/**
 * What every door and the upstream client need of the daily allowance,
 * whoever keeps it: the single-node ledger on `DATA_DIR/quota.json`
 * (src/state/local/local-ledger.ts) or the cluster's in Redis (src/state/redis/redis-ledger.ts).
 * src/state/open-state.ts chooses one at start-up; nothing else knows which.
 */
import type { Plan } from '../upstream/assumptions.js';

/** GraphQL's `Int` is 32-bit: no figure the ledger reports may pass it. */
export const MAX_ALLOWANCE = 2_147_483_647;

export interface QuotaSnapshot {
  plan: Plan;
  limit: number;
  used: number;
  remaining: number;
  /** Epoch ms of the next reset. */
  resetsAt: number;
}

export type HeaderSource = (name: string) => string | undefined;

export interface Reservation {
  /**
   * Resolves once the unit is really held (on disk, or granted by the
   * cluster): send the request only after it. Rejects with a coded
   * GatewayError when the unit could not be held; the reservation is then
   * already given back and nothing may be sent.
   */
  readonly durable: Promise<void>;
  /** The request reached the upstream: count it (or take the upstream's own count). */
  commit(headers?: HeaderSource): void;
  /** The request never left (connection refused): give the unit back. */
  release(): void;
}

export interface Ledger {
  readonly plan: Plan;
  snapshot(): QuotaSnapshot;
  /** Units neither spent nor held by requests in flight, as far as this replica knows now. */
  available(): number;
  /**
   * Holds one unit for a request about to be sent; send it once `durable` resolves.
   * @throws GatewayError QUOTA_EXHAUSTED when no unit is left; nothing is sent then.
   */
  reserve(context: { version: string; route: string }): Reservation;
  /** The upstream answered 429: nothing is left until `Retry-After` (or the daily reset). */
  markExhausted(retryAfterSeconds: number | undefined): void;
  onChange(listener: (snapshot: QuotaSnapshot) => void): () => void;
  /** Waits for the last state to be kept (disk or Redis). */
  flush(): Promise<void>;
}
