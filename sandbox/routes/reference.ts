/**
 * `/reference/sports` (spec 4.9): the slug catalogue. No key, no quota.
 */
import type { SportsReferencePayload } from '../../src/upstream/routes/reference.js';
import type { Fixtures } from '../fixtures/build.js';
import { json, type Router } from '../router.js';

export function register(router: Router, fixtures: Fixtures): void {
  const payload: SportsReferencePayload = { sports: [...fixtures.sports] };
  router.add({
    method: 'GET',
    template: '/reference/sports',
    auth: false,
    counted: false,
    handler: () => json(200, payload),
  });
}
