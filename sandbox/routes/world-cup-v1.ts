/**
 * World Cup V1 (spec 4.6, 2.6, 2.7): competition 5930 under `/api/v1/...`,
 * on the same base address as everything else (DESIGN.md assumption). All
 * need the key and spend the allowance. Payload shapes are the assumptions
 * written in src/upstream/routes/v1-world-cup.ts.
 *
 * Control route (harness only, never counted):
 * `POST /__sandbox/world-cup/hub-outage?part=standings&times=1` makes the
 * hub answer without that part (partial data, spec 4.6) for `times` calls.
 */
import type {
  V1CompetitorPayload,
  V1CompetitorsPayload,
  V1GamePayload,
  V1LineupsPayload,
  V1WorldCupBracketSlot,
  V1WorldCupGamePayload,
  V1WorldCupGroup,
  V1WorldCupGroupsPayload,
  V1WorldCupHubPayload,
  V1WorldCupMatchCompetitor,
  V1WorldCupMatchesPayload,
  V1WorldCupOddsPayload,
  V1WorldCupStandingsPayload,
} from '../../src/upstream/routes/v1-world-cup.js';
import { V1StatusGroup } from '../../src/upstream/routes/v1-world-cup.js';
import type { Fixtures } from '../fixtures/build.js';
import type { HockeyV1Fixtures } from '../fixtures/hockey-v1.js';
import {
  v1Competitor,
  v1Lineup,
  v1Match,
  v1VenueOf,
  type WorldCupFixtures,
  type WorldCupMatch,
} from '../fixtures/world-cup.js';
import { errorResult, HttpError, json, type RouteContext, type RouteResult, type Router } from '../router.js';
import { optionalInteger } from './params.js';

const competitionId = 5930;

export function matchesPayload(wc: WorldCupFixtures): V1WorldCupMatchesPayload {
  return { competitionId, matches: wc.matches.map(v1Match) };
}

/** Group tables from the played and live games, rows sorted by position. */
export function standingsOf(wc: WorldCupFixtures): V1WorldCupGroup[] {
  return wc.groupLetters.map((letter, g) => {
    const rows = wc.teams
      .filter((team) => team.group === g)
      .map((team) => {
        const row = {
          competitor: v1Competitor(team),
          played: 0,
          wins: 0,
          draws: 0,
          losses: 0,
          goalsFor: 0,
          goalsAgainst: 0,
          points: 0,
        };
        for (const match of wc.matches) {
          if (match.state === 'scheduled' || match.group !== g) continue;
          const side = match.home === team ? 'home' : match.away === team ? 'away' : undefined;
          if (side === undefined) continue;
          const mine = (side === 'home' ? match.homeScore : match.awayScore) ?? 0;
          const theirs = (side === 'home' ? match.awayScore : match.homeScore) ?? 0;
          row.played += 1;
          row.goalsFor += mine;
          row.goalsAgainst += theirs;
          if (mine > theirs) row.wins += 1;
          else if (mine === theirs) row.draws += 1;
          else row.losses += 1;
        }
        row.points = row.wins * 3 + row.draws;
        return row;
      })
      .sort(
        (a, b) =>
          b.points - a.points ||
          b.goalsFor - b.goalsAgainst - (a.goalsFor - a.goalsAgainst) ||
          b.goalsFor - a.goalsFor ||
          a.competitor.id - b.competitor.id,
      )
      .map((row, i) => ({ position: i + 1, ...row }));
    return { groupNum: g + 1, name: `Group ${letter}`, rows };
  });
}

function groupsPayload(wc: WorldCupFixtures): V1WorldCupGroupsPayload {
  return {
    competitionId,
    groups: wc.groupLetters.map((letter, g) => ({
      groupNum: g + 1,
      name: `Group ${letter}`,
      competitors: wc.teams.filter((team) => team.group === g).map(v1Competitor),
    })),
  };
}

function brackets(wc: WorldCupFixtures): V1WorldCupBracketSlot[] {
  const perRound = new Map<number, number>();
  return wc.matches
    .filter((match) => match.round >= 4)
    .map((match) => {
      const slot = (perRound.get(match.round) ?? 0) + 1;
      perRound.set(match.round, slot);
      const view = v1Match(match);
      const { score: _h, ...home } = view.homeCompetitor;
      const { score: _a, ...away } = view.awayCompetitor;
      return { roundNum: match.round, roundName: match.roundName, slot, gameId: match.v1Id, home, away };
    });
}

function hub(wc: WorldCupFixtures): V1WorldCupHubPayload {
  const payload: V1WorldCupHubPayload = { competitionId };
  const unavailable: NonNullable<V1WorldCupHubPayload['unavailable']> = [];
  const parts = {
    games: () => (payload.games = wc.matches.map(v1Match)),
    standings: () => (payload.standings = standingsOf(wc)),
    brackets: () => (payload.brackets = brackets(wc)),
  };
  for (const [part, fill] of Object.entries(parts) as Array<[keyof typeof parts, () => unknown]>) {
    const remaining = wc.hubOutage.get(part) ?? 0;
    if (remaining > 0) {
      wc.hubOutage.set(part, remaining - 1);
      unavailable.push(part);
    } else {
      fill();
    }
  }
  if (unavailable.length > 0) payload.unavailable = unavailable;
  return payload;
}

function oddsPayload(wc: WorldCupFixtures): V1WorldCupOddsPayload {
  return {
    competitionId,
    polls: wc.matches
      .filter((match) => match.home !== undefined && match.state !== 'finished')
      .map((match) => {
        const totalVotes = 1_000 + ((match.v1Id * 7919) % 90_000);
        const options = (['home', 'draw', 'away'] as const).map((option) => ({
          option,
          votes: Math.round((totalVotes * match.poll[option]) / 100),
          percentage: match.poll[option],
        }));
        return { gameId: match.v1Id, totalVotes, options };
      }),
  };
}

/** A hockey V1 game (fixtures/hockey-v1.ts) as V1's game detail: scheduled, never simulated. */
function hockeyGameDetail(hockey: HockeyV1Fixtures, raw: string | undefined): V1GamePayload | undefined {
  const game = /^\d+$/.test(raw ?? '') ? hockey.gameById.get(Number(raw)) : undefined;
  if (game === undefined) return undefined;
  const side = (id: number): V1WorldCupMatchCompetitor => {
    const team = hockey.leagues.flatMap((league) => league.teams).find((t) => t.id === id);
    return team === undefined
      ? { id, name: String(id), score: null }
      : { id, name: team.name, imageVersion: team.imageVersion, score: null };
  };
  return {
    game: {
      id: game.id,
      competitionId: game.competitionId,
      startTime: game.startTime,
      statusGroup: V1StatusGroup.Scheduled,
      statusText: 'Scheduled',
      roundNum: 1,
      roundName: 'Regular season',
      homeCompetitor: side(game.homeTeamId),
      awayCompetitor: side(game.awayTeamId),
    },
  };
}

function gameOf(wc: WorldCupFixtures, raw: string | undefined): WorldCupMatch {
  const match = /^\d+$/.test(raw ?? '') ? wc.matchByV1Id.get(Number(raw)) : undefined;
  if (match === undefined) throw new HttpError(404, 'Game not found');
  return match;
}

function lineupsOf(match: WorldCupMatch): V1LineupsPayload['lineups'] {
  if (match.home === undefined || match.away === undefined) return [];
  return [v1Lineup(match.home, match.v1Id), v1Lineup(match.away, match.v1Id)];
}

function get(router: Router, template: string, handler: (ctx: RouteContext) => RouteResult): void {
  router.add({ method: 'GET', template, auth: true, counted: true, handler });
}

export function register(router: Router, fixtures: Fixtures): void {
  const wc = fixtures.worldCup;
  const onlyWorldCup = (ctx: RouteContext, answer: () => RouteResult): RouteResult =>
    ctx.params['competitionId'] === String(competitionId) ? answer() : errorResult(404, 'Competition not found');

  get(router, '/api/v1/world-cup', () => json(200, hub(wc)));
  get(router, '/api/v1/world-cup/matches', () => json(200, matchesPayload(wc)));
  get(router, '/api/v1/world-cup/standings', () =>
    json(200, { competitionId, standings: standingsOf(wc) } satisfies V1WorldCupStandingsPayload),
  );
  get(router, '/api/v1/world-cup/groups', () => json(200, groupsPayload(wc)));
  get(router, '/api/v1/world-cup/odds', () => json(200, oddsPayload(wc)));
  get(router, '/api/v1/world-cup/game/:id', ({ params }) => {
    const match = gameOf(wc, params['id']);
    const payload: V1WorldCupGamePayload = {
      game: {
        ...v1Match(match),
        venue: v1VenueOf(match),
        lineups: lineupsOf(match),
        events: match.events,
        commentary: match.commentary,
      },
    };
    return json(200, payload);
  });

  get(router, '/api/v1/competition/:competitionId/matches', (ctx) =>
    onlyWorldCup(ctx, () => json(200, matchesPayload(wc))),
  );
  get(router, '/api/v1/competition/:competitionId/standings', (ctx) =>
    onlyWorldCup(ctx, () =>
      json(200, { competitionId, standings: standingsOf(wc) } satisfies V1WorldCupStandingsPayload),
    ),
  );
  get(router, '/api/v1/competition/:competitionId/groups', (ctx) =>
    onlyWorldCup(ctx, () => json(200, groupsPayload(wc))),
  );
  get(router, '/api/v1/competition/:competitionId/competitors', (ctx) =>
    onlyWorldCup(ctx, () =>
      json(200, { competitionId, competitors: wc.teams.map(v1Competitor) } satisfies V1CompetitorsPayload),
    ),
  );

  get(router, '/api/v1/game/:gameId', ({ params }) => {
    // V1 is one provider: its game detail (spec 2.7) also answers the hockey V1 games whose lines it serves.
    const hockey =
      /^\d+$/.test(params['gameId'] ?? '') && wc.matchByV1Id.has(Number(params['gameId']))
        ? undefined
        : hockeyGameDetail(fixtures.hockeyV1, params['gameId']);
    if (hockey !== undefined) return json(200, hockey);
    const match = gameOf(wc, params['gameId']);
    return json(200, { game: { ...v1Match(match), venue: v1VenueOf(match) } } satisfies V1GamePayload);
  });
  get(router, '/api/v1/game/:gameId/lineups', ({ params }) => {
    const match = gameOf(wc, params['gameId']);
    return json(200, { gameId: match.v1Id, lineups: lineupsOf(match) } satisfies V1LineupsPayload);
  });
  get(router, '/api/v1/competitor/:id', ({ params }) => {
    const team = /^\d+$/.test(params['id'] ?? '') ? wc.teamByV1Id.get(Number(params['id'])) : undefined;
    if (team === undefined) {
      // The shared world's clubs (fixtures/counterparts.ts) are V1 competitors too.
      const club = fixtures.counterparts.clubs.find(({ v1 }) => v1 !== undefined && String(v1.id) === params['id'])?.v1;
      if (club === undefined) return errorResult(404, 'Competitor not found');
      const payload: V1CompetitorPayload = {
        competitor: {
          id: club.id,
          name: club.name,
          ...(club.shortName === undefined ? {} : { shortName: club.shortName }),
          ...(club.country === undefined ? {} : { countryName: club.country }),
        },
      };
      return json(200, payload);
    }
    // Spec 4.6: no coach field here.
    const payload: V1CompetitorPayload = { competitor: { ...v1Competitor(team), countryName: team.name } };
    return json(200, payload);
  });

  router.add({
    method: 'POST',
    template: '/__sandbox/world-cup/hub-outage',
    auth: false,
    counted: false,
    handler: ({ query }) => {
      const part = query.get('part');
      if (part !== 'games' && part !== 'standings' && part !== 'brackets') {
        throw new HttpError(400, 'part must be games, standings or brackets');
      }
      wc.hubOutage.set(part, optionalInteger(query, 'times') ?? 1);
      return json(200, { part, times: wc.hubOutage.get(part) });
    },
  });
}
