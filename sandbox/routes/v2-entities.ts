/**
 * The generic V2 entity routes (spec 4.3, 4.8): team, player, tournament
 * (by `uniqueTournament.id`) and manager details on every V2 sport, served
 * from the V2 registry. Unknown sport slug or ID: 404.
 */
import type { Fixtures } from '../fixtures/build.js';
import type { V2SportEntities } from '../fixtures/v2-registry.js';
import { errorResult, json, type RouteContext, type RouteResult, type Router } from '../router.js';

function entity(
  fixtures: Fixtures,
  pick: (entities: V2SportEntities) => Map<number, unknown>,
  wrap: string,
  notFound: string,
): (ctx: RouteContext) => RouteResult {
  return ({ params }) => {
    const sport = params['sport'] ?? '';
    const id = Number(params['id']);
    if (!fixtures.v2.has(sport) || !/^\d+$/.test(params['id'] ?? '')) return errorResult(404, notFound);
    const found = pick(fixtures.v2.sport(sport)).get(id);
    return found === undefined ? errorResult(404, notFound) : json(200, { [wrap]: found });
  };
}

export function register(router: Router, fixtures: Fixtures): void {
  const routes: Array<[string, (e: V2SportEntities) => Map<number, unknown>, string, string]> = [
    ['/v2/:sport/api/teams/:id', (e) => e.teams, 'team', 'Team not found'],
    ['/v2/:sport/api/players/:id', (e) => e.players, 'player', 'Player not found'],
    ['/v2/:sport/api/tournaments/:id', (e) => e.tournaments, 'uniqueTournament', 'Tournament not found'],
    ['/v2/:sport/api/managers/:id', (e) => e.managers, 'manager', 'Manager not found'],
  ];
  for (const [template, pick, wrap, notFound] of routes) {
    router.add({ method: 'GET', template, auth: true, counted: true, handler: entity(fixtures, pick, wrap, notFound) });
  }
}
