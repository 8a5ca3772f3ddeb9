import { Repeater, SlidingBuffer } from 'graphql-yoga';
import { refusalError } from '../src/spend/spend-refusal.js';
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
        pollIntervalMs: ctx.live.ticker.intervalMs(),
        stale: false,
      } satisfies TickerSnapshot;
    },
  },
  Subscription: {
    liveTicker: {
      // A client whose budget cannot pay for one poll is refused here, before any request (src/spend/poll-payers.ts).
      subscribe: (_, __, ctx) => {
        const { ticker } = ctx.live;
        const refusal = ticker.refusalFor(ctx.clientName);
        if (refusal !== undefined) throw refusalError(refusal);
        return new Repeater<TickerSnapshot>(async (push, stop) => {
          const off = ticker.subscribe((snapshot) => void push(snapshot), ctx.clientName);
          await stop;
          off();
        }, new SlidingBuffer(4));
      },
      resolve: (snapshot: TickerSnapshot) => snapshot,
    },
  },
  LiveTicker: {
    games: (snapshot) => [...snapshot.games],
    fetchedAt: (snapshot) => new Date(snapshot.fetchedAt),
    pollIntervalSeconds: (snapshot) => snapshot.pollIntervalMs / 1000,
  },
};
