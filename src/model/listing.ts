/**
 * Where an entity was listed: the route parameters `node(id:)` needs to find
 * again an entity the upstream returns only inside a list or a parent (a V1
 * hockey competitor inside one league table, a venue inside its team). The
 * resolver that knows them (the root field that loaded the list, or the
 * parent) records them on the upstream object; the `id` resolver puts them
 * in the global ID's `via` part (global-id.ts).
 *
 * Kept beside the object, like the type tag (typename.ts), rather than in
 * every payload type: the payloads stay as the upstream sent them. One
 * cached payload object always comes from the same route call (the cache
 * key is the route and its parameters), so recording it again per
 * operation writes the same values.
 */
import type { GlobalIdVia } from './global-id.js';

const listings = new WeakMap<object, GlobalIdVia>();

/** Records where `value` was listed; parameters that were not given are left out. */
export function listedAt<T extends object>(value: T, via: Readonly<Record<string, string | number | undefined | null>>): T {
  // Recorded by an earlier operation over the same cached object: the same values (see above), and the same `via` object keeps encodeVia's memo.
  if (listings.has(value)) return value;
  const defined = Object.entries(via).filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== null);
  listings.set(value, Object.fromEntries(defined.map(([key, v]) => [key, String(v)])));
  return value;
}

export function listingOf(value: object): GlobalIdVia | undefined {
  return listings.get(value);
}
