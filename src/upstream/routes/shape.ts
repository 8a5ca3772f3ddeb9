/**
 * Small combinators for a route's `accepts(body)`: the payload shape the
 * resolvers rely on, checked once in the fetcher, so that a payload missing a
 * field, carrying a null or a value of the wrong type becomes one coded
 * UPSTREAM_INVALID_RESPONSE instead of a TypeError or a null in a non-null
 * field deep inside a resolver. Extra fields are always allowed: the
 * upstream may add to its payloads at any time.
 */
import { isObject } from './route.js';

export type Check = (value: unknown) => boolean;

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

/** Absent or null is fine; present means `check` must hold. */
export function opt(check: Check): Check {
  return (value) => value === undefined || value === null || check(value);
}

export function arrayOf(check: Check): Check {
  return (value) => Array.isArray(value) && value.every(check);
}

/** An object whose listed fields pass their checks (other fields are not looked at). */
export function obj(fields: Readonly<Record<string, Check>>): Check {
  const entries = Object.entries(fields);
  return (value) => isObject(value) && entries.every(([key, check]) => check(value[key]));
}

/** An object whose every value passes `check` (maps keyed by ID). */
export function recordOf(check: Check): Check {
  return (value) => isObject(value) && Object.values(value).every(check);
}

export function oneOf(...checks: Check[]): Check {
  return (value) => checks.some((check) => check(value));
}

/** Every check holds: a payload piece that extends another (`V1GameDetail extends V1WorldCupMatch`). */
export function allOf(...checks: Check[]): Check {
  return (value) => checks.every((check) => check(value));
}

/** Turns a check into the type guard `accepts` needs. */
export function shape<T>(check: Check): (body: unknown) => body is T {
  return (body: unknown): body is T => check(body);
}
