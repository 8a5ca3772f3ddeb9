/**
 * `/v2/{sport}/api/search?q=` (spec 4.3: `/search` finds canonical IDs by
 * name): the sport's teams and tournaments from the V2 registry whose name
 * or short name holds the term. Cycling has its own route (routes/v2-cycling.ts),
 * which the router prefers as the more literal path. Payload assumed as in
 * src/upstream/routes/v2.ts (`{ results: [{ type, entity }] }`, as cycling's).
 */
import type { V2SearchPayload } from '../../src/upstream/routes/v2.js';
import type { Fixtures } from '../fixtures/build.js';
import { errorResult, json, type Router } from '../router.js';
import { fold } from './search-fold.js';

const MAX_RESULTS = 20;

export function register(router: Router, fixtures: Fixtures): void {
  router.add({
    method: 'GET',
    template: '/v2/:sport/api/search',
    auth: true,
    counted: true,
    handler: ({ params, query }) => {
      const slug = params['sport'] ?? '';
      if (!fixtures.v2.has(slug)) return errorResult(404, 'Sport not found');
      const q = fold(query.get('q') ?? '');
      if (q.length < 2) return errorResult(400, 'Query parameter "q" is required');
      const { teams, tournaments, players } = fixtures.v2.sport(slug);
      const holds = (...names: Array<string | undefined>): boolean =>
        names.some((name) => name !== undefined && fold(name).includes(q));
      const results: V2SearchPayload['results'] = [
        ...[...teams.values()]
          .filter((t) => holds(t.name, t.shortName))
          .map((entity) => ({ type: 'team' as const, entity })),
        ...[...tournaments.values()]
          .filter((t) => holds(t.name))
          .map((entity) => ({ type: 'tournament' as const, entity })),
        ...[...players.values()].filter((p) => holds(p.name)).map((entity) => ({ type: 'player' as const, entity })),
      ];
      return json(200, { results: results.slice(0, MAX_RESULTS) } satisfies V2SearchPayload);
    },
  });
}
