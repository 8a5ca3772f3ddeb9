/**
 * Source objects of the V2 football types, and the catalogue's filtering and
 * pagination: the upstream sends ~6,400 competitions in one flat list, so
 * the gateway fetches it once per TTL (shared cache) and answers every
 * filter and page from that copy.
 */
import { ErrorCode, GatewayError } from '../upstream/errors.js';
import type {
  V2BracketBlock,
  V2Category,
  V2CatalogueTournament,
  V2Group,
  V2StandingsRow,
} from '../upstream/routes/v2-football.js';
import { tagType } from './typename.js';
import type { V2TournamentModel, WithSlug } from './v2-entities.js';

/** A football namespace object knows the V2 slug it was reached under. */
export interface V2FootballScope {
  readonly slug: string;
}

export type V2GroupModel = WithSlug<V2Group>;
export type V2StandingsRowModel = WithSlug<V2StandingsRow>;
export type V2BracketMatchModel = WithSlug<V2BracketBlock>;
export interface V2KnockoutRoundModel {
  slug: string;
  round: number;
  name: string;
  blocks: V2BracketBlock[];
}

export interface V2CategoryModel {
  category: V2Category;
  /** null when the category was read from one competition, not counted over the catalogue. */
  competitionCount: number | null;
}

export interface V2CompetitionEdgeModel {
  cursor: string;
  node: V2TournamentModel;
}

export interface V2CompetitionConnectionModel {
  edges: V2CompetitionEdgeModel[];
  nodes: V2TournamentModel[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: number;
}

export interface CompetitionFilter {
  categoryId?: string | null | undefined;
  alpha2?: string | null | undefined;
  nameContains?: string | null | undefined;
  amateur?: boolean | null | undefined;
  maxTier?: number | null | undefined;
}

export const MAX_COMPETITIONS_PAGE = 200;

const encodeOffset = (offset: number): string => Buffer.from(`offset:${offset}`, 'utf8').toString('base64url');

function decodeOffset(cursor: string): number {
  const match = /^offset:(\d{1,7})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (match === null) throw new GatewayError(ErrorCode.BadUserInput, 'Not a cursor of this connection.');
  return Number(match[1]);
}

export function catalogueEntryModel(slug: string, entry: V2CatalogueTournament): V2TournamentModel {
  return tagType({ slug, value: entry }, 'V2Tournament');
}

export function filterCatalogue(
  entries: readonly V2CatalogueTournament[],
  filter: CompetitionFilter,
): V2CatalogueTournament[] {
  const needle = filter.nameContains?.trim().toLowerCase();
  const alpha2 = filter.alpha2?.trim().toUpperCase();
  return entries.filter(
    (entry) =>
      (filter.categoryId == null || String(entry.category.id) === String(filter.categoryId)) &&
      (alpha2 === undefined || alpha2 === '' || entry.category.alpha2 === alpha2) &&
      (needle === undefined || needle === '' || entry.name.toLowerCase().includes(needle)) &&
      (filter.amateur == null || (entry.category.amateur === true) === filter.amateur) &&
      (filter.maxTier == null || (entry.tier !== undefined && entry.tier <= filter.maxTier)),
  );
}

/** A Relay connection over the filtered catalogue; the cursor is an offset into the filtered list. */
export function catalogueConnection(
  slug: string,
  entries: readonly V2CatalogueTournament[],
  args: { first?: number | null | undefined; after?: string | null | undefined },
): V2CompetitionConnectionModel {
  const first = args.first ?? 20;
  if (!Number.isInteger(first) || first < 0 || first > MAX_COMPETITIONS_PAGE) {
    throw new GatewayError(ErrorCode.BadUserInput, `first must be between 0 and ${MAX_COMPETITIONS_PAGE}.`);
  }
  const start = args.after == null ? 0 : decodeOffset(args.after) + 1;
  const edges = entries
    .slice(start, start + first)
    .map((entry, i) => ({ cursor: encodeOffset(start + i), node: catalogueEntryModel(slug, entry) }));
  return {
    edges,
    nodes: edges.map((edge) => edge.node),
    pageInfo: {
      hasNextPage: start + edges.length < entries.length,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: entries.length,
  };
}

/** The categories the catalogue names, with their competition counts. */
export function categoriesOf(entries: readonly V2CatalogueTournament[]): V2CategoryModel[] {
  const byId = new Map<number, V2CategoryModel>();
  for (const entry of entries) {
    const known = byId.get(entry.category.id);
    if (known === undefined) byId.set(entry.category.id, { category: entry.category, competitionCount: 1 });
    else known.competitionCount = (known.competitionCount ?? 0) + 1;
  }
  return [...byId.values()].sort((a, b) => a.category.name.localeCompare(b.category.name));
}
