/**
 * V6 baseball (spec 4.9): match, team-stats and odds; the six sub-resources
 * answer 501 with a body naming the limitation and the alternative (spec 7).
 * Prefix `/v6/baseball/api/v1/match/:matchId` assumed from V6 football's.
 */
import { v6BaseballUnsupported } from '../../src/upstream/routes/v6-baseball.js';
import type { Fixtures } from '../fixtures/build.js';
import { errorResult, json, type Router } from '../router.js';

const BASE = '/v6/baseball/api/v1/match/:matchId';

export function register(router: Router, fixtures: Fixtures): void {
  const f = fixtures.otherSports.baseballV6;
  const add = (suffix: string, answer: (matchId: string) => unknown): void => {
    router.add({
      method: 'GET',
      template: `${BASE}${suffix}`,
      auth: true,
      counted: true,
      handler: ({ params }) => {
        const matchId = params['matchId'] ?? '';
        const body = answer(matchId);
        return body === undefined ? errorResult(404, 'Match not found') : json(200, body);
      },
    });
  };
  add('', (id) => {
    const match = f.matches.find((m) => m.id === id);
    return match === undefined ? undefined : { match };
  });
  add('/team-stats', (id) => f.teamStats.get(id));
  add('/odds', (id) => f.odds.get(id));
  for (const sub of v6BaseballUnsupported) {
    router.add({
      method: 'GET',
      template: `${BASE}/${sub}`,
      auth: true,
      counted: true,
      handler: () =>
        json(501, {
          error: `Baseball ${sub} is not available on V6`,
          alternative: sub === 'lineups' ? 'Use V2 /api/match/{matchId}/lineups' : 'Use V2 baseball routes',
        }),
    });
  }
}
