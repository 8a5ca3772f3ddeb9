/**
 * The Redis `maxmemory-policy` the cluster needs, checked once at start.
 *
 * The budgets and the allowance (redis-budgets.ts, redis-ledger.ts) carry
 * no expiry, and every cached entry (responses, results, APQ, images) does.
 * Under a `volatile-*` policy Redis full of cache evicts cache only; under
 * an `allkeys-*` policy it may evict the counts, and a client would spend
 * its budget again (a replica that notices restores what it last saw, but
 * one that restarted since has nothing to restore). Under `noeviction` a
 * full Redis refuses every write, the counts' included, and the replicas
 * spend from their degraded shares until memory is freed.
 *
 * `CONFIG` is often disabled on managed Redis: then the policy is unknown,
 * which is said once, at info level.
 */
import type { Logger } from 'pino';
import type { Redis } from 'ioredis';

/** What start-up concluded about the server's policy. */
export type EvictionVerdict =
  | { readonly kind: 'safe'; readonly policy: string }
  | { readonly kind: 'evicts-counts'; readonly policy: string }
  | { readonly kind: 'refuses-writes'; readonly policy: string; readonly maxmemory: number }
  | { readonly kind: 'unknown'; readonly reason: string };

/** The policy's effect on keys without an expiry, given `maxmemory` (0 = no limit: nothing is evicted or refused). */
export function judgePolicy(policy: string, maxmemory: number): EvictionVerdict {
  if (maxmemory === 0) return { kind: 'safe', policy };
  if (policy.startsWith('allkeys-')) return { kind: 'evicts-counts', policy };
  if (policy === 'noeviction') return { kind: 'refuses-writes', policy, maxmemory };
  return { kind: 'safe', policy };
}

/** Reads the policy with `CONFIG GET` (one pattern: Redis 6 takes no more) and logs one line when it is not safe. */
export async function checkEvictionPolicy(command: Redis, logger: Logger): Promise<EvictionVerdict> {
  let verdict: EvictionVerdict;
  try {
    const reply = (await command.config('GET', 'maxmemory*')) as unknown;
    const pairs = Array.isArray(reply) ? reply.map(String) : [];
    const value = (name: string): string | undefined => {
      const at = pairs.indexOf(name);
      return at >= 0 && at % 2 === 0 ? pairs[at + 1] : undefined;
    };
    const policy = value('maxmemory-policy');
    if (policy === undefined) verdict = { kind: 'unknown', reason: 'CONFIG GET did not name maxmemory-policy' };
    else verdict = judgePolicy(policy, Number(value('maxmemory') ?? 0) || 0);
  } catch (error) {
    verdict = { kind: 'unknown', reason: error instanceof Error ? error.message : String(error) };
  }
  switch (verdict.kind) {
    case 'evicts-counts':
      logger.warn(
        { policy: verdict.policy },
        'Redis maxmemory-policy may evict the shared client budgets and allowance: set maxmemory-policy to volatile-lru (or another volatile-* policy)',
      );
      break;
    case 'refuses-writes':
      logger.warn(
        { policy: verdict.policy, maxmemory: verdict.maxmemory },
        'Redis maxmemory-policy noeviction with maxmemory: once cached entries fill Redis, the shared counts cannot be written; set maxmemory-policy to volatile-lru',
      );
      break;
    case 'unknown':
      logger.info(
        { reason: verdict.reason },
        'Redis maxmemory-policy could not be read (CONFIG disabled?): it must be a volatile-* policy or maxmemory unset',
      );
      break;
    case 'safe':
      break;
  }
  return verdict;
}
