/**
 * The odds fan-out hub: one upstream subscription per match, shared by every
 * GraphQL subscriber (graphql-ws and SSE alike).
 *
 * - The first subscriber to a match opens its feed; later ones get the
 *   latest snapshot at once, with no upstream subscribe of their own.
 * - The last subscriber leaving starts a linger timer (`lingerMs`); a
 *   subscriber arriving within it keeps the feed, otherwise the feed closes
 *   and the match is forgotten.
 * - Each frame is turned into one immutable snapshot view and one list of
 *   changes, shared by every subscriber: per-subscriber work is only the
 *   GraphQL serialisation of an object that is already built.
 * - Changes come from diffing consecutive frames. The last frame is kept
 *   across reconnects, so the first frame after a gap is diffed against the
 *   last one before it.
 * - Where a match's frames come from is the feed source's business
 *   (feed-source.ts): the upstream socket itself when the gateway runs
 *   alone, the cluster's one socket per match otherwise
 *   (cluster-feed-source.ts). The hub is the same either way.
 * - Upstream feeds are bounded: at most `maxFeeds` open at once (lingering
 *   ones included: they still hold their upstream subscription), and at
 *   most `maxFeedsPerClient` opened by one client. A feed is charged to the
 *   client whose subscription opened it, until it closes; joining a feed
 *   that is already open costs no upstream socket, so it is never refused
 *   and charged to nobody. Leaving and coming back within the linger does
 *   not open a second feed either. A subscription past a cap is refused
 *   with ODDS_FEED_LIMIT before anything is opened.
 * - In a cluster both caps are per replica: they count this replica's
 *   channels, whether its frames come from its own upstream socket or from
 *   the lease holder's. So the cluster holds at most one upstream socket
 *   per match and at most replicas x `maxFeeds` in all. A cluster-wide
 *   count would put a Redis round trip in the subscribe resolver, which
 *   checks and counts in one synchronous step today.
 */
import { GraphQLError } from 'graphql';
import type { Logger } from 'pino';
import { Code } from '../codes/error-codes.js';
import { diffFrames, type OddsChange } from './diff.js';
import type { OddsFeed, OddsFeedSource } from './feed-source.js';
import type { FeedState } from './match-feed.js';
import { isOddsMatchId, type OddsFrame } from '../upstream/routes/odds-socket.js';

/** A subscription that would open an upstream feed past a cap. Messages never say what the cap is. */
export class OddsFeedLimitError extends GraphQLError {
  constructor(readonly scope: 'client' | 'gateway') {
    super(
      scope === 'client'
        ? 'This client has as many live odds feeds open as it may: leave one, or join a match someone already watches.'
        : 'The gateway has as many live odds feeds open as it may: try again later.',
      { extensions: { code: Code.ODDS_FEED_LIMIT, scope } },
    );
  }
}

export interface OddsSnapshotView {
  readonly matchId: string;
  readonly frame: OddsFrame;
  /** When the gateway received the frame, epoch ms. */
  readonly receivedAt: number;
  /** True while the upstream feed is not live: the frame may be out of date. */
  readonly stale: boolean;
  readonly feed: FeedState;
}

export interface OddsChangeView extends OddsChange {
  readonly matchId: string;
  /** The `timestamp` of the frame that showed the change. */
  readonly timestamp: number;
  readonly receivedAt: number;
  /** The change was derived across a reconnect (last frame before, first after). */
  readonly afterReconnect: boolean;
}

export interface OddsHubOptions {
  /** Where each match's frames come from (feed-source.ts). */
  readonly source: OddsFeedSource;
  readonly logger: Logger;
  /** How long a feed stays open after its last subscriber leaves. @default 5_000 */
  readonly lingerMs: number;
  /** Upstream feeds open at once, whoever opened them. @default 100 */
  readonly maxFeeds?: number;
  /** Upstream feeds one client may have opened and still open. @default 10 */
  readonly maxFeedsPerClient?: number;
}

type Listener<T> = (value: T) => void;

class MatchChannel {
  readonly snapshotListeners = new Set<Listener<OddsSnapshotView>>();
  readonly changeListeners = new Set<Listener<readonly OddsChangeView[]>>();
  latest: OddsSnapshotView | undefined;
  linger: NodeJS.Timeout | undefined;
  /** Set when the feed leaves LIVE; the next frame's changes are marked. */
  gap = false;

  constructor(
    readonly matchId: string,
    readonly feed: OddsFeed,
    /** The client whose subscription opened the feed: it is charged for it until it closes. */
    readonly openedBy: string,
  ) {}

  get subscribers(): number {
    return this.snapshotListeners.size + this.changeListeners.size;
  }
}

export class OddsHub {
  readonly #options: OddsHubOptions;
  readonly #channels = new Map<string, MatchChannel>();
  /** Open feeds per client that opened them. */
  readonly #openedBy = new Map<string, number>();
  #closed = false;

  constructor(options: OddsHubOptions) {
    this.#options = options;
  }

  /** Matches with an open upstream feed, and their subscriber counts. */
  stats(): Record<string, number> {
    return Object.fromEntries([...this.#channels].map(([id, channel]) => [id, channel.subscribers]));
  }

  /**
   * Listens to a match's snapshots; the latest one, if any, is delivered at
   * once. Returns the function that stops listening. `client` names who
   * asks (src/access/client-identity.ts), for the per-client cap.
   * @throws OddsFeedLimitError when a new feed would pass a cap; nothing is opened then.
   */
  onSnapshot(matchId: string, listener: Listener<OddsSnapshotView>, client = ''): () => void {
    const channel = this.#join(matchId, client);
    channel.snapshotListeners.add(listener);
    if (channel.latest !== undefined) listener(channel.latest);
    return () => {
      channel.snapshotListeners.delete(listener);
      this.#leave(channel);
    };
  }

  /**
   * Listens to a match's changes from now on.
   * @throws OddsFeedLimitError as `onSnapshot`.
   */
  onChanges(matchId: string, listener: Listener<readonly OddsChangeView[]>, client = ''): () => void {
    const channel = this.#join(matchId, client);
    channel.changeListeners.add(listener);
    return () => {
      channel.changeListeners.delete(listener);
      this.#leave(channel);
    };
  }

  close(): void {
    this.#closed = true;
    for (const channel of this.#channels.values()) {
      clearTimeout(channel.linger);
      channel.feed.stop();
    }
    this.#channels.clear();
    this.#openedBy.clear();
  }

  #join(matchId: string, client: string): MatchChannel {
    if (this.#closed) throw new Error('OddsHub is closed');
    // The resolvers refuse other IDs with BAD_USER_INPUT; this guards any other caller.
    if (!isOddsMatchId(matchId)) throw new TypeError(`not an odds match ID: ${JSON.stringify(matchId.slice(0, 40))}`);
    const existing = this.#channels.get(matchId);
    if (existing !== undefined) {
      clearTimeout(existing.linger);
      existing.linger = undefined;
      return existing;
    }
    const { source, logger, maxFeeds = 100, maxFeedsPerClient = 10 } = this.#options;
    // Checked and counted in one synchronous step: subscriptions arriving together cannot all pass.
    if (this.#channels.size >= maxFeeds) throw new OddsFeedLimitError('gateway');
    const opened = this.#openedBy.get(client) ?? 0;
    if (opened >= maxFeedsPerClient) throw new OddsFeedLimitError('client');
    this.#openedBy.set(client, opened + 1);
    let channel: MatchChannel | undefined;
    const feed = source.open(matchId, {
      onFrame: (frame, receivedAt) => channel !== undefined && this.#onFrame(channel, frame, receivedAt),
      onState: (state) => channel !== undefined && this.#onState(channel, state),
    });
    channel = new MatchChannel(matchId, feed, client);
    this.#channels.set(matchId, channel);
    logger.debug({ matchId }, 'opening the upstream odds feed');
    feed.start();
    return channel;
  }

  #leave(channel: MatchChannel): void {
    if (channel.subscribers > 0 || channel.linger !== undefined) return;
    if (this.#channels.get(channel.matchId) !== channel) return;
    channel.linger = setTimeout(() => {
      if (channel.subscribers > 0) return;
      this.#channels.delete(channel.matchId);
      const opened = (this.#openedBy.get(channel.openedBy) ?? 1) - 1;
      if (opened > 0) this.#openedBy.set(channel.openedBy, opened);
      else this.#openedBy.delete(channel.openedBy);
      channel.feed.stop();
      this.#options.logger.debug({ matchId: channel.matchId }, 'closed the upstream odds feed: no subscribers');
    }, this.#options.lingerMs);
    channel.linger.unref();
  }

  #onFrame(channel: MatchChannel, frame: OddsFrame, receivedAt: number): void {
    const previous = channel.latest;
    const snapshot: OddsSnapshotView = Object.freeze({
      matchId: channel.matchId,
      frame,
      receivedAt,
      stale: false,
      feed: 'LIVE',
    });
    channel.latest = snapshot;
    const afterReconnect = channel.gap;
    channel.gap = false;
    if (previous !== undefined && channel.changeListeners.size > 0) {
      const changes = diffFrames(previous.frame, frame).map(
        (change): OddsChangeView =>
          Object.freeze({
            ...change,
            matchId: channel.matchId,
            timestamp: frame.timestamp,
            receivedAt,
            afterReconnect,
          }),
      );
      if (changes.length > 0) for (const listener of channel.changeListeners) listener(changes);
    }
    for (const listener of channel.snapshotListeners) listener(snapshot);
  }

  #onState(channel: MatchChannel, state: FeedState): void {
    if (state !== 'LIVE') channel.gap = true;
    const latest = channel.latest;
    if (latest === undefined || state === 'LIVE') return;
    // Subscribers learn at once that what they hold may be out of date; the
    // fresh snapshot after the reconnect clears it.
    const stale: OddsSnapshotView = Object.freeze({ ...latest, stale: true, feed: state });
    channel.latest = stale;
    for (const listener of channel.snapshotListeners) listener(stale);
  }
}
