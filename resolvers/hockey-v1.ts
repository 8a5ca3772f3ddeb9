/**
 * Hockey on V1 (spec 2.1-2.4, 4.1).
 */
import type { ResolverContext } from '../src/context.js';
import type { Resolvers } from '../src/generated/resolvers-types.js';
import { byPosition } from '../src/model/by-position.js';
import { toGlobalId } from '../src/model/global-id.js';
import { v1Image } from '../src/model/images.js';
import { namespace } from '../src/model/namespace.js';
import { listedAt, listingOf } from '../src/model/listing.js';
import { integerId } from '../src/model/native-id.js';
import { athleteHits } from '../src/model/search-hits.js';
import { tagType } from '../src/model/typename.js';
import { ErrorCode, GatewayError } from '../src/upstream/errors.js';
import { v1Routes, type V1Athlete } from '../src/upstream/routes/v1.js';

const SPORT = 'hockey';

const ref = (nativeId: number) => ({ version: 'V1' as const, nativeId: String(nativeId), sport: SPORT });
const globalId = (typeName: string, nativeId: number, via?: Readonly<Record<string, string>>) =>
  toGlobalId({ version: 'v1', sport: SPORT, typeName, nativeId: String(nativeId), via });

/** One athlete by V1 ID; a missing one is a NOT_FOUND error. */
export async function loadV1HockeyAthlete(ctx: ResolverContext, id: number): Promise<V1Athlete> {
  const payload = await ctx.upstream.load(v1Routes.athletes, { athleteId: id });
  const athlete = payload.athletes.find((candidate) => candidate.id === id) ?? payload.athletes[0];
  if (athlete === undefined) {
    throw new GatewayError(ErrorCode.NotFound, 'No V1 hockey athlete has this ID.', {
      version: 'v1',
      route: v1Routes.athletes.template,
    });
  }
  return tagType(athlete, 'V1HockeyAthlete');
}

function searchTerm(name: string): string {
  const term = name.trim();
  if (term.length < 2 || term.length > 100) {
    throw new GatewayError(ErrorCode.BadUserInput, 'A search name must be 2 to 100 characters.');
  }
  return term;
}

export const hockeyV1Resolvers: Resolvers = {
  Query: {
    v1: () => namespace('v1'),
  },
  V1: {
    hockey: () => namespace('v1.hockey'),
  },
  V1Hockey: {
    standings: async (_, { competition, season }, ctx) => {
      const params = {
        competition: competition == null ? undefined : integerId(competition, 'competition'),
        seasonNum: season ?? undefined,
      };
      const payload = await ctx.upstream.load(v1Routes.standings, params);
      // A competitor has no route of its own: its ID names the table it was listed in (src/model/node-sources.ts),
      // as the table names itself, so that the default table asked with or without its arguments gives one ID.
      const via = {
        competition: payload.competitionId ?? params.competition,
        season: payload.seasonNum ?? params.seasonNum,
      };
      for (const entry of payload.standings) listedAt(entry.competitor, via);
      return payload;
    },
    lines: (_, { gameId }, ctx) => ctx.upstream.load(v1Routes.lines, { gameId: integerId(gameId, 'gameId') }),
    news: (_, { competitionId, gameId, limit }, ctx) => {
      if (limit != null && (limit < 1 || limit > 100)) {
        throw new GatewayError(ErrorCode.BadUserInput, 'limit must be between 1 and 100.');
      }
      const params = {
        competitionId: competitionId == null ? undefined : integerId(competitionId, 'competitionId'),
        gameId: gameId == null ? undefined : integerId(gameId, 'gameId'),
        limit: limit ?? undefined,
      };
      // An article has no route of its own: its ID names the list it came in (src/model/node-sources.ts).
      return ctx.upstream.load(v1Routes.news, params).then((payload) => listedAt(payload, params));
    },
    athlete: (_, { id }, ctx) => loadV1HockeyAthlete(ctx, integerId(id, 'athlete id')),
    athletes: (_, { ids }, ctx) => {
      if (ids.length > 100) throw new GatewayError(ErrorCode.BadUserInput, 'At most 100 athletes per field.');
      // A bad ID is refused in its own slot (a rejection there, before any request); the others still load.
      return ids.map(async (id) => loadV1HockeyAthlete(ctx, integerId(id, 'athlete id')));
    },
    searchAthletes: async (_, { name, first }, ctx) => {
      const count = first ?? 10;
      if (count < 1 || count > 50) throw new GatewayError(ErrorCode.BadUserInput, 'first must be between 1 and 50.');
      const payload = await ctx.upstream.load(v1Routes.search, { q: searchTerm(name), sport: SPORT });
      return athleteHits(payload).slice(0, count);
    },
  },
  V1HockeyStandings: {
    competitionId: (payload) => (payload.competitionId === undefined ? null : String(payload.competitionId)),
    season: (payload) => payload.seasonNum ?? null,
    entries: (payload) => byPosition(payload.standings),
    raw: (payload) => payload,
  },
  V1HockeyStandingsEntry: {
    overtimeLosses: (entry) => entry.overtimeLosses ?? null,
    goalsFor: (entry) => entry.goalsFor ?? null,
    goalsAgainst: (entry) => entry.goalsAgainst ?? null,
    goalDifference: (entry) =>
      entry.goalsFor === undefined || entry.goalsAgainst === undefined ? null : entry.goalsFor - entry.goalsAgainst,
    raw: (entry) => entry,
  },
  V1HockeyCompetitor: {
    id: (competitor) => globalId('V1HockeyCompetitor', competitor.id, listingOf(competitor)),
    ref: (competitor) => ref(competitor.id),
    score: (competitor) => competitor.score ?? null,
    imageVersion: (competitor) => competitor.imageVersion ?? null,
    image: (competitor) => v1Image('competitors', competitor.id, competitor.imageVersion),
    raw: (competitor) => competitor,
  },
  V1HockeyLines: {
    gameId: (payload) => String(payload.lines.gameId),
    moneyline: (payload) => payload.lines.markets.moneyline ?? null,
    puckLine: (payload) => payload.lines.markets.puckLine ?? null,
    totalGoals: (payload) => payload.lines.markets.totalGoals ?? null,
    raw: (payload) => payload,
  },
  V1HockeyNews: {
    articles: (payload) => {
      const sources = new Map(payload.data.newsSources.map((source) => [source.id, source]));
      const via = listingOf(payload) ?? {};
      return payload.data.news.map((article) => listedAt({ article, sources }, via));
    },
    sources: (payload) => payload.data.newsSources,
  },
  V1HockeyNewsArticle: {
    id: (model) => globalId('V1HockeyNewsArticle', model.article.id, listingOf(model)),
    ref: ({ article }) => ref(article.id),
    title: ({ article }) => article.title,
    publishedAt: ({ article }) => article.publishDate,
    url: ({ article }) => article.url,
    imageUrl: ({ article }) => article.image ?? null,
    isMagazine: ({ article }) => article.isMagazine === true,
    source: ({ article, sources }) => sources.get(article.sourceId) ?? null,
    raw: ({ article }) => article,
  },
  V1NewsSource: {
    nativeId: (source) => String(source.id),
    imageVersion: (source) => source.imageVersion ?? null,
  },
  V1HockeyAthleteHit: {
    nativeId: (hit) => String(hit.id),
    // Null for a hit that left `type` out: the degraded-part error at this path says so (athleteHits).
    type: (hit) => hit.type ?? null,
    athlete: (hit, _, ctx) => loadV1HockeyAthlete(ctx, hit.id),
  },
  V1HockeyAthlete: {
    id: (athlete) => globalId('V1HockeyAthlete', athlete.id),
    ref: (athlete) => ref(athlete.id),
    position: (athlete) => athlete.position ?? null,
    jerseyNumber: (athlete) => athlete.jerseyNumber ?? null,
    birthDate: (athlete) => athlete.birthDate ?? null,
    nationality: (athlete) => athlete.nationality ?? null,
    heightCm: (athlete) => athlete.heightCm ?? null,
    weightKg: (athlete) => athlete.weightKg ?? null,
    shoots: (athlete) => athlete.shoots ?? null,
    bio: (athlete) => athlete.bio ?? null,
    image: (athlete) => v1Image('athletes', athlete.id, athlete.imageVersion),
    team: (athlete) =>
      athlete.team === undefined
        ? null
        : {
            nativeId: String(athlete.team.id),
            name: athlete.team.name,
            image: v1Image('competitors', athlete.team.id, athlete.team.imageVersion),
          },
    statistics: (athlete) => athlete.statistics ?? [],
    currentSeason: (athlete) => athlete.currentSeason ?? null,
    raw: (athlete) => athlete,
  },
};
