/**
 * What counted upstream requests a piece of work may send: the value the
 * spend gate admits and charges, and the estimate of one upstream resource.
 * In the money room, under the cost table (estimate/cost-rule.ts), so the
 * gate, the live polls and the image chain can estimate without the
 * operation context the table reads.
 */
import type { UpstreamFetcher } from '../upstream/fetcher.js';
import type { Route } from '../upstream/routes/route.js';

/** Any route, whatever its parameters and payload. */
export type AnyRoute = Route<never, unknown>;

/** One upstream resource, named completely by a field's arguments. */
export interface Resource {
  readonly route: AnyRoute;
  readonly params: unknown;
}

/** Counted requests one resolution may send. */
export interface Estimate {
  requests: number;
  /** Of `requests`, those for which the cache holds no answer at all, not even a stale one. */
  unanswerable: number;
}

export const nothing: Estimate = { requests: 0, unanswerable: 0 };

export function resourceEstimate(
  fetcher: Pick<UpstreamFetcher, 'isCached' | 'canAnswer'>,
  { route, params }: Resource,
): Estimate {
  const typed = route as unknown as Route<unknown, unknown>;
  if (!typed.counted || fetcher.isCached(typed, params)) return nothing;
  return { requests: 1, unanswerable: fetcher.canAnswer(typed, params) ? 0 : 1 };
}
