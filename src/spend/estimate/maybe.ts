/**
 * Values the estimate walk (estimate.ts) has now or only later.
 *
 * Why: most steps of a walk answer at once (a free field's resolver, a
 * cost-table bound, a field with no sport check), and only a few wait (a
 * dry load, the sport catalogue). An `async` step per field, awaiting each
 * of these, paid an async frame and a microtask turn for every one of them,
 * per item of a known list too; on a cold gateway, where the estimate memo
 * cannot hit, that was paid on every operation. So each step returns its
 * value when it has it, and a promise only when something really waits.
 */
import type { Estimate } from '../resource-estimate.js';

/** A value now, or a promise of it. */
export type Maybe<T> = T | Promise<T>;

/** Whether `value` is still pending: any thenable, as graphql's execution tells one (a resolver may return any). */
export function isPending<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/**
 * `next(value)`: at once when `value` is there, when it settles otherwise.
 * Not named `then`: a module exporting `then` is itself a thenable to `await import()`.
 */
export function andThen<T, U>(value: T | PromiseLike<T>, next: (value: T) => Maybe<U>): Maybe<U> {
  return isPending(value) ? Promise.resolve(value).then(next) : next(value);
}

/**
 * The sum of `cost` over `items`, each one costed after the one before
 * (a field's cost may depend on what an earlier one counted): synchronous
 * until one has to wait, the rest then awaited in order.
 */
export function sumEach<T>(items: readonly T[], cost: (item: T) => Maybe<Estimate>): Maybe<Estimate> {
  const sum = { requests: 0, unanswerable: 0 };
  for (let i = 0; i < items.length; i++) {
    const next = cost(items[i] as T);
    if (isPending(next)) return sumRest(items, cost, i, next, sum);
    sum.requests += next.requests;
    sum.unanswerable += next.unanswerable;
  }
  return sum;
}

/** sumEach from item `i` on, whose cost `pending` is waiting. */
async function sumRest<T>(
  items: readonly T[],
  cost: (item: T) => Maybe<Estimate>,
  i: number,
  pending: PromiseLike<Estimate>,
  sum: { requests: number; unanswerable: number },
): Promise<Estimate> {
  let next: Maybe<Estimate> | PromiseLike<Estimate> = pending;
  for (let at = i; at < items.length; at++) {
    if (at > i) next = cost(items[at] as T);
    const estimate = isPending(next) ? await next : next;
    sum.requests += estimate.requests;
    sum.unanswerable += estimate.unanswerable;
  }
  return sum;
}
