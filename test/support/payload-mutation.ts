/**
 * fast-check mutations of a real upstream JSON payload: fields removed, set to
 * null or to a value of the wrong type, the whole body replaced, and one
 * array grown huge (by the sandbox, see `grow` in sandbox/faults.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';

import { valueAt, type JsonPath } from '../../src/upstream/degraded-parts.js';

export type { JsonPath };

export type Mutation =
  | { readonly op: 'delete'; readonly path: JsonPath }
  | { readonly op: 'set'; readonly path: JsonPath; readonly value: unknown };

export interface MutatedPayload {
  readonly body: unknown;
  readonly mutations: readonly Mutation[];
  readonly grow?: { path: Array<string | number>; length: number };
}

/** At most this many paths are candidates per payload (breadth first: the top of the payload first). */
const MAX_PATHS = 400;

/** Every path into `value`, root (`[]`) first, breadth first, capped. */
export function pathsOf(value: unknown): JsonPath[] {
  const paths: JsonPath[] = [];
  const queue: Array<{ path: JsonPath; value: unknown }> = [{ path: [], value }];
  while (queue.length > 0 && paths.length < MAX_PATHS) {
    const next = queue.shift()!;
    paths.push(next.path);
    if (Array.isArray(next.value)) {
      // Two entries are enough: the rest are the same shape.
      next.value.slice(0, 2).forEach((item, index) => {
        queue.push({ path: [...next.path, index], value: item });
      });
    } else if (typeof next.value === 'object' && next.value !== null) {
      for (const [key, item] of Object.entries(next.value)) queue.push({ path: [...next.path, key], value: item });
    }
  }
  return paths;
}

const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom('', 'ü🏒', '2026-99-99', '-1', 'NaN') },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 1e308, -1e308, 2 ** 53, 0.5) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constantFrom<unknown>({}, [], [null], [[]], { id: {} }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

export function mutationArbitrary(payload: unknown): fc.Arbitrary<MutatedPayload> {
  const paths = pathsOf(payload);
  const arrays = paths.filter((path) => {
    const value = valueAt(payload, path);
    return Array.isArray(value) && value.length > 0;
  });
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.constantFrom(...paths).map((path): Mutation => ({ op: 'delete', path })),
    fc.tuple(fc.constantFrom(...paths), wrongValue).map(([path, value]): Mutation => ({ op: 'set', path, value })),
  );
  const grow =
    arrays.length === 0
      ? fc.constant(undefined)
      : // One run in five: a grown run executes the wide query over thousands of copies of the same entries, the
        // cost of ten plain runs or more (most of a fuzz file's time on a loaded machine), for what its first run shows.
        fc.oneof(
          { weight: 4, arbitrary: fc.constant(undefined) },
          {
            weight: 1,
            arbitrary: fc.record({ path: fc.constantFrom(...arrays), length: fc.constantFrom(1_000, 2_500) }),
          },
        );
  return fc.tuple(fc.array(mutation, { minLength: 0, maxLength: 4 }), grow).map(([mutations, growSpec]) => {
    const body = applyMutations(payload, mutations);
    const stillArray =
      growSpec !== undefined &&
      Array.isArray(valueAt(body, growSpec.path)) &&
      (valueAt(body, growSpec.path) as unknown[]).length > 0;
    return {
      body,
      mutations,
      ...(stillArray && growSpec !== undefined ? { grow: { path: [...growSpec.path], length: growSpec.length } } : {}),
    };
  });
}

/** A mutated copy; a mutation whose path an earlier one removed does nothing. */
export function applyMutations(payload: unknown, mutations: readonly Mutation[]): unknown {
  let root: unknown = structuredClone(payload);
  for (const mutation of mutations) {
    if (mutation.path.length === 0) {
      root = mutation.op === 'delete' ? {} : mutation.value;
      continue;
    }
    const parent = valueAt(root, mutation.path.slice(0, -1));
    if (typeof parent !== 'object' || parent === null) continue;
    const key = mutation.path[mutation.path.length - 1]!;
    if (mutation.op === 'set') (parent as Record<string | number, unknown>)[key] = mutation.value;
    else if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
    else delete (parent as Record<string | number, unknown>)[key];
  }
  return root;
}

/** A value of another kind than `value`, which no check of `value`'s kind accepts. */
function otherKind(value: unknown): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? 7 : {};
}

/**
 * One part of the payload (any present value but the root) made malformed:
 * replaced by a value of another kind (issue 13, item 3: tolerant parsing).
 */
export function malformedPartArbitrary(payload: unknown): fc.Arbitrary<MutatedPayload> {
  const parts = pathsOf(payload).filter(
    (path) => path.length > 0 && valueAt(payload, path) !== null && valueAt(payload, path) !== undefined,
  );
  return fc.constantFrom(...parts).map((path) => {
    const mutations: Mutation[] = [{ op: 'set', path, value: otherKind(valueAt(payload, path)) }];
    return { body: applyMutations(payload, mutations), mutations };
  });
}

type AnswerPath = ReadonlyArray<string | number>;

const under = (path: AnswerPath, prefix: AnswerPath): boolean =>
  prefix.length <= path.length && prefix.every((key, index) => path[index] === key);

/**
 * Where `after` differs from `before`, outside the given error paths and the
 * `raw` fields (which carry every part as sent). A field that passes the
 * mutated value on as it was sent (a JSON field) is not a difference either.
 */
export function answerOutside(
  before: unknown,
  after: unknown,
  errorPaths: readonly AnswerPath[],
  mutation: Mutation | undefined,
): string[] {
  const differences: string[] = [];
  const sent = mutation?.op === 'set' ? mutation.value : undefined;
  const walk = (a: unknown, b: unknown, path: AnswerPath): void => {
    if (errorPaths.some((errorPath) => under(path, errorPath))) return;
    if (path[path.length - 1] === 'raw' || isDeepStrictEqual(a, b)) return;
    if (sent !== undefined && isDeepStrictEqual(b, sent)) return;
    if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      a.forEach((item, index) => {
        walk(item, b[index], [...path, index]);
      });
      return;
    }
    if (
      typeof a === 'object' &&
      a !== null &&
      typeof b === 'object' &&
      b !== null &&
      !Array.isArray(a) &&
      !Array.isArray(b)
    ) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
        walk((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], [...path, key]);
      return;
    }
    differences.push(`${path.join('.')}: ${JSON.stringify(a)?.slice(0, 200)} -> ${JSON.stringify(b)?.slice(0, 200)}`);
  };
  walk(before, after, []);
  return differences;
}
