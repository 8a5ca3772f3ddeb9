/**
 * V2 managers on every sport (spec 4.5, 4.8): last events everywhere, career
 * on football only. Careers are never requested where the spec says they
 * 404: the answer is known, so no quota is spent on it.
 */
import type { Resolvers } from '../src/generated/resolvers-types.js';
import { v2EventConnection } from '../src/model/v2-event.js';
import { ErrorCode, GatewayError } from '../src/upstream/errors.js';
import { knownGap } from '../src/upstream/known-gaps.js';
import { v2ManagerRoutes } from '../src/upstream/routes/v2-managers.js';

/** V2 slugs whose `/career` and `/career-history` answer 404 (spec 4.8). */
export const CAREER_404_SLUGS: ReadonlySet<string> = new Set([
  'baseball',
  'handball',
  'rugby',
  'basketball',
  'hockey',
  'volleyball',
  'american-football',
]);

export const managerResolvers: Resolvers = {
  V2Manager: {
    lastEvents: ({ slug, value }, args, ctx) =>
      v2EventConnection(
        slug,
        (page) => ctx.upstream.load(v2ManagerRoutes.lastEvents, { sport: slug, id: value.id, page }),
        args,
      ),
    career: async ({ slug, value }, _, ctx) => {
      if (CAREER_404_SLUGS.has(slug)) throw knownGap('managerCareerOutsideFootball', `not on ${slug}`);
      if (slug !== 'football') {
        // Aussie rules documents its own senior-coach career route (spec 4.5), served by its namespace.
        const alternative =
          slug === 'aussie-rules'
            ? 'v2(sport: AUSSIE_RULES) { aussieRules { coach(id:) { career } } }'
            : 'v2(sport: FOOTBALL) { manager(id:) { career } }';
        throw new GatewayError(ErrorCode.NotSupported, `Manager careers exist on V2 football only, not on ${slug}.`, {
          version: 'v2',
          alternative,
        });
      }
      return (await ctx.upstream.load(v2ManagerRoutes.footballCareer, { id: value.id })).career;
    },
  },
  V2CareerStint: {
    end: (stint) => stint.end ?? null,
    current: (stint) => stint.end == null, // absent or null: the current job
  },
};
