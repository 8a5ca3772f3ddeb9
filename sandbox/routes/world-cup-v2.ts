/**
 * World Cup V2 football (spec 4.7), base `/v2/football`: tournament, season
 * info, teams, groups, upcoming matches 30 per page, rounds, knockout, and
 * the teams of any tournament season. Key and allowance on every route.
 * Payload shapes: the assumptions in src/upstream/routes/v2-football.ts.
 */
import type {
  V2GroupsPayload,
  V2KnockoutPayload,
  V2RoundEventsPayload,
  V2RoundsPayload,
  V2TeamsPayload,
  V2WorldCupInfoPayload,
  V2WorldCupPayload,
} from '../../src/upstream/routes/v2-football.js';
import type { Fixtures } from '../fixtures/build.js';
import { worldCupIds } from '../fixtures/world-cup.js';
import { upcomingPage, v2Event, v2Team, worldCupSeason, worldCupUniqueTournament } from '../fixtures/world-cup-v2.js';
import { errorResult, json, type RouteContext, type RouteResult, type Router } from '../router.js';
import { standingsOf } from './world-cup-v1.js';
import { optionalInteger } from './params.js';

const BASE = '/v2/football/api';

/** The UTC day of an ISO instant: a data set may write its times with an offset. */
const utcDay = (iso: string | undefined): string =>
  iso === undefined ? '' : new Date(Date.parse(iso)).toISOString().slice(0, 10);

function get(router: Router, template: string, handler: (ctx: RouteContext) => RouteResult): void {
  router.add({ method: 'GET', template, auth: true, counted: true, handler });
}

export function register(router: Router, fixtures: Fixtures): void {
  const wc = fixtures.worldCup;
  const teamsPayload = (): V2TeamsPayload => ({ teams: wc.teams.map(v2Team) });
  const roundNames = [...new Map(wc.matches.map((m) => [m.round, m.roundName])).entries()];

  get(router, `${BASE}/world-cup-2026`, () =>
    json(200, { uniqueTournament: worldCupUniqueTournament, season: worldCupSeason } satisfies V2WorldCupPayload),
  );
  get(router, `${BASE}/world-cup-2026/info`, () => {
    const payload: V2WorldCupInfoPayload = {
      info: {
        season: worldCupSeason,
        hostCountries: [
          { name: 'United States', alpha2: 'US' },
          { name: 'Mexico', alpha2: 'MX' },
          { name: 'Canada', alpha2: 'CA' },
        ],
        numberOfTeams: 48,
        numberOfGroups: 12,
        numberOfMatches: wc.matches.length,
        format:
          '12 groups of 4; the top two of each group and the 8 best third-placed teams play a round of 32, then single-match knockout rounds.',
        startDate: utcDay(wc.matches[0]?.startTime),
        endDate: utcDay(wc.matches.at(-1)?.startTime),
      },
    };
    return json(200, payload);
  });
  get(router, `${BASE}/world-cup-2026/teams`, () => json(200, teamsPayload()));
  get(router, `${BASE}/world-cup-2026/groups`, () => {
    const payload: V2GroupsPayload = {
      groups: standingsOf(wc).map((group) => ({
        id: fixtures.dataset.family.id(70_000 + group.groupNum),
        name: group.name,
        rows: group.rows.map((row) => {
          const team = wc.teamByV1Id.get(row.competitor.id);
          return {
            position: row.position,
            team: { id: team?.v2Id ?? 0, name: row.competitor.name },
            matches: row.played,
            wins: row.wins,
            draws: row.draws,
            losses: row.losses,
            scoresFor: row.goalsFor,
            scoresAgainst: row.goalsAgainst,
            points: row.points,
          };
        }),
      })),
    };
    return json(200, payload);
  });
  get(router, `${BASE}/world-cup-2026/matches`, ({ query }) => {
    const page = optionalInteger(query, 'page') ?? 0;
    if (page < 0) return errorResult(400, 'page must be 0 or more');
    return json(200, upcomingPage(wc, page));
  });
  get(router, `${BASE}/world-cup-2026/matches/round/:round`, ({ params }) => {
    const round = Number(params['round']);
    const events = wc.matches.filter((m) => m.round === round).map((m) => v2Event(m, wc));
    return events.length === 0
      ? errorResult(404, 'Round not found')
      : json(200, { round, events } satisfies V2RoundEventsPayload);
  });
  get(router, `${BASE}/world-cup-2026/rounds`, () => {
    const rounds = roundNames.map(([round, name]) => ({
      round,
      name,
      slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      events: wc.matches.filter((m) => m.round === round).length,
    }));
    const current = wc.matches.find((m) => m.state !== 'finished')?.round ?? 1;
    const currentRound = rounds.find((r) => r.round === current) ?? rounds[0];
    return currentRound === undefined
      ? errorResult(404, 'Rounds not found')
      : json(200, { currentRound, rounds } satisfies V2RoundsPayload);
  });
  get(router, `${BASE}/world-cup-2026/knockout`, () => {
    const payload: V2KnockoutPayload = {
      knockout: {
        rounds: roundNames
          .filter(([round]) => round >= 4)
          .map(([round, name]) => ({
            round,
            name,
            blocks: wc.matches
              .filter((m) => m.round === round)
              .map((m, i) => {
                const event = v2Event(m, wc);
                return {
                  order: i + 1,
                  eventId: m.v2Id,
                  startTimestamp: event.startTimestamp,
                  homeTeam: event.homeTeam,
                  awayTeam: event.awayTeam,
                  homeSlot: m.homeSlot,
                  awaySlot: m.awaySlot,
                  finished: m.state === 'finished',
                };
              }),
          })),
      },
    };
    return json(200, payload);
  });
  get(router, `${BASE}/tournament/:tournamentId/season/:seasonId/teams`, ({ params }) => {
    if (
      params['tournamentId'] !== String(worldCupIds.v2UniqueTournamentId) ||
      params['seasonId'] !== String(worldCupIds.v2SeasonId)
    ) {
      return errorResult(404, 'Season not found');
    }
    return json(200, teamsPayload());
  });
}
