/**
 * V3 (spec 4.9): `/v3/{sport}/{window}` by V3's own slugs (`water-polo`;
 * `waterpolo` is V2's spelling and 404s here), the globals `/v3/sports`,
 * `/v3/match/{id}`, `/v3/search?q=`, and the cycling feed at
 * `/api/v1/cycling/{window}` (the sandbox serves `{v3_cycling_base_url}` at
 * its own root). Payload shapes assumed as in src/upstream/routes/v3.ts.
 */
import type { Fixtures } from '../fixtures/build.js';
import { v3Windows } from '../fixtures/v3.js';
import type { V3SearchHit, V3WindowName } from '../../src/upstream/routes/v3.js';
import { errorResult, json, type Router } from '../router.js';
import { fold } from './search-fold.js';

const isWindow = (w: string | undefined): w is V3WindowName => v3Windows.includes(w as V3WindowName);

export function register(router: Router, fixtures: Fixtures): void {
  const v3 = fixtures.otherSports.v3;
  const add = (template: string, handler: Parameters<Router['add']>[0]['handler']) =>
    router.add({ method: 'GET', template, auth: true, counted: true, handler });

  add('/v3/sports', () =>
    json(200, {
      sports: fixtures.sports.filter((s) => s.slugs.v3 !== null).map((s) => ({ slug: s.slugs.v3, name: s.name })),
    }),
  );
  add('/v3/match/:id', ({ params }) => {
    const match = v3.matches.get(Number(params['id']));
    return match === undefined ? errorResult(404, 'Match not found') : json(200, { match });
  });
  add('/v3/search', ({ query }) => {
    const q = fold(query.get('q') ?? '');
    if (q.length < 2) return errorResult(400, 'Query parameter "q" is required');
    const results: V3SearchHit[] = [];
    const add = (hit: V3SearchHit): void => {
      if (fold(hit.name).includes(q) && !results.some((r) => r.type === hit.type && r.id === hit.id)) results.push(hit);
    };
    for (const match of v3.matches.values())
      for (const team of [match.homeTeam, match.awayTeam])
        add({ type: 'team', id: team.id, name: team.name, sport: match.sport });
    // The shared world (fixtures/counterparts.ts): V3's spelling of clubs and leagues, no country (V3 hits carry none).
    for (const { v3: club } of fixtures.counterparts.clubs)
      if (club !== undefined) add({ type: 'team', id: club.id, name: club.name, sport: 'football' });
    for (const { v3: league } of fixtures.counterparts.competitions)
      if (league !== undefined) add({ type: 'league', id: league.id, name: league.name, sport: 'football' });
    return json(200, { results: results.slice(0, 20) });
  });
  add('/v3/:sport/:window', ({ params }) => {
    if (!isWindow(params['window'])) return errorResult(404, 'Not found');
    const leagues = v3.windows.get(`${params['sport'] ?? ''}/${params['window']}`);
    return leagues === undefined ? errorResult(404, 'Sport not found') : json(200, { leagues });
  });
  add('/api/v1/cycling/:window', ({ params }) => {
    const window = params['window'];
    return isWindow(window) ? json(200, { leagues: v3.cycling.get(window) ?? [] }) : errorResult(404, 'Not found');
  });
}
