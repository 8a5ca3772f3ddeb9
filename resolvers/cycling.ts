/**
 * V2 cycling: riders as teams, search and countries; the schedule routes the
 * spec documents as always empty answer empty with no upstream request.
 */
import type { Resolvers } from '../src/generated/resolvers-types.js';
import { integerId } from '../src/model/native-id.js';
import { tagType } from '../src/model/typename.js';
import { requireV2Sport } from '../src/model/v2-namespace.js';
import { ErrorCode, GatewayError } from '../src/upstream/errors.js';
import { v2CyclingRoutes } from '../src/upstream/routes/v2-cycling.js';
import { loadV2Team } from './v2.js';

const SLUG = 'cycling';

/** A date as the schedule routes take it: `YYYY-MM-DD`, checked though nothing is asked. */
function isoDate(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new GatewayError(ErrorCode.BadUserInput, 'date must be YYYY-MM-DD.');
  }
  return value;
}

export const cyclingResolvers: Resolvers = {
  V2: {
    cycling: (ns) => {
      requireV2Sport(ns, ['CYCLING'], 'cycling');
      return ns;
    },
  },
  V2Cycling: {
    rider: (_, { id }, ctx) => loadV2Team(ctx, SLUG, integerId(id, 'rider id')),
    search: async (_, { query }, ctx) => {
      const text = query.trim();
      if (text.length < 2 || text.length > 100)
        throw new GatewayError(ErrorCode.BadUserInput, 'query must be 2 to 100 characters.');
      const payload = await ctx.upstream.load(v2CyclingRoutes.search, { query: text });
      return payload.results.map((r) => tagType({ slug: SLUG, value: r.entity }, 'V2Team'));
    },
    countries: async (_, { all }, ctx) =>
      (await ctx.upstream.load(all === true ? v2CyclingRoutes.allCountries : v2CyclingRoutes.countries, {})).countries,
    // Spec 4.9: 200 with empty arrays on every date (known-gaps.ts `v2CyclingSchedule`).
    live: () => [],
    today: () => [],
    schedule: (_, { date }) => {
      isoDate(date);
      return [];
    },
    liveTournaments: () => [],
    scheduledTournaments: (_, { date }) => {
      isoDate(date);
      return [];
    },
  },
  V2CyclingCountry: {
    riders: (c) => c.riders ?? null,
  },
};
