/**
 * Motorsport V2 (spec 2.13, 4.9): season stages, stage detail and sub-stages
 * with a winner only; `/results`, `/classification`, `/standings`, `/laps`,
 * `/startgrid` 404 for stages; the constructor table at season level. Paths
 * and payloads assumed as in src/upstream/routes/v2-motorsport.ts.
 */
import type { Fixtures } from '../fixtures/build.js';
import { errorResult, json, type RouteContext, type RouteResult, type Router } from '../router.js';

export function register(router: Router, fixtures: Fixtures): void {
  const { motorsport } = fixtures.otherSports;
  const add = (template: string, handler: (ctx: RouteContext) => RouteResult) =>
    router.add({ method: 'GET', template, auth: true, counted: true, handler });

  // Motorsport
  const stageById = (id: number) =>
    motorsport.stages.find((s) => s.id === id) ?? [...motorsport.substages.values()].flat().find((s) => s.id === id);
  add('/v2/motorsport/api/season/:sid/stages', ({ params }) =>
    Number(params['sid']) === motorsport.stages[0]?.season?.id
      ? json(200, { stages: motorsport.stages })
      : errorResult(404, 'Season not found'),
  );
  add('/v2/motorsport/api/season/:sid/standings/constructors', ({ params }) =>
    Number(params['sid']) === motorsport.stages[0]?.season?.id
      ? json(200, { standings: motorsport.constructorStandings })
      : errorResult(404, 'Season not found'),
  );
  add('/v2/motorsport/api/stage/:id', ({ params }) => {
    const stage = stageById(Number(params['id']));
    return stage === undefined ? errorResult(404, 'Stage not found') : json(200, { stage });
  });
  add('/v2/motorsport/api/stage/:id/substages', ({ params }) => {
    const id = Number(params['id']);
    return stageById(id) === undefined
      ? errorResult(404, 'Stage not found')
      : json(200, { stages: motorsport.substages.get(id) ?? [] });
  });
  for (const missing of ['results', 'classification', 'standings', 'laps', 'startgrid']) {
    add(`/v2/motorsport/api/stage/:id/${missing}`, () => errorResult(404, 'Not found'));
  }
}
