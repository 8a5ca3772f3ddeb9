/**
 * Query parameter checks shared by the route handlers. A bad value is the
 * client's fault, so it ends the request with a 400 naming the parameter.
 */
import { HttpError } from '../router.js';

const integerPattern = /^-?\d+$/;

/** The integer value of `name`, or undefined when absent; 400 when present but not an integer. */
export function optionalInteger(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const value = Number(raw);
  if (!integerPattern.test(raw) || !Number.isSafeInteger(value)) {
    throw new HttpError(400, `Query parameter "${name}" must be an integer`);
  }
  return value;
}

export function requiredInteger(query: URLSearchParams, name: string): number {
  const value = optionalInteger(query, name);
  if (value === undefined) throw new HttpError(400, `Query parameter "${name}" is required`);
  return value;
}

/** `true`/`1` or `false`/`0`; absent gives `fallback`. */
export function optionalBoolean(query: URLSearchParams, name: string, fallback: boolean): boolean {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new HttpError(400, `Query parameter "${name}" must be true or false`);
}
