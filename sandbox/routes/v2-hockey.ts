/**
 * Hockey V2 team routes (spec 4.4; paths beyond the team detail assumed as
 * in src/upstream/routes/v2-hockey.ts) and per-match statistics. The
 * team-statistics routes 404 for every competition, as the spec says.
 */
import type { Fixtures } from '../fixtures/build.js';
import type { HockeyV2Fixtures } from '../fixtures/hockey-v2.js';
import { eventPage } from '../fixtures/v2-events.js';
import { errorResult, json, type RouteContext, type RouteResult, type Router } from '../router.js';

type Handler = (ctx: RouteContext, hockey: HockeyV2Fixtures, teamId: number) => RouteResult;

export function register(router: Router, fixtures: Fixtures): void {
  const hockey = fixtures.otherSports.hockeyV2;
  const team = (suffix: string, handler: Handler): void => {
    router.add({
      method: 'GET',
      template: `/v2/hockey/api/teams/:id${suffix}`,
      auth: true,
      counted: true,
      handler: (ctx) => {
        const id = Number(ctx.params['id']);
        if (!hockey.teams.some((t) => t.id === id)) return errorResult(404, 'Team not found');
        return handler(ctx, hockey, id);
      },
    });
  };
  const teamEvents = (h: HockeyV2Fixtures, id: number) =>
    h.events.filter((e) => e.homeTeam.id === id || e.awayTeam.id === id);

  team('/players', (_, h, id) => json(200, { players: h.rosters.get(id) ?? [] }));
  for (const direction of ['last', 'next'] as const) {
    team(`/events/${direction}/:page`, (ctx, h, id) => {
      const page = Number(ctx.params['page']);
      if (!Number.isInteger(page) || page < 0) return errorResult(404, 'Page not found');
      return json(200, eventPage(teamEvents(h, id), direction, page));
    });
  }
  team('/near-events', (_, h, id) => {
    const events = teamEvents(h, id);
    const previousEvent = eventPage(events, 'last', 0).events[0];
    const nextEvent = eventPage(events, 'next', 0).events[0];
    return json(200, {
      ...(previousEvent === undefined ? {} : { previousEvent }),
      ...(nextEvent === undefined ? {} : { nextEvent }),
    });
  });
  team('/unique-tournaments', (_, h) => json(200, { uniqueTournaments: [h.uniqueTournament] }));
  team('/performance', (_, h, id) => {
    const finished = teamEvents(h, id)
      .filter((e) => e.status.type === 'finished')
      .sort((a, b) => a.startTimestamp - b.startTimestamp);
    const form = finished.map((e) => {
      const home = e.homeTeam.id === id;
      const own = (home ? e.homeScore?.current : e.awayScore?.current) ?? 0;
      const other = (home ? e.awayScore?.current : e.homeScore?.current) ?? 0;
      // A one-goal loss counts as decided in overtime in this sandbox.
      return own > other ? 'W' : other - own === 1 ? 'OTL' : 'L';
    });
    return json(200, {
      form: form.slice(-5),
      record: {
        played: form.length,
        wins: form.filter((f) => f === 'W').length,
        losses: form.filter((f) => f === 'L').length,
        overtimeLosses: form.filter((f) => f === 'OTL').length,
      },
    });
  });
  team('/featured-event', (_, h, id) => {
    const next = eventPage(teamEvents(h, id), 'next', 0).events[0] ?? eventPage(teamEvents(h, id), 'last', 0).events[0];
    return next === undefined ? errorResult(404, 'No featured event') : json(200, { featuredEvent: next });
  });
  const seasons = (h: HockeyV2Fixtures) => [{ uniqueTournament: h.uniqueTournament, seasons: h.seasons }];
  team('/player-statistics/seasons', (_, h) => json(200, { uniqueTournamentSeasons: seasons(h) }));
  team('/standings/seasons', (_, h) => json(200, { tournamentSeasons: seasons(h) }));
  // Spec 4.4: these 404 for ice hockey, for every competition.
  team('/team-statistics/seasons', () => errorResult(404, 'Not found'));
  team('/tournament/:tid/season/:sid/statistics', () => errorResult(404, 'Not found'));

  router.add({
    method: 'GET',
    template: '/v2/hockey/api/match/:id/statistics',
    auth: true,
    counted: true,
    handler: ({ params }) => {
      const stats = hockey.matchStatistics.get(Number(params['id']));
      return stats === undefined ? errorResult(404, 'Statistics not found') : json(200, stats);
    },
  });
  router.add({
    method: 'GET',
    template: '/v2/hockey/api/match/:id/player-statistics',
    auth: true,
    counted: true,
    handler: ({ params }) => {
      const stats = hockey.playerStatistics.get(Number(params['id']));
      return stats === undefined ? errorResult(404, 'Player statistics not found') : json(200, stats);
    },
  });
}
