/**
 * One upstream odds socket per match for the whole cluster (issue 14, item
 * 5): the odds hub's feed source (feed-source.ts) when `REDIS_URL` is set.
 *
 * Roles, per match, on each replica that has a hub channel for it:
 *
 * - owner: holds the lease `odds:{matchId}` (src/state/contracts.ts, Leases),
 *   runs the real upstream socket (match-feed.ts), hands each frame to its
 *   own hub directly, publishes it on the bus channel `odds:{matchId}` and
 *   keeps the latest on the board, so that a replica whose first subscriber
 *   arrives later shows the latest snapshot at once;
 * - follower: feeds its hub from the bus (and from the board when it
 *   joins); it opens no upstream socket;
 * - alone: Redis is away; the replica runs its own socket (see "Redis away").
 *
 * Every replica with a channel runs one tick per match every `tickMs`: it
 * announces its interest on the bus, and tries the lease (taking it when
 * free, extending it when its own). So the owner renews every `tickMs`
 * against a TTL of `leaseTtlMs`, and a follower takes a free lease at its
 * next tick. Ownership is decided by Redis alone (`SET NX PX` in a script);
 * a replica that finds the lease under another name stops its socket.
 *
 * Keeping the socket open: the owner's own subscribers leaving (after the
 * hub's linger) do not close it while another replica is interested, that
 * is, announced interest within `interestTtlMs` and has not said `leave`.
 * With nobody interested it closes the socket, releases the lease and
 * clears the board. So the upstream subscription closes about one linger
 * after the cluster's last subscriber leaves (or `interestTtlMs` after a
 * replica that died holding subscribers last spoke).
 *
 * Takeover, and its bound: an owner that dies (SIGKILL) stops renewing;
 * its lease expires at most `leaseTtlMs` after its last renewal, and a
 * replica with subscribers takes it at its next tick, so a survivor holds
 * the lease within `leaseTtlMs + tickMs` of the death (defaults: 3 s + 1 s
 * = 4 s) and opens the upstream socket at once; LIVE follows with the
 * upstream's immediate snapshot. The new owner tells its own hub and every
 * follower `RECONNECTING` first (their frames may be out of date), so
 * subscribers see RECONNECTING then LIVE, never an error.
 *
 * No change lost or repeated: each replica's hub diffs the frames it
 * delivers (hub.ts), and keeps its last frame across the takeover, so the
 * first frame of the new socket is diffed against the last one relayed
 * from the dead owner. A follower drops a relayed frame older than the one
 * it delivered last, or identical to it (frames are complete snapshots
 * stamped with the upstream's emit time), so that two owners for a moment
 * (a lease lost to a pause, a rejoin after Redis) never deliver a snapshot
 * twice nor move the book backwards. An owner never takes frames from the
 * bus: its own socket is its truth, and it ignores its own messages.
 *
 * Redis away (the link is down), what is guaranteed: subscribers are never
 * sent an error; every replica with subscribers for a match opens its own
 * upstream socket for it (a follower first marks its subscribers'
 * snapshot RECONNECTING, then LIVE with its own socket's first frame), so
 * the cluster may hold one socket per replica per match while Redis is
 * away, and the caps still hold on each replica. An owner that kept its
 * socket only for other replicas closes it (they have their own now).
 * When Redis returns, every replica tries the lease at once: the one that
 * takes it keeps its socket, the others close theirs at the same tick and
 * follow, so two sockets outlive the rejoin by at most one tick and a
 * Redis round trip. Not guaranteed while degraded: one upstream socket per
 * match, and snapshots identical across replicas.
 */
import { CoalescedRun } from './coalesced-run.js';
import type { Logger } from 'pino';
import type { Board, Bus, Leases } from '../state/contracts.js';
import {
  encodeBoardedFrame,
  encodeClusterMessage,
  oddsBoardKey,
  oddsBusChannel,
  oddsLeaseName,
  parseBoardedFrame,
  parseClusterMessage,
  type ClusterOddsMessage,
} from './cluster-odds-messages.js';
import type { FeedHandlers, OddsFeed, OddsFeedSource } from './feed-source.js';
import type { FeedState } from './match-feed.js';
import { parseFrame, type OddsFrame } from '../upstream/routes/odds-socket.js';

/** Whether Redis is reachable, and when that changes (src/state/redis/redis-link.ts). */
export interface LinkState {
  readonly up: boolean;
  onUp(listener: () => void): () => void;
  onDown(listener: () => void): () => void;
}

export interface ClusterFeedSourceOptions {
  readonly replicaId: string;
  readonly bus: Bus;
  readonly leases: Leases;
  readonly board: Board;
  readonly link: LinkState;
  /** The real upstream socket, opened by the owner (and by every replica while Redis is away). */
  readonly upstream: OddsFeedSource;
  readonly logger: Logger;
  /** A lease not renewed for this long is free. @default 3_000 */
  readonly leaseTtlMs?: number;
  /** Period of each match's tick: renewal, takeover attempt, interest. @default 1_000 */
  readonly tickMs?: number;
  /** A replica silent this long is no longer interested. @default 3 * tickMs */
  readonly interestTtlMs?: number;
}

type Role = 'follower' | 'owner' | 'alone';

interface Timing {
  readonly leaseTtlMs: number;
  readonly tickMs: number;
  readonly interestTtlMs: number;
}

export class ClusterFeedSource implements OddsFeedSource {
  readonly #options: ClusterFeedSourceOptions;
  readonly #timing: Timing;
  readonly #matches = new Map<string, ClusterMatchFeed>();
  /** Shutdowns still releasing their lease: a new feed for the match waits for them. */
  readonly #releasing = new Map<string, Promise<void>>();
  readonly #offLink: Array<() => void>;

  constructor(options: ClusterFeedSourceOptions) {
    this.#options = options;
    const { leaseTtlMs = 3_000, tickMs = 1_000 } = options;
    this.#timing = { leaseTtlMs, tickMs, interestTtlMs: options.interestTtlMs ?? 3 * tickMs };
    // Both ways at once rather than at the next tick: alone as soon as Redis goes, back in the lease scheme as soon as it returns.
    const tickAll = (): void => {
      for (const match of this.#matches.values()) match.tick();
    };
    this.#offLink = [options.link.onDown(tickAll), options.link.onUp(tickAll)];
  }

  open(matchId: string, handlers: FeedHandlers): OddsFeed {
    let match: ClusterMatchFeed | undefined;
    return {
      start: () => {
        match = this.#matches.get(matchId);
        if (match === undefined) {
          const created = new ClusterMatchFeed(
            matchId,
            this.#options,
            this.#timing,
            this.#releasing.get(matchId),
            (released) => {
              if (this.#matches.get(matchId) === created) this.#matches.delete(matchId);
              const done = released.finally(() => {
                if (this.#releasing.get(matchId) === done) this.#releasing.delete(matchId);
              });
              this.#releasing.set(matchId, done);
            },
          );
          this.#matches.set(matchId, created);
          match = created;
        }
        match.attach(handlers);
      },
      stop: () => match?.detach(handlers),
    };
  }

  async close(): Promise<void> {
    for (const off of this.#offLink) off();
    for (const match of [...this.#matches.values()]) match.shutdown();
    await Promise.all([...this.#releasing.values()]);
  }
}

/** One match on one replica: its role, its socket when it owns one, and what its hub was last given. */
class ClusterMatchFeed {
  role: Role = 'follower';
  readonly #matchId: string;
  readonly #options: ClusterFeedSourceOptions;
  readonly #timing: Timing;
  readonly #lease: string;
  readonly #channel: string;
  readonly #boardKey: string;
  readonly #logger: Logger;
  /** Resolves once an earlier feed for this match has released the lease. */
  readonly #after: Promise<void>;
  readonly #onShutdown: (released: Promise<void>) => void;
  #handlers: FeedHandlers | undefined;
  #upstream: OddsFeed | undefined;
  #upstreamState: FeedState = 'CONNECTING';
  /** The last frame handed to the hub (or received by the owner's socket). */
  #latest: { readonly frame: OddsFrame; readonly at: number } | undefined;
  /** Other replicas' interest, until when (epoch ms, this replica's clock). */
  readonly #interest = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #offBus: (() => void) | undefined;
  readonly #ticks = new CoalescedRun(
    () => this.#contend(),
    () => !this.#closed,
    (error) =>
      this.#logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'odds lease tick failed'),
  );
  #closed = false;

  constructor(
    matchId: string,
    options: ClusterFeedSourceOptions,
    timing: Timing,
    after: Promise<void> | undefined,
    onShutdown: (released: Promise<void>) => void,
  ) {
    this.#matchId = matchId;
    this.#options = options;
    this.#timing = timing;
    this.#lease = oddsLeaseName(matchId);
    this.#channel = oddsBusChannel(matchId);
    this.#boardKey = oddsBoardKey(matchId);
    this.#logger = options.logger.child({ matchId });
    this.#after = after ?? Promise.resolve();
    this.#onShutdown = onShutdown;
  }

  attach(handlers: FeedHandlers): void {
    this.#handlers = handlers;
    if (this.#offBus === undefined) {
      this.#offBus = this.#options.bus.subscribe(this.#channel, (text) => this.#onMessage(text));
      this.#timer = setInterval(() => this.tick(), this.#timing.tickMs);
      this.#timer.unref();
      void this.#readBoard();
      this.tick();
      return;
    }
    // An owner still serving other replicas, whose own subscribers are back: what it has, at once.
    if (this.#latest !== undefined) handlers.onFrame(this.#latest.frame, this.#latest.at);
    if (this.#upstream !== undefined && this.#upstreamState !== 'LIVE') handlers.onState(this.#upstreamState);
  }

  detach(handlers: FeedHandlers): void {
    if (this.#handlers !== handlers) return;
    this.#handlers = undefined;
    if (this.role === 'owner' && this.#options.link.up && this.#othersInterested()) {
      this.#logger.debug('no subscribers here; keeping the upstream odds socket for other replicas');
      return;
    }
    if (this.role === 'follower') this.#publish({ t: 'leave', from: this.#options.replicaId });
    this.shutdown();
  }

  /** Runs a tick now, or right after the one under way. */
  tick(): void {
    this.#ticks.request();
  }

  shutdown(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    this.#offBus?.();
    this.#stopUpstream();
    const owned = this.role === 'owner';
    this.#handlers = undefined;
    const { leases, board } = this.#options;
    const released = owned
      ? (async () => {
          // Cleared first: a replica arriving after the release must not show this socket's last frame as live.
          await board.set(this.#boardKey, '', 1);
          await leases.release(this.#lease);
        })().catch(() => undefined)
      : Promise.resolve();
    if (owned) this.#logger.debug('closed the upstream odds socket and released its lease: no replica is interested');
    this.#onShutdown(released);
  }

  async #contend(): Promise<void> {
    await this.#after;
    if (this.#closed) return;
    const { link, leases, replicaId } = this.#options;
    if (!link.up) {
      this.#goAlone();
      return;
    }
    if (this.#handlers !== undefined && this.role !== 'owner') this.#publish({ t: 'interest', from: replicaId });
    if (this.role === 'owner' && this.#handlers === undefined && !this.#othersInterested()) {
      this.shutdown();
      return;
    }
    if (await leases.acquire(this.#lease, this.#timing.leaseTtlMs)) {
      if (this.#closed) {
        await leases.release(this.#lease);
        return;
      }
      this.#becomeOwner();
      this.#writeBoard();
      return;
    }
    if (this.#closed || this.role === 'follower') return;
    // Not taken: under another name, or Redis did not answer. Only the first makes this replica step down.
    const holder = await leases.holder(this.#lease);
    if (this.#closed) return;
    if (holder !== undefined && holder !== replicaId) this.#becomeFollower(holder);
  }

  #becomeOwner(): void {
    if (this.role === 'owner') return;
    const previous = this.role;
    this.role = 'owner';
    this.#logger.info({ previous }, 'took the odds lease: this replica holds the upstream odds socket');
    if (this.#upstream !== undefined) return;
    if (this.#latest !== undefined) {
      // A takeover: what every replica shows came from a socket that is gone.
      this.#handlers?.onState('RECONNECTING');
      this.#publish({ t: 'state', from: this.#options.replicaId, state: 'RECONNECTING' });
    }
    this.#startUpstream();
  }

  #becomeFollower(holder: string): void {
    this.role = 'follower';
    this.#logger.info(
      { holder },
      "another replica holds the odds lease: closing this replica's socket and following it",
    );
    this.#stopUpstream();
  }

  #goAlone(): void {
    if (this.role === 'alone') return;
    if (this.#handlers === undefined) {
      // Kept only for other replicas, which now run their own.
      this.shutdown();
      return;
    }
    this.role = 'alone';
    this.#logger.warn('Redis is away: this replica runs its own upstream odds socket');
    if (this.#upstream !== undefined) return;
    if (this.#latest !== undefined) this.#handlers.onState('RECONNECTING');
    this.#startUpstream();
  }

  #startUpstream(): void {
    this.#upstreamState = 'CONNECTING';
    const feed = this.#options.upstream.open(this.#matchId, {
      onFrame: (frame, receivedAt) => {
        if (feed === this.#upstream) this.#ownFrame(frame, receivedAt);
      },
      onState: (state) => {
        if (feed === this.#upstream) this.#ownState(state);
      },
    });
    this.#upstream = feed;
    feed.start();
  }

  #stopUpstream(): void {
    const feed = this.#upstream;
    this.#upstream = undefined;
    feed?.stop();
  }

  #ownFrame(frame: OddsFrame, at: number): void {
    this.#upstreamState = 'LIVE';
    this.#latest = { frame, at };
    this.#handlers?.onFrame(frame, at);
    if (this.role !== 'owner') return;
    this.#publish({ t: 'frame', from: this.#options.replicaId, at, data: frame.raw });
    this.#writeBoard();
  }

  #ownState(state: FeedState): void {
    this.#upstreamState = state;
    this.#handlers?.onState(state);
    if (this.role !== 'owner' || state === 'LIVE') return;
    this.#publish({ t: 'state', from: this.#options.replicaId, state });
    this.#writeBoard();
  }

  #onMessage(text: string): void {
    const message = parseClusterMessage(text);
    if (message === undefined || message.from === this.#options.replicaId || this.#closed) return;
    switch (message.t) {
      case 'frame': {
        if (this.role !== 'follower') return;
        const frame = parseFrame(message.data);
        if (frame !== undefined) this.#relayed(frame, message.at);
        return;
      }
      case 'state':
        if (this.role === 'follower' && message.state !== 'LIVE') this.#handlers?.onState(message.state);
        return;
      case 'interest':
        this.#interest.set(message.from, Date.now() + this.#timing.interestTtlMs);
        return;
      case 'leave':
        this.#interest.delete(message.from);
        if (this.role === 'owner' && this.#handlers === undefined && !this.#othersInterested()) this.shutdown();
        return;
    }
  }

  /** A frame from another replica's socket: delivered unless older than, or the same as, the last one. */
  #relayed(frame: OddsFrame, at: number): boolean {
    const latest = this.#latest?.frame;
    if (latest !== undefined) {
      if (frame.timestamp < latest.timestamp) return false;
      if (frame.timestamp === latest.timestamp && JSON.stringify(frame.raw) === JSON.stringify(latest.raw))
        return false;
    }
    this.#latest = { frame, at };
    this.#handlers?.onFrame(frame, at);
    return true;
  }

  async #readBoard(): Promise<void> {
    const boarded = parseBoardedFrame(await this.#options.board.get(this.#boardKey));
    if (boarded === undefined || this.#closed || this.role !== 'follower') return;
    const frame = parseFrame(boarded.data);
    if (frame !== undefined && this.#relayed(frame, boarded.at) && boarded.state !== 'LIVE')
      this.#handlers?.onState(boarded.state);
  }

  #writeBoard(): void {
    const latest = this.#latest;
    if (latest === undefined) return;
    // Lives as long as the lease: a board value outliving its owner would show a dead socket's frame as live.
    const value = encodeBoardedFrame({ at: latest.at, data: latest.frame.raw, state: this.#upstreamState });
    void this.#options.board.set(this.#boardKey, value, this.#timing.leaseTtlMs);
  }

  #othersInterested(): boolean {
    const now = Date.now();
    for (const [replica, until] of this.#interest) {
      if (until > now) return true;
      this.#interest.delete(replica);
    }
    return false;
  }

  #publish(message: ClusterOddsMessage): void {
    this.#options.bus.publish(this.#channel, encodeClusterMessage(message));
  }
}
