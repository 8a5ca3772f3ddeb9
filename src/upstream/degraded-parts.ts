/**
 * The optional parts of upstream payloads that failed their checks and were
 * dropped (routes/shape.ts), remembered by the object that held each one, so
 * that whichever field reads the part raises a coded error at its own path
 * instead of the whole payload failing or the field going silently null.
 */
import { ErrorCode, GatewayError } from './errors.js';

export type JsonPath = ReadonlyArray<string | number>;

export interface DegradedPart {
  readonly version: string;
  readonly route: string;
  /** Where the part sat in the upstream's answer (`events[3].season`). */
  readonly jsonPath: string;
  /** Left out (a part the spec does not show, which the entity needs), rather than sent malformed. */
  readonly leftOut?: boolean;
}

/** Keyed by the (sanitized) payload object that held the part: objects that leave the cache are forgotten with it. */
const parts = new WeakMap<object, Map<string | number, DegradedPart>>();
/** False until a first part is dropped: the fields then skip every look-up. */
let anyMarked = false;

export function anyDegradedParts(): boolean {
  return anyMarked;
}

export function formatJsonPath(path: JsonPath): string {
  return (
    path.map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? key : `.${key}`)).join('') || '$'
  );
}

/** The value at `path` from `root`; undefined where the path leaves the objects and arrays. */
export function valueAt(root: unknown, path: JsonPath): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

/**
 * Marks the dropped parts on a payload. Called on every read from the cache
 * (a shared tier hands back new objects), so it must stay idempotent.
 */
export function markDegraded(
  payload: unknown,
  dropped: readonly JsonPath[],
  route: { version: string; template: string },
  how: { leftOut?: true } = {},
): void {
  for (const path of dropped) {
    if (path.length === 0) continue;
    const owner = valueAt(payload, path.slice(0, -1));
    if (typeof owner !== 'object' || owner === null) continue;
    anyMarked = true;
    const byKey = parts.get(owner) ?? new Map<string | number, DegradedPart>();
    parts.set(owner, byKey);
    byKey.set(path[path.length - 1]!, {
      version: route.version,
      route: route.template,
      jsonPath: formatJsonPath(path),
      ...how,
    });
  }
}

export function degradedPart(owner: unknown, key: string | number): DegradedPart | undefined {
  return typeof owner === 'object' && owner !== null ? parts.get(owner)?.get(key) : undefined;
}

export function degradationError(part: DegradedPart): GatewayError {
  return new GatewayError(
    ErrorCode.UpstreamInvalidResponse,
    part.leftOut === true
      ? `The upstream's answer left out \`${part.jsonPath}\` (${part.route}); the entity is listed without it, the rest is answered.`
      : `The upstream's answer had a malformed \`${part.jsonPath}\` (${part.route}); the rest of it is answered.`,
    { version: part.version, route: part.route, jsonPath: part.jsonPath },
  );
}

/**
 * An entity listed although a part that says what it is was left out (or
 * names something the gateway does not know) and nothing else in the
 * payload tells: the entity is never dropped, and this error stands at the
 * field that would have said it.
 */
export function unclassifiedError(part: DegradedPart, what: string): GatewayError {
  return new GatewayError(
    ErrorCode.UpstreamInvalidResponse,
    `The upstream's answer ${what} at \`${part.jsonPath}\` (${part.route}); the entity is listed unclassified, the rest is answered.`,
    { version: part.version, route: part.route, jsonPath: part.jsonPath },
  );
}

/**
 * Reads an optional part of a payload object: its value, or, when the
 * upstream sent it malformed and it was dropped, the coded error for it.
 */
export function readPart<O extends object, K extends keyof O & (string | number)>(owner: O, key: K): O[K] {
  const value = owner[key];
  if (value === undefined || value === null) {
    const part = degradedPart(owner, key);
    if (part !== undefined) throw degradationError(part);
  }
  return value;
}

/** A part dropped from this object or from any object inside it (a value derived from it may be incomplete). */
export function firstDegradedPart(value: unknown): DegradedPart | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const own = parts.get(value);
  if (own !== undefined) return own.values().next().value;
  for (const inner of Array.isArray(value) ? value : Object.values(value)) {
    const found = firstDegradedPart(inner);
    if (found !== undefined) return found;
  }
  return undefined;
}
