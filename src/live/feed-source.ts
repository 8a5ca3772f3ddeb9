/**
 * Where the odds hub (hub.ts) gets a match's frames from: the seam between
 * fan-out and coordination.
 *
 * - Alone (no `REDIS_URL`): `LocalFeedSource`, the upstream socket itself
 *   (match-feed.ts), one per match the hub has a channel for.
 * - In a cluster: src/live/cluster-feed-source.ts, which opens the upstream
 *   socket only on the replica holding the match's lease and relays its
 *   frames to every other replica.
 *
 * Either way the hub sees the same thing: frames with the time they were
 * received from the upstream, and feed states (CONNECTING before the first
 * frame, LIVE, RECONNECTING while the frames may be out of date).
 */
import type { Logger } from 'pino';
import { MatchFeed, type BackoffOptions, type FeedState } from './match-feed.js';
import type { OddsFrame } from '../upstream/routes/odds-socket.js';

export interface FeedHandlers {
  /** Every readable snapshot, with the epoch ms the gateway received it from the upstream. */
  onFrame(frame: OddsFrame, receivedAt: number): void;
  onState(state: FeedState): void;
}

/** One match's feed as the hub holds it: started once, stopped once. */
export interface OddsFeed {
  start(): void;
  /** The hub no longer needs the match: no handler is called after this. */
  stop(): void;
}

export interface OddsFeedSource {
  open(matchId: string, handlers: FeedHandlers): OddsFeed;
  /** Gateway shutdown: every feed ends, whatever still uses it. */
  close(): Promise<void>;
}

export interface LocalFeedSourceOptions {
  /** `{ws_base_url}/ws`. */
  readonly socketUrl: string;
  readonly apiKey: string | undefined;
  readonly logger: Logger;
  /** @default 90_000 (spec 6.6) */
  readonly watchdogMs: number;
  readonly backoff: BackoffOptions;
}

/** The upstream socket, one per match: a single node's source, and the lease holder's in a cluster. */
export class LocalFeedSource implements OddsFeedSource {
  readonly #options: LocalFeedSourceOptions;

  constructor(options: LocalFeedSourceOptions) {
    this.#options = options;
  }

  open(matchId: string, handlers: FeedHandlers): OddsFeed {
    const { socketUrl, apiKey, logger, watchdogMs, backoff } = this.#options;
    return new MatchFeed({
      url: socketUrl,
      apiKey,
      matchId,
      watchdogMs,
      backoff,
      logger,
      onFrame: (frame, receivedAt) => handlers.onFrame(frame, receivedAt),
      onState: (state) => handlers.onState(state),
    });
  }

  close(): Promise<void> {
    // Each feed is stopped by whoever opened it (the hub, or the cluster source).
    return Promise.resolve();
  }
}
