/**
 * What serving a stored result does, wherever it is served from (the yoga
 * plugin, src/plugins/use-result-cache.ts, and the HTTP fast path,
 * src/transport/http/result-cache-hits.ts): count each resource it was built from as a
 * cache hit, and report `extensions.cost` in the trace plugin's shape —
 * estimated 0, no upstream request, one cache hit per resource load (what
 * executing again over the fresh cache would report), the allowance and the
 * client's budget as they are — and `extensions.resources` as that execution
 * would too: each counted resource from `cache`, as old as its upstream
 * answer is now. One function so both answers stay identical.
 */
import type { ResourceAnswer } from '../loaders/upstream-loader.js';
import type { Budgets } from '../spend/client-budgets.js';
import { costExtension, type CostExtension } from '../spend/estimate/cost-extension.js';
import type { GatewayMetrics } from '../metrics.js';
import type { Ledger } from '../spend/ledger.js';
import type { ResponseCache } from '../upstream/cache.js';
import type { StoredAnswer, StoredResult } from './result-cache.js';
import { splicedTail } from './splice.js';

export interface HitServices {
  readonly ledger: Pick<Ledger, 'snapshot'>;
  readonly metrics: Pick<GatewayMetrics, 'cacheHits'>;
  readonly budgets: Pick<Budgets, 'remaining'>;
  /** The upstream cache's clock: a resource's age is counted on it, as an executed answer's is. */
  readonly upstream: Pick<ResponseCache, 'ageSince'>;
}

/** A hit's `extensions`: its cost, and its counted resources' ages when the result kept them. */
export interface HitExtensions {
  readonly cost: CostExtension;
  readonly resources?: readonly ResourceAnswer[];
}

/** Records the hit in the cache-hit metric and returns its `extensions`. */
export function recordHit(hit: StoredResult, services: HitServices, clientName: string | undefined): HitExtensions {
  countHit(hit, services.metrics);
  return hitExtensions(hit, services, clientName);
}

/**
 * Records the hit and returns the end of its body (`splicedTail` of its
 * `extensions`), for the fast path that writes bytes. The same result hit
 * again while the allowance, the client's budget and every resource's age in
 * whole seconds read as before ends in the same bytes: those are kept
 * beside the result and reused, rather than building and stringifying the
 * same extensions on every hit of a busy second.
 */
export function recordHitTail(hit: StoredResult, services: HitServices, clientName: string | undefined): string {
  countHit(hit, services.metrics);
  const remaining = services.ledger.snapshot().remaining;
  const budget = services.budgets.remaining(clientName);
  const kept = tails.get(hit);
  if (
    kept !== undefined &&
    kept.remaining === remaining &&
    kept.budget === budget &&
    sameAges(kept.ages, hit.answers, services.upstream)
  )
    return kept.tail;
  const extensions = hitExtensions(hit, services, clientName);
  const tail = splicedTail({ ...extensions });
  tails.set(hit, {
    remaining,
    budget,
    ages: extensions.resources?.map((resource) => resource.ageSeconds) ?? [],
    tail,
  });
  return tail;
}

interface KeptTail {
  readonly remaining: number;
  readonly budget: number | undefined;
  readonly ages: readonly number[];
  readonly tail: string;
}

/** Weak: an evicted result takes its tail with it. */
const tails = new WeakMap<StoredResult, KeptTail>();

function countHit(hit: StoredResult, metrics: HitServices['metrics']): void {
  for (const route of hit.routes) metrics.cacheHits.inc({ route });
}

const ageSecondsOf = (upstream: HitServices['upstream'], storedAt: number): number =>
  Math.floor(upstream.ageSince(storedAt) / 1000);

function sameAges(
  ages: readonly number[],
  answers: StoredResult['answers'],
  upstream: HitServices['upstream'],
): boolean {
  const count = answers?.length ?? 0;
  if (ages.length !== count) return false;
  for (let i = 0; i < count; i += 1) {
    if (ages[i] !== ageSecondsOf(upstream, (answers as readonly StoredAnswer[])[i]!.storedAt)) return false;
  }
  return true;
}

function hitExtensions(
  hit: StoredResult,
  { ledger, budgets, upstream }: HitServices,
  clientName: string | undefined,
): HitExtensions {
  const cost = costExtension(
    { estimated: 0, upstreamRequests: 0, cacheHits: hit.routes.length },
    ledger,
    budgets.remaining(clientName),
  );
  if (hit.answers === undefined || hit.answers.length === 0) return { cost };
  return {
    cost,
    resources: hit.answers.map(({ route, storedAt }) => ({
      route,
      source: 'cache',
      ageSeconds: ageSecondsOf(upstream, storedAt),
    })),
  };
}
