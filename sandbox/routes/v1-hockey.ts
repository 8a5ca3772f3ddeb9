/**
 * Hockey V1 (spec 4.1): standings, betting lines, news, athletes. All need
 * the key and spend the allowance.
 */
import type { V1AthletesPayload, V1NewsPayload } from '../../src/upstream/routes/v1.js';
import type { Fixtures } from '../fixtures/build.js';
import { hockeyV1Ids, type FullV1Athlete } from '../fixtures/hockey-v1.js';
import { errorResult, HttpError, json, type Router } from '../router.js';
import { optionalBoolean, optionalInteger, requiredInteger } from './params.js';

export function register(router: Router, fixtures: Fixtures): void {
  const hockey = fixtures.hockeyV1;

  router.add({
    method: 'GET',
    template: '/v1/hockey/standings',
    auth: true,
    counted: true,
    handler: ({ query }) => {
      const competitionId = optionalInteger(query, 'competitions') ?? hockeyV1Ids.topLeague.standingsId;
      const seasonNum = optionalInteger(query, 'seasonNum') ?? hockeyV1Ids.currentSeason;
      const table = hockey.leagueByStandingsId.get(competitionId)?.standings.get(seasonNum);
      return table === undefined ? errorResult(404, 'Competition not found') : json(200, table);
    },
  });

  router.add({
    method: 'GET',
    template: '/v1/hockey/bets/lines',
    auth: true,
    counted: true,
    handler: ({ query }) => {
      const game = hockey.gameById.get(requiredInteger(query, 'gameId'));
      return game === undefined ? errorResult(404, 'Game not found') : json(200, game.lines);
    },
  });

  router.add({
    method: 'GET',
    template: '/v1/hockey/news',
    auth: true,
    counted: true,
    handler: ({ query }) => {
      const competitionId = optionalInteger(query, 'competitionId');
      // Assumption shared with upstream/routes/v1.ts: the game filter is `gameId`.
      const gameId = optionalInteger(query, 'gameId');
      const limit = optionalInteger(query, 'limit');
      if (limit !== undefined && limit < 1) throw new HttpError(400, 'Query parameter "limit" must be at least 1');
      // The news route has its own competition IDs (spec 4.1); a standings ID here is a mistake worth a 404.
      if (competitionId !== undefined && !hockey.leagueByNewsId.has(competitionId)) {
        return errorResult(404, 'Competition not found');
      }
      const news = hockey.news
        .filter(
          (item) =>
            (competitionId === undefined || item.competitionId === competitionId) &&
            (gameId === undefined || item.gameId === gameId),
        )
        .slice(0, limit)
        .map((item) => item.article);
      const cited = new Set(news.map((a) => a.sourceId));
      const payload: V1NewsPayload = {
        success: true,
        type: 'news',
        data: { news, newsSources: hockey.newsSources.filter((s) => cited.has(s.id)) },
      };
      return json(200, payload);
    },
  });

  router.add({
    method: 'GET',
    template: '/v1/hockey/athletes',
    auth: true,
    counted: true,
    handler: ({ query }) => {
      const athleteId = requiredInteger(query, 'athletes');
      const fullDetails = optionalBoolean(query, 'fullDetails', false);
      const athlete = hockey.athleteById.get(athleteId);
      if (athlete === undefined) return errorResult(404, 'Athlete not found');
      const payload: V1AthletesPayload = { athletes: [fullDetails ? athlete : summary(athlete)] };
      return json(200, payload);
    },
  });
}

/** Without `fullDetails`: identity and team only, no bio or statistics. */
function summary(a: FullV1Athlete): V1AthletesPayload['athletes'][number] {
  return {
    id: a.id,
    name: a.name,
    position: a.position,
    jerseyNumber: a.jerseyNumber,
    imageVersion: a.imageVersion,
    team: a.team,
  };
}
