/**
 * One replica's connection to the cluster's Redis: a command connection, a
 * subscriber connection (Redis requires its own for pub/sub), the key
 * prefix, and the replica's membership.
 *
 * Redis going away is a state, not an error to throw at callers: commands
 * fail at once instead of queueing (`enableOfflineQueue: false`, a command
 * timeout), ioredis reconnects on its own, and every shared-state module
 * listens to `onDown`/`onUp` to fall back to local state and to rejoin.
 *
 * Membership is a sorted set of replica IDs scored by when their heartbeat
 * expires, on Redis's own clock (replicas' clocks may disagree): a replica
 * that stops beating drops out within `memberTtlMs`. `/healthz` shows the
 * list. Every change of the set is published (a join or a lapse by the beat
 * that saw it, a clean leave by the leaver), so that a peer learns of a
 * joiner at once rather than at its next beat; the degraded shares divide by
 * every replica seen within `memberMemoryMs` (recent-members.ts).
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { luaScript, REDIS_NOW_MS, type LuaScript } from './lua-script.js';
import { RecentMembers } from './recent-members.js';
import { countRoundTrips, type RoundTripCounter } from './round-trips.js';

export interface RedisLinkOptions {
  readonly url: string;
  /** Prepended to every key and channel (`REDIS_KEY_PREFIX`). */
  readonly keyPrefix: string;
  readonly replicaId: string;
  readonly logger: Logger;
  /** @default 1_000 */
  readonly heartbeatMs?: number;
  /** A replica silent this long is no longer a member. @default 5_000 */
  readonly memberTtlMs?: number;
  /** A replica seen alive within this long still counts for the degraded shares. @default 60_000 */
  readonly memberMemoryMs?: number;
  /** A command not answered within this fails. @default 2_000 */
  readonly commandTimeoutMs?: number;
  /** Counts the command connection's round trips by sender (round-trips.ts); the subscriber's only listen. */
  readonly roundTrips?: RoundTripCounter | undefined;
}

type Listener = () => void;

/** KEYS[1] the member set, KEYS[2] the notice channel; ARGV[1] this replica, ARGV[2] the member TTL. */
const HEARTBEAT = `${REDIS_NOW_MS}
local joined = redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
local lapsed = redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
if joined + lapsed > 0 then redis.call('PUBLISH', KEYS[2], 'seen ' .. table.concat(members, ' ')) end
return members
`;

/** Same keys; ARGV[1] the replica leaving. */
const LEAVE = `
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('PUBLISH', KEYS[2], 'left ' .. ARGV[1])
return 1
`;

export class RedisLink {
  readonly command: Redis;
  readonly subscriber: Redis;
  readonly replicaId: string;
  readonly #prefix: string;
  readonly #logger: Logger;
  readonly #upListeners = new Set<Listener>();
  readonly #downListeners = new Set<Listener>();
  readonly #memberTtlMs: number;
  #up = false;
  #downReason: string | undefined = 'not connected yet';
  #members: readonly string[] = [];
  readonly #recent: RecentMembers;
  readonly #noticeChannel: string;
  /** Channels listened to on the subscriber connection (this link's notices, the bus's channels). */
  readonly #channels = new Set<string>();
  #heartbeat: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #heartbeatScript: LuaScript;
  readonly #leaveScript: LuaScript;

  private constructor(options: RedisLinkOptions) {
    this.replicaId = options.replicaId;
    this.#prefix = options.keyPrefix;
    this.#logger = options.logger;
    this.#memberTtlMs = options.memberTtlMs ?? 5_000;
    this.#recent = new RecentMembers({
      self: options.replicaId,
      ...(options.memberMemoryMs === undefined ? {} : { rememberMs: options.memberMemoryMs }),
    });
    this.#noticeChannel = this.key('members:notices');
    const common = {
      lazyConnect: true,
      connectTimeout: 2_000,
      // Reconnect forever, never faster than every 200 ms nor slower than every 2 s.
      retryStrategy: (times: number) => Math.min(200 * times, 2_000),
      connectionName: `sports-graph:${options.replicaId}`,
    };
    // No `enableAutoPipelining`: an operation's commands depend on each other's
    // answers (lookup, claim, reserve, commit, store), so none share a tick to
    // batch; it would only hold every command to the next setImmediate and,
    // one batch in flight per connection, queue unrelated operations' reads
    // behind a slow script. Where one step needs several commands, they are
    // one script (the store publishes its own notice).
    this.command = new Redis(options.url, {
      ...common,
      // A command while Redis is away fails at once: callers fall back instead of waiting.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 2_000,
    });
    if (options.roundTrips !== undefined) countRoundTrips(this.command, options.roundTrips);
    // Subscriptions are sent again by this link when the subscriber is ready after a reconnect, not by
    // ioredis's autoResubscribe: its SUBSCRIBE has no rejection handler, so a connection closed (the link
    // closing) before Redis answered it was an unhandled rejection, which ends a Node process.
    this.subscriber = new Redis(options.url, { ...common, maxRetriesPerRequest: null, autoResubscribe: false });
    this.#heartbeatScript = luaScript(this.command, 'sgHeartbeat', 2, HEARTBEAT);
    this.#leaveScript = luaScript(this.command, 'sgLeave', 2, LEAVE);
    this.command.on('ready', () => this.#setUp());
    this.command.on('close', () => this.#setDown('the connection to Redis closed'));
    this.command.on('error', (error: Error) => {
      this.#downReason = `Redis: ${error.message}`;
    });
    // Errors on the subscriber show as the command connection's too; an unheard 'error' event would end the process.
    this.subscriber.on('error', () => undefined);
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.#noticeChannel) this.#onNotice(message);
    });
    this.subscriber.on('ready', () => {
      if (this.#channels.size > 0) this.subscriber.subscribe(...this.#channels).catch(() => undefined);
    });
    const beat = (): void => void this.#beat();
    this.#heartbeat = setInterval(beat, options.heartbeatMs ?? 1_000);
    this.#heartbeat.unref();
  }

  /**
   * Connects, waiting up to `waitMs` for Redis. A Redis that is not there
   * yet is not an error: the link starts down and comes up when Redis does.
   */
  static async open(options: RedisLinkOptions, waitMs = 3_000): Promise<RedisLink> {
    const link = new RedisLink(options);
    const connect = (client: Redis): Promise<void> => client.connect().catch(() => undefined);
    await Promise.race([Promise.all([connect(link.command), connect(link.subscriber)]), delay(waitMs)]);
    // Listening before the first beat: a peer that joins after it is heard of at once. The link listens again after a reconnect.
    const listening = link.listen(link.#noticeChannel);
    if (link.up) {
      await Promise.race([listening, delay(waitMs)]);
      await link.#beat();
    } else
      options.logger.warn({ reason: link.#downReason }, 'Redis is not reachable: starting degraded, on local state');
    return link;
  }

  get up(): boolean {
    return this.#up;
  }

  /** Why the link is down; undefined while up. */
  get downReason(): string | undefined {
    return this.#up ? undefined : this.#downReason;
  }

  /** Replicas whose heartbeat was seen (this one included), as of the last beat or notice. */
  get members(): readonly string[] {
    return this.#members;
  }

  /** Replicas seen alive within the memory window, this one included: what a degraded share divides by. */
  get recentMembers(): readonly string[] {
    return this.#recent.list();
  }

  key(name: string): string {
    return this.#prefix + name;
  }

  /** Listens to `channel` on the subscriber connection, now and after every reconnect; resolves once Redis confirmed it (or could not). */
  listen(channel: string): Promise<void> {
    this.#channels.add(channel);
    return this.subscriber.subscribe(channel).then(
      () => undefined,
      () => undefined,
    );
  }

  /** Stops listening to `channel`. */
  unlisten(channel: string): void {
    this.#channels.delete(channel);
    this.subscriber.unsubscribe(channel).catch(() => undefined);
  }

  onUp(listener: Listener): () => void {
    this.#upListeners.add(listener);
    return () => this.#upListeners.delete(listener);
  }

  onDown(listener: Listener): () => void {
    this.#downListeners.add(listener);
    return () => this.#downListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#heartbeat);
    if (this.#up) await this.#leaveScript(this.#memberKeys(), [this.replicaId]).catch(() => undefined);
    this.command.disconnect();
    this.subscriber.disconnect();
  }

  async #beat(): Promise<void> {
    if (!this.#up) return;
    try {
      const members = await this.#heartbeatScript(this.#memberKeys(), [this.replicaId, this.#memberTtlMs]);
      if (Array.isArray(members)) this.#see(members.map(String));
    } catch {
      // The 'close' event says Redis is away; one slow beat is not news.
    }
  }

  #memberKeys(): string[] {
    return [this.key('members'), this.#noticeChannel];
  }

  #see(members: readonly string[]): void {
    this.#members = members;
    this.#recent.saw(members);
  }

  /** `seen <id> ...` (the set after a join or a lapse) or `left <id>`; anything else is not ours to read. */
  #onNotice(message: string): void {
    const [kind, ...ids] = message.split(' ');
    if (kind === 'seen' && ids.length > 0) this.#see(ids);
    else if (kind === 'left' && ids.length === 1 && ids[0] !== this.replicaId) {
      const gone = ids[0]!;
      this.#members = this.#members.filter((member) => member !== gone);
      this.#recent.left(gone);
    }
  }

  #setUp(): void {
    if (this.#up || this.#closed) return;
    this.#up = true;
    this.#downReason = undefined;
    this.#logger.info('connected to Redis: shared state in use');
    void this.#beat();
    for (const listener of this.#upListeners) listener();
  }

  #setDown(reason: string): void {
    if (!this.#up || this.#closed) return;
    this.#up = false;
    this.#downReason = reason;
    this.#logger.warn({ reason }, 'Redis is away: degraded, answering from local state');
    for (const listener of this.#downListeners) listener();
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
