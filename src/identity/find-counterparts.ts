/**
 * Finds an entity's counterparts on other versions, cheapest source first:
 *
 * 1. the operator's confirmed links (operator-links.ts): answered as they are;
 * 2. the spec's known links (known-links.ts);
 * 3. what was learned before (the link store): answered without a request;
 * 4. the other version's own search route, through the operation's loader,
 *    so the response cache, in-flight sharing, the ledger and the spend
 *    meter apply as to any field; what it concludes is kept (step 3 next time).
 *
 * The operator's rejections are taken out of whatever steps 2-4 give.
 * `searchesNeeded` says, without a request, which versions would reach step
 * 4: the cost estimate prices exactly those (src/spend/estimate/cost-table.ts).
 *
 * Searchable: V1 (`/search`), V2 (`/{sport}/api/search`) and V3
 * (`/v3/search`). V4 and V6 have no search or entity route in the spec, so
 * their counterparts come only from links (steps 1-3). A match is found
 * instead in the listing of its competition's counterpart on the other
 * version (match-listings.ts), by its two teams and its kickoff.
 */
import type { LoaderPort } from '../loaders/loader-ports.js';
import { catalogueEntries } from '../model/sport-catalogue.js';
import type { Version } from '../upstream/routes/route.js';
import { v1Routes } from '../upstream/routes/v1.js';
import { v2Routes } from '../upstream/routes/v2.js';
import { v3Routes } from '../upstream/routes/v3.js';
import {
  type Counterpart,
  type Described,
  type DescribedEntity,
  type DescribedMatch,
  type EntityKind,
  type EntityRef,
  type Finding,
  findingKey,
  refKey,
} from './entity-ref.js';
import { knownLinks } from './known-links.js';
import { type LinkStore, stillAnswers } from './link-store.js';
import { type ListingRequest, listingRequest } from './match-listings.js';
import { searchTerm } from './normalise.js';
import { scoreMatches } from './score-matches.js';
import type { OperatorLinks } from './operator-links.js';
import { type Hit, scoreHits } from './score.js';

/** What the gateway keeps about links: the store of learned ones and the operator's file. */
export interface Links {
  readonly store: LinkStore;
  readonly operator: OperatorLinks;
}

/** The port resolvers and the estimate read links through (ResolverContext, EstimateContext). */
export interface CounterpartsPort {
  readonly counterparts: Links;
}

/** The versions with a search route (V4 and V6 have none in the spec). */
export const SEARCHABLE: ReadonlySet<Version> = new Set(['v1', 'v2', 'v3']);
/** The versions with a listing of a linked competition's matches (match-listings.ts). */
export const MATCH_LISTED: ReadonlySet<Version> = new Set(['v1', 'v2']);

/** The versions whose search finds players (V3's finds teams and leagues only). */
export const PLAYERS_SEARCHABLE: ReadonlySet<Version> = new Set(['v1', 'v2']);

/** Whether finding `kind` on `target` may take a request (a search, or a match listing). */
export function mayRequest(kind: EntityKind, target: Version): boolean {
  return (kind === 'match' ? MATCH_LISTED : kind === 'player' ? PLAYERS_SEARCHABLE : SEARCHABLE).has(target);
}

/** The other versions asked for, each once, in the order asked. */
export function otherVersions(source: EntityRef, versions: readonly Version[]): Version[] {
  return [...new Set(versions)].filter((v) => v !== source.version);
}

function linked(links: Links, source: EntityRef, target: Version): Counterpart[] {
  const operator = links.operator.on(source, target);
  const confirmed = operator.filter((o) => o.decision === 'confirm');
  if (confirmed.length > 0)
    return confirmed.map(({ other }) => ({
      ...other,
      name: null,
      confidence: 1,
      evidence: 'OPERATOR',
      status: 'MATCH',
    }));
  const key = refKey(source);
  return knownLinks.flatMap((link): Counterpart[] => {
    const other = refKey(link.a) === key ? link.b : refKey(link.b) === key ? link.a : undefined;
    return other?.version === target
      ? [{ ...other, name: null, confidence: 1, evidence: 'KNOWN_MAPPING', status: 'MATCH' }]
      : [];
  });
}

function withoutRejected(
  links: Links,
  source: EntityRef,
  target: Version,
  found: readonly Counterpart[],
): Counterpart[] {
  const rejected = new Set(
    links.operator
      .on(source, target)
      .filter((o) => o.decision === 'reject')
      .map((o) => refKey(o.other)),
  );
  return found.filter((c) => !rejected.has(refKey(c)));
}

/** The versions among `versions` whose answer needs a search request now (none linked, none learned). */
export async function searchesNeeded(
  links: Links,
  source: EntityRef,
  versions: readonly Version[],
): Promise<Version[]> {
  const needed: Version[] = [];
  const now = Date.now();
  for (const target of otherVersions(source, versions)) {
    if (!mayRequest(source.kind, target) || linked(links, source, target).length > 0) continue;
    const kept = await links.store.get(findingKey(source, target));
    if (kept === undefined || !stillAnswers(kept, now)) needed.push(target);
  }
  return needed;
}

/**
 * The counterparts links and learned findings alone give, when every asked
 * version is answered that way (no search needed, so the entity need not
 * even be loaded: `Query.counterparts` then costs nothing); undefined otherwise.
 */
export async function linkedCounterparts(
  links: Links,
  source: EntityRef,
  versions: readonly Version[],
): Promise<Counterpart[] | undefined> {
  if ((await searchesNeeded(links, source, versions)).length > 0) return undefined;
  const perVersion = await Promise.all(
    otherVersions(source, versions).map(async (target): Promise<Counterpart[]> => {
      const direct = linked(links, source, target);
      if (direct.length > 0) return withoutRejected(links, source, target, direct);
      const kept = mayRequest(source.kind, target) ? await links.store.get(findingKey(source, target)) : undefined;
      return withoutRejected(links, source, target, kept?.counterparts ?? []);
    }),
  );
  return perVersion.flat();
}

export async function findCounterparts(
  ctx: LoaderPort,
  links: Links,
  source: Described,
  versions: readonly Version[],
): Promise<Counterpart[]> {
  const now = Date.now();
  const perVersion = await Promise.all(
    otherVersions(source, versions).map(async (target): Promise<Counterpart[]> => {
      const direct = linked(links, source, target);
      if (direct.length > 0) return withoutRejected(links, source, target, direct);
      if (!mayRequest(source.kind, target)) return [];
      const key = findingKey(source, target);
      const kept = await links.store.get(key);
      if (kept !== undefined && stillAnswers(kept, now))
        return withoutRejected(links, source, target, kept.counterparts);
      const found =
        source.kind === 'match' ? await listed(ctx, links, source, target) : await searched(ctx, source, target);
      if (found === undefined) return [];
      const finding: Finding = { learnedAt: now, counterparts: found };
      await links.store.put(key, finding);
      return withoutRejected(links, source, target, finding.counterparts);
    }),
  );
  return perVersion.flat();
}

/** A match's counterparts from the listing of its competition's counterpart on `target`; undefined when there is none to read. */
async function listed(
  ctx: LoaderPort,
  links: Links,
  source: DescribedMatch,
  target: Version,
): Promise<Counterpart[] | undefined> {
  const listing = matchListing(links, source, target);
  if (listing === undefined) return undefined;
  return scoreMatches(source, listing.hits(await ctx.upstream.load(listing.route, listing.params)));
}

/** The listing on `target` of the competition linked to `source`'s, when the table has one (also what the estimate prices). */
export function matchListing(links: Links, source: DescribedMatch, target: Version): ListingRequest | undefined {
  const competition = linked(links, source.competition, target).find((c) => c.status === 'MATCH');
  return competition === undefined ? undefined : listingRequest(competition, source);
}

async function searched(ctx: LoaderPort, source: DescribedEntity, target: Version): Promise<Counterpart[] | undefined> {
  const hits = await search(ctx, source, target);
  return hits === undefined ? undefined : scoreHits(source, source.kind, hits);
}

/** The target version's hits for the source's name; undefined when the target cannot search for it (no slug, no term). */
async function search(ctx: LoaderPort, source: DescribedEntity, target: Version): Promise<Hit[] | undefined> {
  const term = searchTerm(source.name);
  if (term.length < 2) return undefined;
  const entries = await catalogueEntries(ctx);
  const entry = entries.find((e) => e.slugs[source.version as keyof typeof e.slugs] === source.sport);
  const sport = entry?.slugs[target as keyof typeof entry.slugs];
  if (sport == null || sport === '') return undefined;
  const kindOf = (type: string): EntityKind | undefined =>
    TEAM_TYPES.has(type)
      ? 'team'
      : COMPETITION_TYPES.has(type)
        ? 'competition'
        : PLAYER_TYPES.has(type)
          ? 'player'
          : undefined;
  const hit = (type: string, id: number, name: string, extra: Partial<Hit> = {}): Hit[] => {
    const kind = kindOf(type);
    return kind === undefined ? [] : [{ version: target, sport, kind, nativeId: String(id), name, ...extra }];
  };
  switch (target) {
    case 'v1': {
      const { results } = await ctx.upstream.load(v1Routes.search, { q: term, sport });
      // Typed as required, but the route checks only the list (routes/v1.ts): a hit without `version` is
      // V1's own (src/model/search-hits.ts), one without `sport` answers the sport asked for.
      return results
        .filter((r) => (r.version ?? 'v1') === 'v1' && (r.sport ?? sport) === sport)
        .flatMap((r) => hit(r.type, r.id, r.name, { country: r.country }));
    }
    case 'v2': {
      const { results } = await ctx.upstream.load(v2Routes.search, { sport, query: term });
      return results.flatMap((r) => {
        switch (r.type) {
          case 'team':
            return hit('team', r.entity.id, r.entity.name, {
              shortName: r.entity.shortName,
              country: r.entity.country?.name,
            });
          case 'tournament':
            // A V2 tournament's category is its country (V2 groups tournaments by country, spec 4.8).
            return hit('tournament', r.entity.id, r.entity.name, { country: r.entity.category?.name });
          case 'player':
            return hit('player', r.entity.id, r.entity.name, { country: r.entity.country?.name });
          default:
            return [];
        }
      });
    }
    case 'v3': {
      const { results } = await ctx.upstream.load(v3Routes.search, { query: term });
      return results.filter((r) => r.sport === sport).flatMap((r) => hit(r.type, r.id, r.name));
    }
    default:
      return undefined;
  }
}

const TEAM_TYPES: ReadonlySet<string> = new Set(['team', 'competitor']);
const COMPETITION_TYPES: ReadonlySet<string> = new Set(['competition', 'tournament', 'league']);
const PLAYER_TYPES: ReadonlySet<string> = new Set(['athlete', 'player']);
