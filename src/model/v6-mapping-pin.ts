/**
 * The V6 stat-ID mapping, pinned on its `version` (spec 4.9: "cached one
 * hour; pin on version and refresh when it changes").
 *
 * Timing, in words:
 * - Every reader loads the mapping under the gateway's current generation.
 *   The shared cache (class `v6Mapping`, one hour) answers all of them from
 *   one upstream request per hour, whatever the traffic; concurrent readers
 *   share the request in flight.
 * - A team-stats payload names the mapping version it was written against
 *   (`mappingVersion`, assumption). When that differs from the pinned
 *   version, the generation moves on: the next load is a new cache entry, so
 *   exactly one new request fetches the new mapping, at once rather than at
 *   the end of the hour.
 * - A version that already moved the generation does not move it again (the
 *   upstream may still serve the old mapping for a while): no request storm.
 */
import type { LoaderPort, UpstreamCachePort } from '../loaders/loader-ports.js';
import { v6FootballRoutes, type V6StatMappingPayload } from '../upstream/routes/v6-football.js';

interface Pin {
  generation: number;
  /** The version of the mapping last loaded. */
  version: string | undefined;
  /** Versions that already moved the generation. */
  requested: Set<string>;
}

/** One pin per gateway: per upstream cache (the fetcher, whose cache holds the mapping). */
const pins = new WeakMap<object, Pin>();

function pinOf(fetcher: object): Pin {
  let pin = pins.get(fetcher);
  if (pin === undefined) {
    pin = { generation: 0, version: undefined, requested: new Set() };
    pins.set(fetcher, pin);
  }
  return pin;
}

/**
 * The mapping to read statistics with. `expectedVersion` is the version a
 * team-stats payload was written against, when it says so.
 */
export async function loadStatMapping(
  ctx: LoaderPort & UpstreamCachePort,
  expectedVersion?: string,
): Promise<V6StatMappingPayload> {
  const pin = pinOf(ctx.upstreamCache.scope);
  if (
    expectedVersion !== undefined &&
    pin.version !== undefined &&
    expectedVersion !== pin.version &&
    !pin.requested.has(expectedVersion)
  ) {
    pin.requested.add(expectedVersion);
    pin.generation += 1;
  }
  const mapping = await ctx.upstream.load(v6FootballRoutes.statMapping, { generation: pin.generation });
  pin.version = String(mapping.version);
  return mapping;
}
