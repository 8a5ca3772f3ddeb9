/**
 * Small combinators for a route's `accepts(body)`: the payload shape the
 * resolvers rely on, checked once in the fetcher. Extra fields are always
 * allowed: the upstream may add to its payloads at any time.
 *
 * Strict identity, tolerant rest (issue 13, item 3): a field checked plainly
 * (`id: int`) is one the gateway depends on, and its failure fails the
 * nearest enclosing optional part, or the whole payload when there is none
 * (one coded UPSTREAM_INVALID_RESPONSE instead of a TypeError deep inside a
 * resolver). A part wrapped in `opt` is optional: absent or null is fine, and
 * while a payload is inspected (`inspectPayload`) a present part that fails
 * its check is recorded as a drop instead of failing its parent, so that one
 * odd part costs that part only. Outside an inspection `opt` stays strict.
 */
import { isObject } from './route.js';

/** Where a value sits: the object or array holding it, and its key there. */
export interface Site {
  readonly owner: object;
  readonly key: string | number;
}

/**
 * `owner` and `key` (where the value sits) are given by the combinators that
 * descend (obj, arrayOf, recordOf); a check may ignore them. They travel as
 * two arguments, not as a Site: a Site is built only for a drop, and a
 * payload check visits every field of every payload an operation reads.
 */
export type Check = (value: unknown, owner?: object, key?: string | number) => boolean;

/** The drops of the inspection under way; undefined outside one (checks are synchronous). */
let collecting: Site[] | undefined;

export const str: Check = (value) => typeof value === 'string';
/** A finite number (JSON has no NaN or Infinity, but a wrong value may still overflow to one). */
export const num: Check = (value) => typeof value === 'number' && Number.isFinite(value);
export const int: Check = (value) => Number.isSafeInteger(value);
/** A timestamp string the `DateTime` scalar can serialize. */
export const date: Check = (value) => typeof value === 'string' && !Number.isNaN(Date.parse(value));
/** Largest |epoch ms| a JavaScript Date holds. */
const MAX_DATE_MS = 8.64e15;
/** Epoch seconds (V2 `startTimestamp`) that make a valid Date. */
export const epochSeconds: Check = (value) => num(value) && Math.abs(value as number) * 1000 <= MAX_DATE_MS;
/** Epoch milliseconds that make a valid Date. */
export const epochMs: Check = (value) => num(value) && Math.abs(value as number) <= MAX_DATE_MS;
export const bool: Check = (value) => typeof value === 'boolean';
/** Anything, the field may even be absent: for what is kept only as `raw`. */
export const any: Check = () => true;

/**
 * Runs `check` keeping its drops only when it passes, so a failed part (or a
 * failed `oneOf` branch) leaves none: the drops it recorded are the tail of
 * the list after `mark`, cut off again on failure (no list per trial).
 */
function trial(check: Check, value: unknown, owner: object | undefined, key: string | number | undefined): boolean {
  const drops = collecting;
  if (drops === undefined) return check(value, owner, key);
  const mark = drops.length;
  const passed = check(value, owner, key);
  if (!passed) drops.length = mark;
  return passed;
}

/** Checks that can drop the part they are given (an `opt`, or a combinator holding one). */
const dropping = new WeakSet<Check>();
/** Every object key some `obj` shape gives a dropping check: the only names a dropped part can have on an object. */
const droppableKeys = new Set<string>();

/**
 * The object keys a payload check may drop (filled as route modules define
 * their shapes, at import). src/model/degraded-fields.ts wraps a field that
 * reads its parent's property of the same name only when the name is here:
 * every other field keeps no resolver, which graphql-jit compiles to a plain
 * property read.
 */
export function droppableKeyNames(): ReadonlySet<string> {
  return droppableKeys;
}

/** `combined` drops a part when one of `checks` does (the site passes through). */
function dropsWhenAny(combined: Check, checks: readonly Check[]): Check {
  if (checks.some((check) => dropping.has(check))) dropping.add(combined);
  return combined;
}

/** An optional part: absent or null is fine; present and malformed is dropped (during an inspection) or refused. */
export function opt(check: Check): Check {
  const optional: Check = (value, owner, key) => {
    if (value === undefined || value === null) return true;
    if (collecting === undefined || owner === undefined || key === undefined) return check(value, owner, key);
    if (!trial(check, value, owner, key)) collecting.push({ owner, key });
    return true;
  };
  dropping.add(optional);
  return optional;
}

/**
 * Absent or null is fine; present means `check` must hold, even during an
 * inspection: identity a rule depends on (a sport's slug on a version says
 * which routes exist), never dropped as an optional part.
 */
export function nullable(check: Check): Check {
  return dropsWhenAny(
    (value, owner, key) => value === undefined || value === null || check(value, owner, key),
    [check],
  );
}

export function arrayOf(check: Check): Check {
  return (value) => {
    if (!Array.isArray(value)) return false;
    for (let index = 0; index < value.length; index++) if (!check(value[index], value, index)) return false;
    return true;
  };
}

/** An object whose listed fields pass their checks (other fields are not looked at). */
export function obj(fields: Readonly<Record<string, Check>>): Check {
  const entries = Object.entries(fields);
  for (const [key, check] of entries) if (dropping.has(check)) droppableKeys.add(key);
  const keys = entries.map(([key]) => key);
  const checks = entries.map(([, check]) => check);
  return (value) => {
    if (!isObject(value)) return false;
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!;
      if (!checks[index]!(value[key], value, key)) return false;
    }
    return true;
  };
}

/** An object whose every value passes `check` (maps keyed by ID). */
export function recordOf(check: Check): Check {
  return (value) => {
    if (!isObject(value)) return false;
    for (const key of Object.keys(value)) if (!check(value[key], value, key)) return false;
    return true;
  };
}

export function oneOf(...checks: Check[]): Check {
  return dropsWhenAny((value, owner, key) => {
    for (const check of checks) if (trial(check, value, owner, key)) return true;
    return false;
  }, checks);
}

/** Every check holds: a payload piece that extends another (`V1GameDetail extends V1WorldCupMatch`). */
export function allOf(...checks: Check[]): Check {
  return dropsWhenAny((value, owner, key) => {
    for (const check of checks) if (!check(value, owner, key)) return false;
    return true;
  }, checks);
}

/** Turns a check into the type guard `accepts` needs. */
export function shape<T>(check: Check): (body: unknown) => body is T {
  return (body: unknown): body is T => check(body);
}

export interface Inspection {
  /** The strict parts held: the payload can be answered. */
  readonly accepted: boolean;
  /** The optional parts that failed their checks, each once (only when accepted). */
  readonly drops: readonly Site[];
}

/** Runs a route's `accepts` with optional parts tolerated, collecting the ones to drop. */
export function inspectPayload(accepts: (body: unknown) => boolean, body: unknown): Inspection {
  const outer = collecting;
  const drops: Site[] = [];
  collecting = drops;
  let accepted = false;
  try {
    accepted = accepts(body);
  } finally {
    collecting = outer;
  }
  if (!accepted) return { accepted, drops: [] };
  if (drops.length === 0) return { accepted, drops };
  // allOf may look at one part twice (`gameDetail` is a match plus its venue).
  const seen = new Map<object, Set<string | number>>();
  const unique = drops.filter((drop) => {
    const keys = seen.get(drop.owner) ?? new Set<string | number>();
    seen.set(drop.owner, keys);
    if (keys.has(drop.key)) return false;
    keys.add(drop.key);
    return true;
  });
  return { accepted, drops: unique };
}
