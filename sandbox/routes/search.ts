/**
 * `/search` (spec 4.1: athlete IDs are found by player name). The parameter
 * names and the payload are assumptions shared with `upstream/routes/v1.ts`.
 */
import type { SearchHit, SearchPayload } from '../../src/upstream/routes/v1.js';
import type { Fixtures } from '../fixtures/build.js';
import { errorResult, json, type Router } from '../router.js';
import { fold } from './search-fold.js';

const MAX_RESULTS = 20;

export function register(router: Router, fixtures: Fixtures): void {
  const index = fixtures.searchIndex.map((hit) => ({ hit, key: fold(hit.name) }));
  router.add({
    method: 'GET',
    template: '/search',
    auth: true,
    counted: true,
    handler: ({ query }) => {
      const q = fold(query.get('q') ?? '');
      if (q === '') return errorResult(400, 'Query parameter "q" is required');
      const sport = query.get('sport');
      const matches = index.filter(({ hit, key }) => key.includes(q) && (sport === null || hit.sport === sport));
      // Stable sort: closer matches first, index order among equals.
      const ranked = matches.map((m) => ({ ...m, rank: rank(m.key, q) })).sort((a, b) => a.rank - b.rank);
      const payload: SearchPayload = {
        results: ranked.slice(0, MAX_RESULTS).map(({ hit }): SearchHit => ({ ...hit })),
      };
      return json(200, payload);
    },
  });
}

/** 0 exact, 1 name starts with the term, 2 a word starts with it, 3 anywhere. */
function rank(key: string, q: string): number {
  if (key === q) return 0;
  if (key.startsWith(q)) return 1;
  return key.includes(` ${q}`) ? 2 : 3;
}
