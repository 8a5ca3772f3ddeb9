/**
 * Aussie rules V2, the 13 endpoints of spec 4.5 (payload shapes assumed as
 * in src/upstream/routes/v2-aussie-rules.ts). Images are PNG bytes.
 */
import type { V2Event } from '../../src/upstream/routes/v2.js';
import { personSeasonStatistics, type AussieRulesFixtures } from '../fixtures/aussie-rules.js';
import type { Fixtures } from '../fixtures/build.js';
import { colourOf, pngImage } from '../fixtures/images-bytes.js';
import { eventPage } from '../fixtures/v2-events.js';
import { errorResult, json, type RouteContext, type RouteResult, type Router } from '../router.js';

const BASE = '/v2/aussie-rules/api';

export function register(router: Router, fixtures: Fixtures): void {
  const f = fixtures.otherSports.aussieRules;
  const get = (template: string, handler: (ctx: RouteContext, id: number) => RouteResult): void => {
    router.add({
      method: 'GET',
      template: `${BASE}${template}`,
      auth: true,
      counted: true,
      handler: (ctx) => handler(ctx, Number(ctx.params['id'])),
    });
  };
  const paged = (events: V2Event[], direction: 'last' | 'next', ctx: RouteContext): RouteResult => {
    const page = Number(ctx.params['page']);
    if (!Number.isInteger(page) || page < 0) return errorResult(404, 'Page not found');
    return json(200, eventPage(events, direction, page));
  };
  const coach = (id: number) => f.coaches.find((c) => c.id === id);
  const umpire = (id: number) => f.umpires.find((u) => u.id === id);
  const ground = (id: number) => f.grounds.find((g) => g.id === id);
  const image = (id: number): RouteResult => ({
    status: 200,
    body: pngImage(64, colourOf(id), { r: 240, g: 240, b: 240 }),
    contentType: 'image/png',
  });
  const missing = (what: string) => errorResult(404, `${what} not found`);
  const stats =
    (kind: 'manager' | 'referee') =>
    (ctx: RouteContext, id: number): RouteResult => {
      const found = personSeasonStatistics(f, kind, id, Number(ctx.params['tid']), Number(ctx.params['sid']));
      return found === undefined || found['games'] === 0 ? missing('Statistics') : json(200, { statistics: found });
    };
  const byTeam = (a: AussieRulesFixtures, teamId: number) =>
    a.events.filter((e) => e.homeTeam.id === teamId || e.awayTeam.id === teamId);

  // Manager (senior coach)
  get('/manager/:id', (_, id) => (coach(id) === undefined ? missing('Manager') : json(200, { manager: coach(id) })));
  get('/manager/:id/image', (_, id) => (coach(id) === undefined ? missing('Image') : image(id)));
  get('/manager/:id/career', (_, id) =>
    coach(id) === undefined ? missing('Manager') : json(200, { career: f.careers.get(id) ?? [] }),
  );
  get('/manager/:id/events/last/:page', (ctx, id) => {
    const teamId = coach(id)?.team?.id;
    return teamId === undefined ? missing('Manager') : paged(byTeam(f, teamId), 'last', ctx);
  });
  get('/manager/:id/tournament/:tid/season/:sid/statistics', stats('manager'));
  // Referee (umpire)
  get('/referee/:id', (_, id) => (umpire(id) === undefined ? missing('Referee') : json(200, { referee: umpire(id) })));
  get('/referee/:id/image', (_, id) => (umpire(id) === undefined ? missing('Image') : image(id)));
  get('/referee/:id/tournament/:tid/season/:sid/statistics', stats('referee'));
  for (const direction of ['last', 'next'] as const) {
    get(`/referee/:id/events/${direction}/:page`, (ctx, id) =>
      umpire(id) === undefined
        ? missing('Referee')
        : paged(
            f.events.filter((e) => f.umpiring.get(e.id)?.includes(id) === true),
            direction,
            ctx,
          ),
    );
    get(`/venue/:id/events/${direction}/:page`, (ctx, id) =>
      ground(id) === undefined
        ? missing('Venue')
        : paged(
            f.events.filter((e) => e.venue?.id === id),
            direction,
            ctx,
          ),
    );
  }
  // Venue (ground)
  get('/venue/:id', (_, id) => (ground(id) === undefined ? missing('Venue') : json(200, { venue: ground(id) })));
}
