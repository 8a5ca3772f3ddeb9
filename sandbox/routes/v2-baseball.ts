/**
 * Baseball V2: the slate's games (`/api/match/{id}`, start times following
 * the sandbox clock) and their lineups (spec 2.8, 4.9). Lineups confirm on
 * each game's Nth request (fixtures/baseball.ts); two leagues answer 404 and
 * the uncarried league too.
 */
import type { V2Event } from '../../src/upstream/routes/v2.js';
import type { Fixtures } from '../fixtures/build.js';
import { baseballIds, type BaseballGame } from '../fixtures/baseball.js';
import { errorResult, json, type Router } from '../router.js';

const HOUR = 3_600_000;

export function baseballEvent(game: BaseballGame, now: number): V2Event {
  const start = Math.floor(now / HOUR) * HOUR + game.startsInHours * HOUR;
  return {
    id: game.id,
    startTimestamp: start / 1000,
    status: { code: 0, type: 'notstarted', description: 'Not started' },
    homeTeam: { id: game.home.id, name: game.home.name },
    awayTeam: { id: game.away.id, name: game.away.name },
    tournament: {
      id: game.league.id * 10,
      name: game.league.name,
      uniqueTournament: { id: game.league.id, name: game.league.name },
    },
    season: { id: 70_000 + game.league.id, name: '2026', year: '2026' },
  };
}

export function register(router: Router, fixtures: Fixtures): void {
  const games = fixtures.otherSports.baseball.games;
  const polls = new Map<number, number>();
  router.add({
    method: 'GET',
    template: '/v2/baseball/api/match/:id',
    auth: true,
    counted: true,
    handler: ({ params, now }) => {
      const game = games.find((g) => g.id === Number(params['id']));
      return game === undefined ? errorResult(404, 'Event not found') : json(200, { event: baseballEvent(game, now) });
    },
  });
  router.add({
    method: 'GET',
    template: '/v2/baseball/api/match/:id/lineups',
    auth: true,
    counted: true,
    handler: ({ params }) => {
      const game = games.find((g) => g.id === Number(params['id']));
      if (game === undefined || game.league.id !== baseballIds.majorLeague)
        return errorResult(404, 'Lineups not found');
      const poll = (polls.get(game.id) ?? 0) + 1;
      polls.set(game.id, poll);
      const confirmed = poll >= game.confirmsOnPoll;
      const side = (card: BaseballGame['lineups']['home']) =>
        confirmed ? card.confirmed : { players: [card.probablePitcher] };
      return json(200, { data: { confirmed, home: side(game.lineups.home), away: side(game.lineups.away) } });
    },
  });
}
