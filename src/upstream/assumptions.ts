/**
 * What the spec leaves unshown, in one place (DESIGN.md, "Upstream assumptions").
 *
 * The gateway and the embedded sandbox both read these, so that when the real
 * service's answer is known it replaces a value here without touching code.
 * Parameter names that the spec leaves unshown are kept in the route modules
 * (`routes/v1.ts`) beside the path they belong to.
 */
export const upstreamAssumptions = {
  /** Status the upstream sends for a request with no `x-api-key`. */
  missingKeyStatus: 401,
  /** Status the upstream sends for an unknown or revoked key. */
  invalidKeyStatus: 403,
  /** Status when the daily allowance is spent; `Retry-After` holds the seconds to the reset. */
  quotaExhaustedStatus: 429,
  /** Rate-limit header names, read from every counted response that carries them. */
  rateLimitHeaders: {
    limit: 'x-ratelimit-requests-limit',
    remaining: 'x-ratelimit-requests-remaining',
    /** Seconds until the allowance resets. */
    reset: 'x-ratelimit-requests-reset',
  },
  /** The daily allowance resets at this hour, UTC. */
  allowanceResetHourUtc: 0,
  /** Header carrying the key on every authenticated route (spec section 5). */
  apiKeyHeader: 'x-api-key',
} as const;

/** The plans of spec section 5.4: they differ only by daily allowance. */
export const planAllowances = {
  free: 100,
  pro: 7_500,
  ultra: 75_000,
  mega: 150_000,
} as const;

export type Plan = keyof typeof planAllowances;

export function isPlan(value: string): value is Plan {
  return Object.hasOwn(planAllowances, value);
}

/** The plan with the largest daily allowance. */
export const largestPlan: Plan = (Object.keys(planAllowances) as Plan[]).reduce((best, plan) =>
  planAllowances[plan] > planAllowances[best] ? plan : best,
);

/**
 * The plan when `SPORTS_API_PLAN` is unset: against a real upstream the
 * smallest (`free`: never assume an allowance that was not bought); against
 * the sandbox the largest, since its allowance is make-believe and a small
 * one only traps whoever explores offline (it is kept in `DATA_DIR`, so a
 * session of wrong IDs would still be spent the next day).
 */
export function defaultPlan(upstream: 'sandbox' | 'real'): Plan {
  return upstream === 'sandbox' ? largestPlan : 'free';
}

/** The nearest whole second. */
export function wholeSecond(ms: number): number {
  return Math.round(ms / 1000) * 1000;
}

/** How far a reset stated in whole seconds may land from the daily reset and still be it. */
const DAILY_RESET_SNAP_MS = 2_000;

/**
 * When a reset the upstream states in whole seconds from its answer
 * (`Retry-After`, the reset header) happens. The seconds are rounded and
 * `now` is the gateway's, so `now + seconds` lands up to a second or so off
 * the true instant, with `now`'s milliseconds: `resetsAt` would read
 * `00:00:00.347Z` one time and `00:00:01.012Z` the next. Within that error
 * of the daily reset, it is the daily reset; otherwise the nearest second.
 */
export function resetAfterSeconds(now: number, seconds: number): number {
  const at = now + seconds * 1000;
  const daily = nextResetAt(now);
  return Math.abs(at - daily) <= DAILY_RESET_SNAP_MS ? daily : wholeSecond(at);
}

/** The next daily reset after `now` (00:00 UTC by assumption). */
export function nextResetAt(now: number): number {
  const d = new Date(now);
  const reset = Date.UTC(
    d.getUTCFullYear(),
    d.getUTCMonth(),
    d.getUTCDate(),
    upstreamAssumptions.allowanceResetHourUtc,
  );
  return reset > now ? reset : reset + 24 * 60 * 60 * 1000;
}
