/**
 * The `v4` namespace: multi-bookmaker odds over REST, with V4's own slugs.
 */
import type { Resolvers } from '../src/generated/resolvers-types.js';
import { namespace } from '../src/model/namespace.js';
import { integerId } from '../src/model/native-id.js';
import { slugOn, sportChoice } from '../src/model/sport-catalogue.js';
import { v4Routes, type V4OddsPayload } from '../src/upstream/routes/v4.js';

function bestPrices(odds: V4OddsPayload, market: string) {
  const best = new Map<string, { outcome: string; price: number; point: number | null; bookmaker: string }>();
  for (const bookmaker of odds.bookmakers) {
    for (const m of bookmaker.markets) {
      if (m.key !== market || m.suspended === true) continue;
      for (const o of m.outcomes) {
        // Spread and total prices compare only at the same line.
        const key = `${o.name}@${o.point ?? ''}`;
        const current = best.get(key);
        if (current === undefined || o.price > current.price)
          best.set(key, { outcome: o.name, price: o.price, point: o.point ?? null, bookmaker: bookmaker.name });
      }
    }
  }
  return [...best.values()];
}

export const v4Resolvers: Resolvers = {
  Query: {
    v4: () => namespace('v4'),
  },
  V4: {
    odds: async (_, args, ctx) => {
      const choice = sportChoice(args);
      const eventId = integerId(args.eventId, 'event id');
      return ctx.upstream.load(v4Routes.odds, { sport: await slugOn(ctx, choice, 'v4'), eventId });
    },
  },
  V4EventOdds: {
    eventId: (o) => String(o.eventId),
    homeTeam: (o) => o.homeTeam ?? null,
    awayTeam: (o) => o.awayTeam ?? null,
    best: (o, { market }) => bestPrices(o, market),
    raw: (o) => o,
  },
  V4Bookmaker: {
    lastUpdate: (b) => new Date(b.lastUpdate),
  },
  V4Market: {
    suspended: (m) => m.suspended === true,
  },
  V4Outcome: {
    point: (o) => o.point ?? null,
  },
};
