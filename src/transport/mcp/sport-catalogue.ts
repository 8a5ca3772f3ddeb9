/**
 * The sport catalogue as an agent reads it (the `sports-graph://sports`
 * resource): per upstream version (V1, V2, V3, V4, V6), the sports it
 * carries with their slug and the `Sport` value that names them, and the
 * route families the gateway calls on it. Nothing here is written by hand:
 * the sports and slugs are `/reference/sports` (the catalogue every slug
 * comes from, src/model/sport-catalogue.ts: free, cached a day), and the
 * route families are the gateway's route tables (src/upstream/routes/),
 * grouped by the sport slug in their path (a slug the catalogue gives the
 * version, or `{sport}` for routes of any sport).
 */
import type { GraphQLSchema } from 'graphql';
import type { LoaderPort } from '../../loaders/loader-ports.js';
import { catalogueEntries, sportEnumValues, sportOfEntry, type SlugVersion } from '../../model/sport-catalogue.js';
import type { AnyRoute } from '../../spend/resource-estimate.js';
import { imageRoutes } from '../../upstream/routes/images.js';
import { referenceRoutes } from '../../upstream/routes/reference.js';
import type { Version } from '../../upstream/routes/route.js';
import { v1WorldCupRoutes } from '../../upstream/routes/v1-world-cup.js';
import { v1Routes } from '../../upstream/routes/v1.js';
import { v2AussieRulesRoutes } from '../../upstream/routes/v2-aussie-rules.js';
import { v2BaseballRoutes } from '../../upstream/routes/v2-baseball.js';
import { v2CyclingRoutes } from '../../upstream/routes/v2-cycling.js';
import { v2EventRoutes } from '../../upstream/routes/v2-events.js';
import { v2FootballRoutes } from '../../upstream/routes/v2-football.js';
import { v2HockeyRoutes } from '../../upstream/routes/v2-hockey.js';
import { v2ManagerRoutes } from '../../upstream/routes/v2-managers.js';
import { v2MotorsportRoutes } from '../../upstream/routes/v2-motorsport.js';
import { v2WaterPoloRoutes } from '../../upstream/routes/v2-waterpolo.js';
import { v2Routes } from '../../upstream/routes/v2.js';
import { v3Routes } from '../../upstream/routes/v3.js';
import { v4Routes } from '../../upstream/routes/v4.js';
import { v6BaseballRoutes } from '../../upstream/routes/v6-baseball.js';
import { v6FootballRoutes } from '../../upstream/routes/v6-football.js';

/** Every route table of src/upstream/routes/: the routes the gateway can call. */
const routeTables: ReadonlyArray<Readonly<Record<string, unknown>>> = [
  referenceRoutes,
  imageRoutes,
  v1Routes,
  v1WorldCupRoutes,
  v2Routes,
  v2AussieRulesRoutes,
  v2BaseballRoutes,
  v2CyclingRoutes,
  v2EventRoutes,
  v2FootballRoutes,
  v2HockeyRoutes,
  v2ManagerRoutes,
  v2MotorsportRoutes,
  v2WaterPoloRoutes,
  v3Routes,
  v4Routes,
  v6BaseballRoutes,
  v6FootballRoutes,
];

const isRoute = (value: unknown): value is AnyRoute =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { template?: unknown }).template === 'string' &&
  typeof (value as { version?: unknown }).version === 'string';

/** The catalogue's versions, in order: those a slug is given for. */
const versions: readonly SlugVersion[] = ['v1', 'v2', 'v3', 'v4', 'v6'];

/** The segment after the version (`/v2/hockey/...` -> `hockey`, `/v2/{sport}/...` -> `{sport}`). */
const SPORT_SEGMENT = /^\/v\d\/([^/]+)\//;

/** The family of routes of any sport, by the slug in their path. */
export const ANY_SPORT = '{sport}';

export interface RouteFamily {
  /**
   * The slug in the routes' path (`hockey`): routes of that one sport;
   * `{sport}`: routes of any sport of the version, by its slug; `global`:
   * routes whose path names no sport (search, catalogues, V1's web API).
   */
  readonly family: string;
  /** The catalogue key of the family's sport; absent for `{sport}` and `global`. */
  readonly sport?: string;
  readonly routes: readonly string[];
  /** How many of them spend the daily allowance. */
  readonly counted: number;
}

export interface VersionCatalogue {
  readonly sports: ReadonlyArray<{ key: string; name: string; slug: string; sport: string | null }>;
  readonly routeFamilies: readonly RouteFamily[];
}

/** Every route of the route tables, each once. */
const allRoutes = (): AnyRoute[] => {
  const seen = new Map<string, AnyRoute>();
  for (const table of routeTables)
    for (const route of Object.values(table))
      if (isRoute(route) && !seen.has(`${route.version} ${route.template}`))
        seen.set(`${route.version} ${route.template}`, route);
  return [...seen.values()];
};

/** The version's routes, grouped by the sport slug in their path (`keyBySlug`: the version's slugs, from the catalogue). */
function routeFamilies(
  routes: readonly AnyRoute[],
  version: Version,
  keyBySlug: ReadonlyMap<string, string>,
): RouteFamily[] {
  const families = new Map<string, AnyRoute[]>();
  for (const route of routes) {
    if (route.version !== version) continue;
    const segment = SPORT_SEGMENT.exec(route.template)?.[1];
    const family = segment !== undefined && (segment === ANY_SPORT || keyBySlug.has(segment)) ? segment : 'global';
    families.set(family, [...(families.get(family) ?? []), route]);
  }
  return [...families]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([family, members]) => {
      const sport = keyBySlug.get(family);
      return {
        family,
        ...(sport === undefined ? {} : { sport }),
        routes: members.map((route) => route.template).sort(),
        counted: members.filter((route) => route.counted).length,
      };
    });
}

let routes: readonly AnyRoute[] | undefined;

/** Per version, its sports (from the catalogue `ctx` loads) and its route families (from the route tables). */
export async function sportCatalogue(
  ctx: LoaderPort,
  schema: GraphQLSchema,
): Promise<Record<SlugVersion, VersionCatalogue>> {
  routes ??= allRoutes();
  const entries = await catalogueEntries(ctx);
  const enumValues = sportEnumValues(schema);
  const catalogue = {} as Record<SlugVersion, VersionCatalogue>;
  for (const version of versions) {
    const sports = entries.flatMap((entry) => {
      const slug = entry.slugs[version];
      return slug === null || slug === ''
        ? []
        : [{ key: entry.sport, name: entry.name, slug, sport: sportOfEntry(entries, entry, enumValues) }];
    });
    const keyBySlug = new Map(sports.map((sport) => [sport.slug, sport.key]));
    catalogue[version] = { sports, routeFamilies: routeFamilies(routes, version, keyBySlug) };
  }
  return catalogue;
}
