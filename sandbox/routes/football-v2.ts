/**
 * V2 football discovery (spec 4.8), base `/v2/football`: the flat catalogue
 * (6,400 competitions), seasons per competition (depth by tier), countries,
 * competitions of a category, leagues of a country, live and scheduled
 * competitions, and football lineups. Key and allowance on every route.
 */
import type {
  V2CataloguePayload,
  V2CategoryTournamentsPayload,
  V2CountriesPayload,
  V2LeaguesPayload,
  V2LineupSide,
  V2LineupsPayload,
  V2SeasonsPayload,
  V2TournamentListPayload,
} from '../../src/upstream/routes/v2-football.js';
import type { Fixtures } from '../fixtures/build.js';
import type { WorldCupTeam } from '../fixtures/world-cup.js';
import { errorResult, json, type RouteContext, type RouteResult, type Router } from '../router.js';

const BASE = '/v2/football/api';

function get(router: Router, template: string, handler: (ctx: RouteContext) => RouteResult): void {
  router.add({ method: 'GET', template, auth: true, counted: true, handler });
}

function lineupSide(team: WorldCupTeam): V2LineupSide {
  return {
    formation: '4-3-3',
    players: team.players.slice(0, 18).map((p, i) => ({
      player: { id: p.v2Id, name: p.name, position: p.position.charAt(0) },
      shirtNumber: p.jerseyNumber,
      position: p.position.charAt(0),
      substitute: i >= 11,
    })),
    manager: { id: team.coach.v2ManagerId, name: team.coach.name },
  };
}

export function register(router: Router, fixtures: Fixtures): void {
  const catalogue = fixtures.football.catalogue;
  const wc = fixtures.worldCup;

  get(router, `${BASE}/tournaments`, () =>
    json(200, { tournaments: [...catalogue.tournaments] } satisfies V2CataloguePayload),
  );
  get(router, `${BASE}/tournaments/:id/seasons`, ({ params }) => {
    const tournament = catalogue.tournamentById.get(Number(params['id']));
    return tournament === undefined
      ? errorResult(404, 'Tournament not found')
      : json(200, { seasons: catalogue.seasonsOf(tournament) } satisfies V2SeasonsPayload);
  });
  get(router, `${BASE}/countries`, () =>
    json(200, { countries: [...catalogue.countries] } satisfies V2CountriesPayload),
  );
  get(router, `${BASE}/countries/all`, () =>
    json(200, {
      countries: [...catalogue.countries, ...catalogue.countriesWithoutFootball],
    } satisfies V2CountriesPayload),
  );
  get(router, `${BASE}/categories/:categoryId/tournaments`, ({ params }) => {
    const id = Number(params['categoryId']);
    const category = catalogue.categories.find((c) => c.id === id);
    if (category === undefined) return errorResult(404, 'Category not found');
    return json(200, {
      category,
      tournaments: [...(catalogue.byCategory.get(id) ?? [])],
    } satisfies V2CategoryTournamentsPayload);
  });
  get(router, `${BASE}/leagues`, ({ query }) => {
    const slug = query.get('country') ?? '';
    const country = catalogue.countries.find((c) => c.slug === slug);
    if (country === undefined) return errorResult(404, 'Country not found');
    const leagues = (catalogue.byCategory.get(country.categoryId ?? -1) ?? []).filter((t) => (t.tier ?? 9) <= 4);
    return json(200, { country: slug, leagues } satisfies V2LeaguesPayload);
  });
  get(router, `${BASE}/live-tournaments`, () =>
    json(200, {
      tournaments: catalogue.liveTournamentIds.flatMap((id) => catalogue.tournamentById.get(id) ?? []),
    } satisfies V2TournamentListPayload),
  );
  get(router, `${BASE}/scheduled-tournaments/:date`, ({ params }) => {
    const date = params['date'] ?? '';
    if (!/^\d{4}-\d\d-\d\d$/.test(date)) return errorResult(400, 'date must be YYYY-MM-DD');
    return json(200, { tournaments: catalogue.scheduledOn(date) } satisfies V2TournamentListPayload);
  });
  get(router, `${BASE}/match/:matchId/lineups`, ({ params }) => {
    const match = wc.matchByV2Id.get(Number(params['matchId']));
    if (match === undefined || match.home === undefined || match.away === undefined)
      return errorResult(404, 'Lineups not found');
    const payload: V2LineupsPayload = {
      data: { confirmed: match.state !== 'scheduled', home: lineupSide(match.home), away: lineupSide(match.away) },
    };
    return json(200, payload);
  });
}
