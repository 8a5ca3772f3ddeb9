/**
 * The hand-written baseline's mapping: the seven upstream payloads of the
 * representative query turned into exactly the JSON the gateway answers
 * (`{"data": ...}`), field by field, with no GraphQL in between. The bench
 * checks at start that both answers are equal, so the comparison is of the
 * same work.
 */
import { toGlobalId } from '../../src/model/global-id.js';
import { v1Image } from '../../src/model/images.js';
import type { V1LinesPayload, V1NewsPayload, V1StandingsPayload } from '../../src/upstream/routes/v1.js';
import type { V1WorldCupStandingsPayload } from '../../src/upstream/routes/v1-world-cup.js';
import type { V2TeamPayload, V2TournamentPayload } from '../../src/upstream/routes/v2.js';

export interface RepresentativePayloads {
  readonly standings: V1StandingsPayload;
  readonly news: V1NewsPayload;
  readonly lines: V1LinesPayload;
  readonly worldCupStandings: V1WorldCupStandingsPayload;
  readonly team: V2TeamPayload;
  readonly tournament: V2TournamentPayload;
  /** The V2 slug of ice hockey (from `/reference/sports`). */
  readonly v2Slug: string;
}

/**
 * The gateway's IDs of listed entities name the listing they came from
 * (src/model/listing.ts), so that `node(id:)` can find them again: the same
 * arguments as the representative query's (bench/workload.ts).
 */
const STANDINGS_VIA = { competition: '11', season: '2025' };
const NEWS_VIA = { competitionId: '303', limit: '10' };

const v1Id = (typeName: string, id: number, via: Readonly<Record<string, string>>): string =>
  toGlobalId({ version: 'v1', sport: 'hockey', typeName, nativeId: String(id), via });

export function shapeRepresentative(p: RepresentativePayloads): unknown {
  const sources = new Map(p.news.data.newsSources.map((source) => [source.id, source]));
  const markets = p.lines.lines.markets;
  const team = p.team.team;
  const tournament = p.tournament.uniqueTournament;
  return {
    data: {
      v1: {
        hockey: {
          standings: {
            entries: [...p.standings.standings]
              .sort((a, b) => a.position - b.position)
              .map((entry) => {
                const image = v1Image('competitors', entry.competitor.id, entry.competitor.imageVersion);
                return {
                  position: entry.position,
                  points: entry.points,
                  played: entry.played,
                  wins: entry.wins,
                  losses: entry.losses,
                  goalDifference:
                    entry.goalsFor === undefined || entry.goalsAgainst === undefined
                      ? null
                      : entry.goalsFor - entry.goalsAgainst,
                  competitor: {
                    id: v1Id('V1HockeyCompetitor', entry.competitor.id, STANDINGS_VIA),
                    name: entry.competitor.name,
                    image: { url: image.url, version: image.version },
                  },
                };
              }),
          },
          news: {
            articles: p.news.data.news.map((article) => {
              const source = sources.get(article.sourceId);
              return {
                id: v1Id('V1HockeyNewsArticle', article.id, NEWS_VIA),
                title: article.title,
                publishedAt: new Date(article.publishDate).toISOString(),
                url: article.url,
                source: source === undefined ? null : { nativeId: String(source.id), name: source.name },
              };
            }),
            sources: p.news.data.newsSources.map((source) => ({ nativeId: String(source.id), name: source.name })),
          },
          lines: {
            moneyline:
              markets.moneyline === undefined
                ? null
                : { home: markets.moneyline.home, away: markets.moneyline.away, draw: markets.moneyline.draw },
            puckLine:
              markets.puckLine === undefined
                ? null
                : { line: markets.puckLine.line, home: markets.puckLine.home, away: markets.puckLine.away },
            totalGoals:
              markets.totalGoals === undefined
                ? null
                : { line: markets.totalGoals.line, over: markets.totalGoals.over, under: markets.totalGoals.under },
          },
        },
        worldCup: {
          standings: p.worldCupStandings.standings.map((group) => ({
            name: group.name,
            rows: [...group.rows]
              .sort((a, b) => a.position - b.position)
              .map((row) => ({ position: row.position, points: row.points, team: { name: row.competitor.name } })),
          })),
        },
      },
      v2: {
        team: {
          id: toGlobalId({ version: 'v2', sport: p.v2Slug, typeName: 'V2Team', nativeId: String(team.id) }),
          ref: { version: 'V2', nativeId: String(team.id), sport: p.v2Slug },
          name: team.name,
          manager: team.manager === undefined ? null : { name: team.manager.name },
          venue: team.venue === undefined ? null : { name: team.venue.name },
        },
        tournament: {
          id: toGlobalId({ version: 'v2', sport: p.v2Slug, typeName: 'V2Tournament', nativeId: String(tournament.id) }),
          name: tournament.name,
          category: tournament.category?.name ?? null,
        },
      },
    },
  };
}
