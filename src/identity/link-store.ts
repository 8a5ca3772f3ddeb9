/**
 * Where learned counterparts are kept, so that finding one costs its search
 * requests once, ever: `DATA_DIR/counterparts.json` alone
 * (src/state/local/local-link-store.ts), the cluster's Redis in a cluster
 * (src/state/redis/redis-link-store.ts). src/state/open-state.ts opens one.
 */
import type { Finding } from './entity-ref.js';

export interface LinkStore {
  /** The finding kept under `key` (entity-ref.ts's findingKey), if any. */
  get(key: string): Promise<Finding | undefined>;
  /** Keeps a finding; a store that cannot write keeps it in memory and says so in the log, never fails the field. */
  put(key: string, finding: Finding): Promise<void>;
}

/** What a kept finding must look like to be believed (a file or a Redis value may be damaged or foreign). */
export function isFinding(value: unknown): value is Finding {
  if (typeof value !== 'object' || value === null) return false;
  const { learnedAt, counterparts } = value as Record<string, unknown>;
  return (
    typeof learnedAt === 'number' &&
    Array.isArray(counterparts) &&
    counterparts.every((c: unknown) => {
      if (typeof c !== 'object' || c === null) return false;
      const r = c as Record<string, unknown>;
      return (
        typeof r['version'] === 'string' &&
        typeof r['sport'] === 'string' &&
        typeof r['kind'] === 'string' &&
        typeof r['nativeId'] === 'string' &&
        typeof r['confidence'] === 'number' &&
        typeof r['evidence'] === 'string' &&
        typeof r['status'] === 'string'
      );
    })
  );
}

/**
 * How long a finding with no match is kept before its entity is looked for
 * again (a club may join a version later). A match is kept for good: it is
 * what the spec's IDs are, and IDs do not change (9.3).
 */
export const UNMATCHED_FINDING_MS = 7 * 24 * 3_600_000;

/** Whether a kept finding still answers at `now`. */
export function stillAnswers(finding: Finding, now: number): boolean {
  return finding.counterparts.some((c) => c.status === 'MATCH') || now - finding.learnedAt < UNMATCHED_FINDING_MS;
}
