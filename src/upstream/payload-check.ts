/**
 * One upstream payload through its route's check (routes/shape.ts): refused
 * when a strict part fails, otherwise sanitized, its malformed optional parts
 * removed and listed by JSON path. The list travels with the payload in the
 * response cache (also through a shared tier), and is marked on the payload
 * objects again on every read (degraded-parts.ts).
 */
import type { JsonPath } from './degraded-parts.js';
import { inspectPayload, type Site } from './routes/shape.js';

export interface CheckedPayload<T> {
  readonly payload: T;
  /** JSON paths of the optional parts removed; empty for a clean payload. */
  readonly dropped: readonly JsonPath[];
}

/** Paths of the given owner objects inside `root`, found in one walk. */
function ownerPaths(root: unknown, owners: ReadonlySet<object>): Map<object, JsonPath> {
  const found = new Map<object, JsonPath>();
  const stack: Array<{ value: unknown; path: JsonPath }> = [{ value: root, path: [] }];
  while (stack.length > 0 && found.size < owners.size) {
    const { value, path } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (owners.has(value)) found.set(value, path);
    const entries: Array<[string | number, unknown]> = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : Object.entries(value);
    for (const [key, item] of entries)
      if (typeof item === 'object' && item !== null) stack.push({ value: item, path: [...path, key] });
  }
  return found;
}

function remove(drop: Site): void {
  // An array keeps its indexes (and its length): the entry becomes null where it was.
  if (Array.isArray(drop.owner)) (drop.owner as unknown[])[drop.key as number] = null;
  else delete (drop.owner as Record<string | number, unknown>)[drop.key];
}

/** Undefined when the payload cannot be answered at all. */
export function checkPayload<T>(accepts: (body: unknown) => body is T, body: unknown): CheckedPayload<T> | undefined {
  const { accepted, drops } = inspectPayload(accepts, body);
  if (!accepted) return undefined;
  if (drops.length === 0) return { payload: body as T, dropped: [] };
  const paths = ownerPaths(body, new Set(drops.map((drop) => drop.owner)));
  const dropped = drops.map((drop) => [...(paths.get(drop.owner) ?? []), drop.key]);
  drops.forEach(remove);
  return { payload: body as T, dropped };
}
