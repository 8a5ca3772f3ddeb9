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

/** `site` is given by the combinators that descend (obj, arrayOf, recordOf); a check may ignore it. */
export type Check = (value: unknown, site?: Site) => boolean;

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
 * Runs `check` with its own drop list: the drops are kept only when the
 * check passes, so a failed part (or a failed `oneOf` branch) leaves none.
 */
function trial(check: Check, value: unknown, site: Site | undefined): boolean {
  const outer = collecting;
  if (outer === undefined) return check(value, site);
  const own: Site[] = [];
  collecting = own;
  let passed = false;
  try {
    passed = check(value, site);
  } finally {
    collecting = outer;
  }
  if (passed) outer.push(...own);
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
  const optional: Check = (value, site) => {
    if (value === undefined || value === null) return true;
    if (collecting === undefined || site === undefined) return check(value, site);
    if (!trial(check, value, site)) collecting.push(site);
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
  return dropsWhenAny((value, site) => value === undefined || value === null || check(value, site), [check]);
}

export function arrayOf(check: Check): Check {
  return (value) => Array.isArray(value) && value.every((item, index) => check(item, { owner: value, key: index }));
}

/** An object whose listed fields pass their checks (other fields are not looked at). */
export function obj(fields: Readonly<Record<string, Check>>): Check {
  const entries = Object.entries(fields);
  for (const [key, check] of entries) if (dropping.has(check)) droppableKeys.add(key);
  return (value) => isObject(value) && entries.every(([key, check]) => check(value[key], { owner: value, key }));
}

/** An object whose every value passes `check` (maps keyed by ID). */
export function recordOf(check: Check): Check {
  return (value) => isObject(value) && Object.entries(value).every(([key, item]) => check(item, { owner: value, key }));
}

export function oneOf(...checks: Check[]): Check {
  return dropsWhenAny((value, site) => checks.some((check) => trial(check, value, site)), checks);
}

/** Every check holds: a payload piece that extends another (`V1GameDetail extends V1WorldCupMatch`). */
export function allOf(...checks: Check[]): Check {
  return dropsWhenAny((value, site) => checks.every((check) => check(value, site)), checks);
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
