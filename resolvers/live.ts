import { Repeater, SlidingBuffer } from 'graphql-yoga';
import type { Resolvers } from '../src/generated/resolvers-types.js';
import { inProgress, type TickerSnapshot } from '../src/live/ticker.js';
import { v1WorldCupRoutes } from '../src/upstream/routes/v1-world-cup.js';

/** The live ticker: games in progress as a query (shared cache) and a subscription (one shared poll). */
export const liveResolvers: Resolvers = {
  Query: {
    liveTicker: async (_, __, ctx) => {
      const payload = await ctx.upstream.load(v1WorldCupRoutes.matches, {});
      return {
        games: inProgress(payload.matches),
        fetchedAt: Date.now(),
        pollIntervalMs: ctx.services.live.ticker.intervalMs(),
        stale: false,
      } satisfies TickerSnapshot;
    },
  },
  Subscription: {
    liveTicker: {
      subscribe: (_, __, ctx) =>
        new Repeater<TickerSnapshot>(async (push, stop) => {
          const off = ctx.services.live.ticker.subscribe((snapshot) => void push(snapshot));
          await stop;
          off();
        }, new SlidingBuffer(4)),
      resolve: (snapshot: TickerSnapshot) => snapshot,
    },
  },
  LiveTicker: {
    games: (snapshot) => [...snapshot.games],
    fetchedAt: (snapshot) => new Date(snapshot.fetchedAt),
    pollIntervalSeconds: (snapshot) => snapshot.pollIntervalMs / 1000,
  },
};
