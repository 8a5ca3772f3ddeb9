/**
 * V6 football (spec 2.10, 2.11, 4.9): the stat-ID mapping (no key, not
 * counted) and team statistics of a match (key, counted).
 *
 * Assumptions shared with src/upstream/routes/v6-football.ts: the mapping
 * lives at `/v6/football/reference/team-stats`; team statistics at
 * `/v6/football/api/v1/match/{matchId}/team-stats`, stamped with the
 * `mappingVersion` they were written against.
 *
 * Control route (harness only): `POST /__sandbox/v6/mapping-version`
 * publishes the next mapping version (or `?version=N`, if newer) and answers
 * `{ "version": "N" }`.
 */
import type { V6TeamStatsPayload } from '../../src/upstream/routes/v6-football.js';
import type { Fixtures } from '../fixtures/build.js';
import { errorResult, json, type Router } from '../router.js';
import { optionalInteger } from './params.js';

export function register(router: Router, fixtures: Fixtures): void {
  const v6 = fixtures.football.v6;

  router.add({
    method: 'GET',
    template: '/v6/football/reference/team-stats',
    auth: false,
    counted: false,
    handler: () => json(200, v6.mapping.payload()),
  });

  router.add({
    method: 'GET',
    template: '/v6/football/api/v1/match/:matchId/team-stats',
    auth: true,
    counted: true,
    handler: ({ params }) => {
      const stats = v6.statsByMatchId.get(params['matchId'] ?? '');
      if (stats === undefined) return errorResult(404, 'Match not found');
      const payload: V6TeamStatsPayload = {
        matchId: stats.matchId,
        mappingVersion: String(v6.mapping.version),
        teams: stats.teams,
      };
      return json(200, payload);
    },
  });

  router.add({
    method: 'POST',
    template: '/__sandbox/v6/mapping-version',
    auth: false,
    counted: false,
    handler: ({ query }) => json(200, { version: String(v6.mapping.bump(optionalInteger(query, 'version'))) }),
  });
}
