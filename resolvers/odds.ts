import type { Resolvers } from '../src/generated/resolvers-types.js';
import { clientIdentity } from '../src/access/client-identity.js';
import type { OddsChangeView, OddsSnapshotView } from '../src/live/hub.js';
import { isOddsMatchId } from '../src/upstream/routes/odds-socket.js';
import { MemberQueue } from '../src/streams/member-queue.js';
import { ErrorCode, GatewayError } from '../src/upstream/errors.js';

/**
 * A slow subscriber only needs the newest snapshots: older ones are dropped
 * from its queue rather than held in memory.
 */
const SNAPSHOT_QUEUE = 16;

/** Checked before the hub is asked: an ID the odds channel cannot carry never reaches the upstream. */
function matchIdArg(matchId: string): string {
  if (!isOddsMatchId(matchId)) {
    throw new GatewayError(
      ErrorCode.BadUserInput,
      'matchId must be a V1 or V2 match ID: a positive integer, as the odds channel carries it.',
    );
  }
  return matchId;
}

/*
 * The feed is joined (or opened, within the hub's caps) here, in the
 * subscribe resolver itself: a cap hit is the subscription's coded error
 * (ODDS_FEED_LIMIT), nothing is opened, and subscriptions arriving together
 * are counted one by one. The queue stops listening when it is returned.
 */
export const oddsResolvers: Resolvers = {
  Subscription: {
    oddsSnapshots: {
      subscribe: (_, { matchId }, ctx) => {
        const id = matchIdArg(matchId);
        let off = (): void => undefined;
        const queue = new MemberQueue<OddsSnapshotView>(SNAPSHOT_QUEUE, () => off());
        off = ctx.live.odds.onSnapshot(id, (snapshot) => queue.push(snapshot), clientIdentity(ctx));
        return queue;
      },
      resolve: (snapshot: OddsSnapshotView) => snapshot,
    },
    oddsChanges: {
      subscribe: (_, { matchId }, ctx) => {
        const id = matchIdArg(matchId);
        let off = (): void => undefined;
        // Changes are never dropped: a gap would break the promise of the stream.
        const queue = new MemberQueue<OddsChangeView>(Number.POSITIVE_INFINITY, () => off());
        off = ctx.live.odds.onChanges(
          id,
          (changes) => {
            for (const change of changes) queue.push(change);
          },
          clientIdentity(ctx),
        );
        return queue;
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
