/**
 * Fault injection rules (`/__sandbox/faults`): which requests misbehave and
 * how. This module only stores and matches rules; `fault-responses.ts` acts
 * them out on the socket.
 */
import { validateHeaderName, validateHeaderValue } from 'node:http';
import { HttpError } from './router.js';

/**
 * - `status`: answer `status` (default 502) with `body` and `headers`.
 * - `reset`: headers and part of the body, then the socket is destroyed.
 * - `hang`: never answers; the socket stays open until the client leaves.
 * - `trickle`: the real answer, one body byte per second.
 * - `malformed`: 200 JSON content type, truncated JSON body.
 * - `huge`: 200 with a valid JSON body of about 50 MB.
 * - `drop-idle`: the real answer with `connection: close`, then the socket closes.
 * - `delay`: only `latencyMs`, then the normal pipeline (key, allowance, answer).
 * - `close-reused`: a request that arrives on a reused keep-alive connection
 *   has its socket destroyed with no answer at all, as when the upstream
 *   closed an idle keep-alive socket just as the client sent on it. A request
 *   on a fresh connection is not matched by it (nor uses one of `times`).
 */
export const faultKinds = [
  'status',
  'reset',
  'hang',
  'trickle',
  'malformed',
  'huge',
  'drop-idle',
  'delay',
  'close-reused',
] as const;

export type FaultKind = (typeof faultKinds)[number];

export interface FaultSpec {
  /** `METHOD /pathname` (no query string), or `*` for every non-control request. */
  readonly route: string;
  readonly kind: FaultKind;
  readonly status?: number;
  /** An object is sent as JSON; a string is sent as it is (`text/plain` unless `headers` say otherwise). */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Waited before acting, on top of the sandbox-wide latency. */
  readonly latencyMs?: number;
  /** How many matching requests the fault applies to; absent means until cleared. */
  readonly times?: number;
  /**
   * For a JSON `body`: the array at `path` (keys and indexes from the body's
   * root) is grown to `length` entries by repeating its own entries, so a
   * huge array needs no huge control request (control bodies stop at 64 KiB).
   */
  readonly grow?: GrowSpec;
}

export interface GrowSpec {
  readonly path: ReadonlyArray<string | number>;
  readonly length: number;
}

/** Past this a grown body would only test the gateway's body-size limit. */
const MAX_GROW_LENGTH = 1_000_000;

export interface Fault extends FaultSpec {
  readonly id: string;
  /** Matching requests still to be faulted; null when unlimited. */
  readonly remaining: number | null;
}

export const ANY_ROUTE = '*';

const routePattern = /^[A-Z]+ \/\S*$/;

/** Validates a `POST /__sandbox/faults` body; throws a 400 `HttpError` saying what is wrong. */
export function parseFaultSpec(input: unknown): FaultSpec {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new HttpError(400, 'Fault must be a JSON object');
  }
  const raw = input as Record<string, unknown>;
  const { route, kind = 'status', status, headers, latencyMs, times, grow } = raw;
  const body = grow === undefined ? raw['body'] : grownBody(raw['body'], grow);
  if (typeof route !== 'string' || (route !== ANY_ROUTE && !routePattern.test(route))) {
    throw new HttpError(400, 'route must be "*" or "METHOD /path", e.g. "GET /v1/hockey/standings"');
  }
  if (route.includes('?')) throw new HttpError(400, 'route must not contain a query string');
  if (typeof kind !== 'string' || !(faultKinds as readonly string[]).includes(kind)) {
    throw new HttpError(400, `kind must be one of ${faultKinds.join(', ')}`);
  }
  if (status !== undefined && !(Number.isInteger(status) && (status as number) >= 100 && (status as number) <= 599)) {
    throw new HttpError(400, 'status must be an integer from 100 to 599');
  }
  if (headers !== undefined && !isHeaderRecord(headers)) {
    throw new HttpError(400, 'headers must be an object of valid header names and string values');
  }
  if (latencyMs !== undefined && !(typeof latencyMs === 'number' && Number.isFinite(latencyMs) && latencyMs >= 0)) {
    throw new HttpError(400, 'latencyMs must be a non-negative number');
  }
  if (times !== undefined && !(Number.isInteger(times) && (times as number) > 0)) {
    throw new HttpError(400, 'times must be a positive integer');
  }
  return {
    route,
    kind: kind as FaultKind,
    ...(status === undefined ? {} : { status: status as number }),
    ...(body === undefined ? {} : { body }),
    ...(headers === undefined ? {} : { headers }),
    ...(latencyMs === undefined ? {} : { latencyMs }),
    ...(times === undefined ? {} : { times: times as number }),
  };
}

export class FaultStore {
  #faults: Fault[] = [];
  #nextId = 1;

  add(spec: FaultSpec): Fault {
    const fault: Fault = { ...spec, id: `fault-${this.#nextId++}`, remaining: spec.times ?? null };
    this.#faults.push(fault);
    return fault;
  }

  /**
   * The fault for one request, used up by one. A rule for the exact route
   * wins over `*`; among equals the oldest wins. `applies` skips rules that
   * do not fit this request (`close-reused` on a fresh connection).
   */
  take(routeKey: string, applies: (fault: Fault) => boolean = () => true): Fault | undefined {
    let index = this.#faults.findIndex((f) => f.route === routeKey && applies(f));
    if (index < 0) index = this.#faults.findIndex((f) => f.route === ANY_ROUTE && applies(f));
    const fault = this.#faults[index];
    if (fault === undefined) return undefined;
    if (fault.remaining !== null) {
      const remaining = fault.remaining - 1;
      if (remaining <= 0) this.#faults.splice(index, 1);
      else this.#faults[index] = { ...fault, remaining };
    }
    return fault;
  }

  /** Removes every fault, or those of one route; returns how many went. */
  clear(route?: string): number {
    const before = this.#faults.length;
    this.#faults = route === undefined ? [] : this.#faults.filter((f) => f.route !== route);
    return before - this.#faults.length;
  }

  remove(id: string): boolean {
    const before = this.#faults.length;
    this.#faults = this.#faults.filter((f) => f.id !== id);
    return this.#faults.length !== before;
  }

  list(): readonly Fault[] {
    return [...this.#faults];
  }
}

/** The body with the array at `grow.path` repeated up to `grow.length` entries (a copy; the input is untouched). */
function grownBody(body: unknown, grow: unknown): unknown {
  if (typeof grow !== 'object' || grow === null) throw new HttpError(400, 'grow must be { path, length }');
  const { path, length } = grow as Record<string, unknown>;
  if (!Array.isArray(path) || !path.every((key) => typeof key === 'string' || Number.isInteger(key))) {
    throw new HttpError(400, 'grow.path must be an array of keys and indexes');
  }
  if (!(Number.isInteger(length) && (length as number) >= 0 && (length as number) <= MAX_GROW_LENGTH)) {
    throw new HttpError(400, `grow.length must be an integer from 0 to ${MAX_GROW_LENGTH}`);
  }
  const copy: unknown = structuredClone(body);
  let parent: unknown = undefined;
  let key: string | number | undefined;
  let target: unknown = copy;
  for (const step of path as Array<string | number>) {
    if (typeof target !== 'object' || target === null)
      throw new HttpError(400, 'grow.path does not lead to an array in body');
    parent = target;
    key = step;
    target = (target as Record<string | number, unknown>)[step];
  }
  if (!Array.isArray(target) || target.length === 0)
    throw new HttpError(400, 'grow.path must lead to a non-empty array in body');
  const grown = Array.from({ length: length as number }, (_, i) => target[i % target.length] as unknown);
  if (parent === undefined || key === undefined) return grown;
  (parent as Record<string | number, unknown>)[key] = grown;
  return copy;
}

/** Checked here so that a bad header is a 400 now, not a crash when the fault fires. */
function isHeaderRecord(value: unknown): value is Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  try {
    for (const [name, v] of Object.entries(value)) {
      if (typeof v !== 'string') return false;
      validateHeaderName(name);
      validateHeaderValue(name, v);
    }
  } catch {
    return false;
  }
  return true;
}
