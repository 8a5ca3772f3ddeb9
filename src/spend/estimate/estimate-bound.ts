/**
 * The promise `extensions.cost.estimated` makes a client, checked on every
 * operation that runs when a file is named in SPORTS_GRAPH_ESTIMATE_CHECK_FILE
 * (the test suite names one per test file: test/support/estimate-bound.ts,
 * which fails the file when a line was written). The estimate is at least
 * the counted requests the operation needed, and at most 1.5 times them
 * plus 2: loose enough for lists whose length is only known as a bound,
 * tight enough that a natural query is not refused for a cost it never has.
 *
 * "Needed" is what the operation paid plus the counted requests it joined
 * while another operation had them in flight (sharing made them free here,
 * but the estimate could not have known), plus those that failed before
 * they left (the allowance spent, a cooldown). A request sent twice for one
 * resource (a 502 retried once) is still one resource: retries are not
 * part of the estimate, so they are left out of the comparison.
 */
import { appendFileSync } from 'node:fs';

export const ESTIMATE_CHECK_ENV = 'SPORTS_GRAPH_ESTIMATE_CHECK_FILE';

/**
 * `lower`: only an estimate below what was needed is recorded. For tests that
 * feed the gateway broken upstream payloads on purpose: the estimate walks
 * what the cache holds, a broken part sends it back to the cost table's
 * bound, which may be above what the failing fields then needed, never below.
 */
export const ESTIMATE_CHECK_SIDE_ENV = 'SPORTS_GRAPH_ESTIMATE_CHECK_SIDE';

export function estimateWithinBound(estimated: number, needed: number, side: 'both' | 'lower' = 'both'): boolean {
  return estimated >= needed && (side === 'lower' || estimated <= 1.5 * needed + 2);
}

export interface EstimateSample {
  readonly estimated: number;
  readonly needed: number;
  readonly query: string | undefined;
}

/** A recorder of samples outside the bound; undefined (no check) when the variable is unset. */
export function estimateBoundRecorder(
  env: NodeJS.ProcessEnv = process.env,
): ((sample: EstimateSample) => void) | undefined {
  const file = env[ESTIMATE_CHECK_ENV];
  if (file === undefined || file === '') return undefined;
  const side = env[ESTIMATE_CHECK_SIDE_ENV] === 'lower' ? 'lower' : 'both';
  return (sample) => {
    if (estimateWithinBound(sample.estimated, sample.needed, side)) return;
    // Synchronous and test-only: the line must be on disk before the test file's last hook reads it.
    appendFileSync(file, `${JSON.stringify(sample)}\n`);
  };
}
