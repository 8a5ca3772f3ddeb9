import { Repeater, SlidingBuffer } from 'graphql-yoga';
import type { Resolvers } from '../src/generated/resolvers-types.js';
import type { OddsChangeView, OddsSnapshotView } from '../src/live/hub.js';
import { ErrorCode, GatewayError } from '../src/upstream/errors.js';

/** Letters, digits, `-`, `_`: anything else cannot name an odds channel (`match:{id}:odds`). */
const MATCH_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A slow subscriber only needs the newest snapshots: older ones are dropped
 * from its queue rather than held in memory.
 */
const SNAPSHOT_QUEUE = 16;

function matchIdArg(matchId: string): string {
  if (!MATCH_ID.test(matchId)) {
    throw new GatewayError(ErrorCode.BadUserInput, 'matchId must be 1 to 64 letters, digits, "-" or "_".');
  }
  return matchId;
}

export const oddsResolvers: Resolvers = {
  Subscription: {
    oddsSnapshots: {
      subscribe: (_, { matchId }, ctx) => {
        const id = matchIdArg(matchId);
        return new Repeater<OddsSnapshotView>(async (push, stop) => {
          const off = ctx.services.live.odds.onSnapshot(id, (snapshot) => void push(snapshot));
          await stop;
          off();
        }, new SlidingBuffer(SNAPSHOT_QUEUE));
      },
      resolve: (snapshot: OddsSnapshotView) => snapshot,
    },
    oddsChanges: {
      subscribe: (_, { matchId }, ctx) => {
        const id = matchIdArg(matchId);
        // Changes are never dropped: a gap would break the promise of the stream.
        return new Repeater<OddsChangeView>(async (push, stop) => {
          const off = ctx.services.live.odds.onChanges(id, (changes) => {
            for (const change of changes) void push(change);
          });
          await stop;
          off();
        });
      },
      resolve: (change: OddsChangeView) => change,
    },
  },
  OddsSnapshot: {
    eventId: (snapshot) => snapshot.frame.eventId,
    liveStreamUrl: (snapshot) => snapshot.frame.liveStreamUrl,
    timestamp: (snapshot) => new Date(snapshot.frame.timestamp),
    timestampMs: (snapshot) => snapshot.frame.timestamp,
    receivedAt: (snapshot) => new Date(snapshot.receivedAt),
    markets: (snapshot) => [...snapshot.frame.markets],
    raw: (snapshot) => snapshot.frame.raw,
  },
  OddsMarket: {
    marketId: (market) => market.key,
    raw: (market) => market.raw,
  },
  OddsChange: {
    marketId: (change) => change.marketKey,
    timestamp: (change) => new Date(change.timestamp),
    receivedAt: (change) => new Date(change.receivedAt),
  },
};
