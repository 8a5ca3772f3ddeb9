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

type ListingParams = Readonly<Record<string, string | number | undefined | null>>;

/** A symbol-keyed, non-enumerable property, not a WeakMap entry: see typename.ts for why. */
const LISTING: unique symbol = Symbol('sports-graph.listing');

interface Listed {
  [LISTING]?: GlobalIdVia;
}
/**
 * The recorded form of each `via` argument: every item of one list is
 * recorded with the same object (a resolver passes one per list), so the
 * list costs one conversion, and every ID minted from its items one
 * `encodeVia` (global-id.ts memoizes per recorded object). A payload fresh
 * from the upstream (nothing cached) pays this per item otherwise.
 */
const normalized = new WeakMap<ListingParams, GlobalIdVia>();

function recordedVia(via: ListingParams): GlobalIdVia {
  let recorded = normalized.get(via);
  if (recorded === undefined) {
    const defined = Object.entries(via).filter(
      (entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== null,
    );
    recorded = Object.fromEntries(defined.map(([key, v]) => [key, String(v)]));
    normalized.set(via, recorded);
    // A recorded `via` passed on (listingOf of a parent) is its own recorded form.
    normalized.set(recorded, recorded);
  }
  return recorded;
}

/**
 * Records where `value` was listed; parameters that were not given are left
 * out. Pass one `via` object for every item of a list (not a literal per
 * item): its recorded form is then shared (see `normalized`).
 */
export function listedAt<T extends object>(value: T, via: ListingParams): T {
  // Recorded by an earlier operation over the same cached object: the same values (see above), and the same `via` object keeps encodeVia's memo.
  if ((value as T & Listed)[LISTING] !== undefined) return value;
  Object.defineProperty(value, LISTING, {
    value: recordedVia(via),
    writable: false,
    enumerable: false,
    configurable: true,
  });
  return value;
}

export function listingOf(value: object): GlobalIdVia | undefined {
  return (value as Listed)[LISTING];
}
