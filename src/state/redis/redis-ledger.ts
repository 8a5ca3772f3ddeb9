/**
 * The daily allowance shared by every replica of a cluster, in Redis
 * (src/spend/ledger.ts has the contract; quota.ts is the single-node one).
 *
 * - **Atomic reservations.** A counted request takes its unit in one Lua
 *   script: check what is left, add the reservation to the in-flight set.
 *   Replicas hammering together cannot pass the allowance: the upstream
 *   receives at most `limit` counted requests a day, and never a 429 from
 *   our own overshoot.
 * - **In flight has an end.** Each reservation expires at its operation's
 *   deadline plus a margin; one still in the set after that (its replica
 *   died) is counted as spent by the next script: never less than the
 *   upstream saw.
 * - **One reset for all**, in the scripts, on Redis's clock.
 * - **The upstream's headers reconcile** the shared count upwards only: the
 *   answers of concurrent requests reach Redis in any order (each replica
 *   commits after its own answer came), so a lower count may simply be an
 *   older one. A real refund from the upstream is taken at the daily reset.
 * - **A view for synchronous readers.** `available()` and `snapshot()` read
 *   the last state any script returned or published (every script publishes
 *   the new state on the bus): good enough to refuse early and to report;
 *   the script alone decides whether a unit is granted.
 * - **Redis away** (src/state/redis/degraded-share.ts): the replica spends
 *   from its share of what was left, split among the replicas it saw lately
 *   (recent-members.ts); what it spent is added to the shared count once
 *   Redis is back. A replica that never saw the count (Redis away at start)
 *   has a share of 0.
 * - **Redis back empty** (restarted without persistence): each replica
 *   seeds the count with the last one it saw, the highest wins.
 */
import type { Logger } from 'pino';
import {
  nextResetAt,
  planAllowances,
  upstreamAssumptions,
  wholeSecond,
  type Plan,
} from '../../upstream/assumptions.js';
import { ErrorCode, GatewayError } from '../../upstream/errors.js';
import {
  MAX_ALLOWANCE,
  type HeaderSource,
  type Ledger,
  type QuotaSnapshot,
  type Reservation,
} from '../../spend/ledger.js';
import type { Bus } from '../contracts.js';
import { DegradedShare } from './degraded-share.js';
import { luaScript, REDIS_NOW_MS, type LuaScript } from './lua-script.js';
import type { RedisLink } from './redis-link.js';

/** The shared count as one script saw it. */
interface LedgerView {
  limit: number;
  spent: number;
  inFlight: number;
  resetsAt: number;
  /**
   * Redis's count of states written: replies and published states reach a
   * replica on two connections, in any order between them, and an older
   * one must not replace a newer one (it could show more left than there is).
   */
  seq: number;
}

const DAY_MS = 86_400_000;

/**
 * Every script starts here: KEYS[1] the count (hash), KEYS[2] the in-flight
 * set; ARGV[1] the plan's limit, ARGV[2] the daily reset's offset from UTC
 * midnight (ms), ARGV[3] the channel the new state is published on.
 *
 * Neither key carries an expiry (a `volatile-*` maxmemory policy never
 * evicts them). The hash's `epoch` is set when the hash is created: a
 * replica that sees it change under a view of today knows the count was lost
 * (deleted, flushed, a Redis restarted empty), not reset, and raises it back
 * to what it last saw (REJOIN).
 */
const PREAMBLE = `${REDIS_NOW_MS}
local day = ${DAY_MS}
local function next_reset()
  local at = math.floor(now / day) * day + tonumber(ARGV[2])
  if at <= now then at = at + day end
  return at
end
-- As resetAfterSeconds in src/upstream/assumptions.ts, within a day: the daily reset when it is that, else the nearest second.
local function reset_after(seconds)
  local at = math.min(now + seconds * 1000, now + day)
  local daily = next_reset()
  if math.abs(at - daily) <= 2000 then return daily end
  return math.floor(at / 1000 + 0.5) * 1000
end
local epoch = redis.call('HGET', KEYS[1], 'epoch')
if not epoch then epoch = t[1] .. string.format('%06d', tonumber(t[2])) end
local limit = tonumber(redis.call('HGET', KEYS[1], 'limit'))
local spent = tonumber(redis.call('HGET', KEYS[1], 'spent'))
local resets = tonumber(redis.call('HGET', KEYS[1], 'resetsAt'))
if not limit or not spent or not resets or resets > now + day then
  limit = limit or tonumber(ARGV[1]); spent = spent or 0; resets = next_reset()
end
if now >= resets then
  limit = tonumber(ARGV[1]); spent = 0; resets = next_reset()
end
local expired = redis.call('ZCOUNT', KEYS[2], '-inf', now)
if expired > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  spent = spent + expired
end
local function finish(granted)
  redis.call('HSET', KEYS[1], 'limit', limit, 'spent', spent, 'resetsAt', resets, 'epoch', epoch)
  local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
  local inflight = redis.call('ZCARD', KEYS[2])
  redis.call('PUBLISH', ARGV[3], limit .. ' ' .. spent .. ' ' .. inflight .. ' ' .. resets .. ' ' .. seq)
  return {granted, limit, spent, inflight, resets, seq, epoch}
end
`;

/** ARGV[4] member, ARGV[5] ms until it expires. */
const RESERVE = `${PREAMBLE}
if limit - spent - redis.call('ZCARD', KEYS[2]) < 1 then return finish(0) end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[5]), ARGV[4])
return finish(1)
`;

/**
 * ARGV[4] member; ARGV[5..7] the upstream's limit, remaining and reset
 * seconds ('' when absent). A member already folded in by expiry was
 * counted then.
 */
const COMMIT = `${PREAMBLE}
local removed = redis.call('ZREM', KEYS[2], ARGV[4])
local remaining = tonumber(ARGV[6])
if remaining then
  local upstream_limit = tonumber(ARGV[5])
  if upstream_limit then limit = upstream_limit end
  local upstream_used = math.max(0, limit - math.min(remaining, limit))
  spent = math.max(spent, upstream_used)
  local reset = tonumber(ARGV[7])
  if reset then resets = reset_after(reset) end
elseif removed == 1 then
  spent = spent + 1
end
return finish(1)
`;

/** ARGV[4] member. */
const RELEASE = `${PREAMBLE}
redis.call('ZREM', KEYS[2], ARGV[4])
return finish(1)
`;

/** ARGV[4] Retry-After seconds ('' when absent). */
const EXHAUSTED = `${PREAMBLE}
spent = math.max(spent, limit)
local retry = tonumber(ARGV[4])
if retry then resets = reset_after(retry) end
return finish(1)
`;

/**
 * ARGV[4] units spent while Redis was away; ARGV[5..6] the spent count and
 * reset this replica last saw: a count that came back lower while that
 * reset is still ahead (Redis restarted empty) is raised to it. (Not "the
 * same reset": the upstream's headers move it by seconds.)
 */
const READ = `${PREAMBLE}
return finish(1)
`;

const REJOIN = `${PREAMBLE}
if tonumber(ARGV[6]) > now then spent = math.max(spent, tonumber(ARGV[5])) end
spent = spent + tonumber(ARGV[4])
return finish(1)
`;

export interface RedisLedgerOptions {
  readonly plan: Plan;
  readonly link: RedisLink;
  readonly bus: Bus;
  readonly logger: Logger;
  /** A reservation not committed within this is counted as spent (its replica died): the operation deadline plus a margin. */
  readonly inFlightExpiryMs: number;
  /** How often the view is read again, in case a published state was missed. @default 1_000 */
  readonly refreshMs?: number;
}

type Listener = (snapshot: QuotaSnapshot) => void;
type ScriptName = 'reserve' | 'commit' | 'release' | 'exhausted' | 'rejoin' | 'read';

export class RedisLedger implements Ledger {
  readonly plan: Plan;
  readonly #link: RedisLink;
  readonly #logger: Logger;
  readonly #keys: readonly string[];
  readonly #channel: string;
  readonly #expiryMs: number;
  readonly #scripts: Readonly<Record<ScriptName, LuaScript>>;
  readonly #listeners = new Set<Listener>();
  #view: LedgerView | undefined;
  /** Set while Redis is away (or until it was first seen). */
  #share: DegradedShare | undefined;
  /** Units spent from earlier shares, not yet added to the shared count. */
  #owed = 0;
  #sequence = 0;
  /** The shared hash's epoch as the last reply gave it ('' before any). */
  #epoch = '';
  readonly #refresh: NodeJS.Timeout;

  private constructor(options: RedisLedgerOptions) {
    this.plan = options.plan;
    this.#link = options.link;
    this.#logger = options.logger;
    this.#expiryMs = options.inFlightExpiryMs;
    this.#keys = [options.link.key('allowance'), options.link.key('allowance:inflight')];
    this.#channel = options.link.key('bus:ledger');
    const define = (name: string, lua: string): LuaScript => luaScript(options.link.command, `sgLedger${name}`, 2, lua);
    this.#scripts = {
      reserve: define('Reserve', RESERVE),
      commit: define('Commit', COMMIT),
      release: define('Release', RELEASE),
      exhausted: define('Exhausted', EXHAUSTED),
      rejoin: define('Rejoin', REJOIN),
      read: define('Read', READ),
    };
    options.bus.subscribe('ledger', (message) => this.#onPublished(message));
    options.link.onDown(() => this.#degrade());
    options.link.onUp(() => void this.#rejoin());
    // Published states can be missed (a subscriber reconnecting after Redis returned): the view is read again every so often.
    this.#refresh = setInterval(() => {
      if (this.#share === undefined && options.link.up) this.#run('read', []).catch(() => undefined);
    }, options.refreshMs ?? 1_000);
    this.#refresh.unref();
  }

  /** Opens the ledger and reads the shared count (degraded with a share of 0 when Redis is away). */
  static async open(options: RedisLedgerOptions): Promise<RedisLedger> {
    const ledger = new RedisLedger(options);
    if (options.link.up) await ledger.#rejoin();
    else ledger.#degrade();
    return ledger;
  }

  snapshot(): QuotaSnapshot {
    const view = this.#currentView();
    const used = Math.min(view.spent + this.#unsharedSpend(), view.limit);
    return {
      plan: this.plan,
      limit: view.limit,
      used,
      remaining: Math.max(0, view.limit - used),
      resetsAt: view.resetsAt,
    };
  }

  available(): number {
    if (this.#share !== undefined) return this.#share.available;
    const view = this.#currentView();
    return Math.max(0, view.limit - view.spent - view.inFlight - this.#owed);
  }

  reserve(context: { version: string; route: string }): Reservation {
    if (this.available() < 1) throw this.#exhausted(context);
    const share = this.#share;
    if (share !== undefined) return this.#reserveFromShare(share);
    const member = `${this.#link.replicaId}:${++this.#sequence}`;
    let granted = false;
    let settled = false;
    const durable = this.#run('reserve', [member, this.#expiryMs]).then(
      (ok) => {
        if (ok) {
          granted = true;
          return;
        }
        settled = true;
        throw this.#exhausted(context);
      },
      (error: unknown) => {
        settled = true;
        // Unknown whether Redis took it: give it back in case it did. Only a
        // Redis that is away (the link says so) lets the replica spend from
        // its share; a slow answer is not a licence to guess.
        this.#run('release', [member]).catch(() => undefined);
        this.#logger.warn({ err: error }, 'allowance reservation not confirmed by Redis: nothing sent');
        throw new GatewayError(
          ErrorCode.QuotaExhausted,
          'The shared allowance could not be checked in time; nothing was sent.',
          {
            version: context.version,
            route: context.route,
            resetsAt: new Date(this.#currentView().resetsAt).toISOString(),
          },
        );
      },
    );
    return {
      durable,
      commit: (headers) => {
        if (settled) return;
        settled = true;
        if (granted) this.#run('commit', [member, ...rateLimitHeaders(headers)]).catch(() => undefined);
      },
      release: () => {
        if (settled) return;
        settled = true;
        if (granted) this.#run('release', [member]).catch(() => undefined);
      },
    };
  }

  markExhausted(retryAfterSeconds: number | undefined): void {
    this.#share?.exhaust();
    this.#run('exhausted', [retryAfterSeconds === undefined ? '' : retryAfterSeconds]).catch(() => undefined);
  }

  onChange(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Redis holds the count: nothing waits to be written. */
  flush(): Promise<void> {
    return Promise.resolve();
  }

  close(): void {
    clearInterval(this.#refresh);
  }

  #reserveFromShare(share: DegradedShare): Reservation {
    share.take(1);
    let settled = false;
    return {
      durable: Promise.resolve(),
      commit: () => {
        if (settled) return;
        settled = true;
        share.settle(1, 1);
        this.#owe(1);
      },
      release: () => {
        if (settled) return;
        settled = true;
        share.settle(1, 0);
      },
    };
  }

  /** Spent from a share: owed to the shared count, paid at once while Redis is here, else when it returns. */
  #owe(units: number): void {
    this.#owed += units;
    this.#changed();
    if (this.#share === undefined) void this.#payOwed();
  }

  /** Adds what is owed to the shared count (and raises a count that came back lower than last seen). */
  async #payOwed(): Promise<boolean> {
    const owed = this.#owed;
    const view = this.#view;
    this.#owed -= owed;
    try {
      if (await this.#run('rejoin', [owed, view?.spent ?? 0, view?.resetsAt ?? 0])) return true;
    } catch (error) {
      this.#logger.warn(
        { err: error, owed },
        'allowance: could not add what this replica spent to the shared count yet',
      );
    }
    this.#owed += owed;
    return false;
  }

  /** Enters degraded mode with a share of what was left as last seen; returns the share. */
  #degrade(): DegradedShare {
    if (this.#share !== undefined) return this.#share;
    const view = this.#view;
    const left = view === undefined ? 0 : Math.max(0, view.limit - view.spent - view.inFlight - this.#owed);
    const members = this.#link.recentMembers.length;
    this.#share = new DegradedShare(left, members);
    this.#logger.warn(
      { share: this.#share.size, left, members },
      "allowance: Redis is away, spending from this replica's share only",
    );
    this.#changed();
    return this.#share;
  }

  /** True once the shared count has been read from Redis (a replica that started while Redis was away has not). */
  get hasSharedView(): boolean {
    return this.#view !== undefined;
  }

  async #rejoin(): Promise<void> {
    const owed = this.#owed;
    // A Redis that came back empty counts states from 1 again: its first answer is the newest there is.
    if (this.#view !== undefined) this.#view = { ...this.#view, seq: 0 };
    // Not paid (Redis went away again at once): the next 'ready' tries again.
    if (!(await this.#payOwed())) return;
    // Reservations still held from the share settle into what is owed and are paid then.
    this.#share = undefined;
    this.#logger.info(
      { owed },
      'allowance: Redis is back, the shared count includes what this replica spent meanwhile',
    );
    this.#changed();
  }

  /** Runs a script; true when it granted. Throws when Redis did not answer. */
  async #run(name: ScriptName, args: ReadonlyArray<string | number>): Promise<boolean> {
    const script = this.#scripts[name];
    const reply = await script(this.#keys, [
      planAllowances[this.plan],
      upstreamAssumptions.allowanceResetHourUtc * 3_600_000,
      this.#channel,
      ...args,
    ]);
    if (!Array.isArray(reply) || reply.length < 6) throw new Error('unexpected reply from the ledger script');
    const [granted, limit, spent, inFlight, resetsAt, seq] = reply.slice(0, 6).map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    // The count of a lost hash is not shown: the view stays as last seen until the count is raised back.
    if (!this.#noticeLoss(String(reply[6] ?? ''))) this.#setView({ limit, spent, inFlight, resetsAt, seq });
    return granted === 1;
  }

  /**
   * A new epoch while this replica holds a view of today: the shared count
   * was lost, not reset. Its states count from 1 again (the view's sequence
   * starts over), and the count is raised back to the one last seen. True
   * when that is what happened.
   */
  #noticeLoss(epoch: string): boolean {
    const known = this.#epoch;
    this.#epoch = epoch;
    const seen = this.#view;
    if (known === '' || epoch === known || seen === undefined || seen.resetsAt <= Date.now()) return false;
    this.#logger.warn(
      { spent: seen.spent, previousEpoch: known, epoch },
      'allowance: the shared count in Redis was lost (key deleted, evicted or Redis restarted empty); raising it back to the count this replica last saw',
    );
    this.#view = { ...seen, seq: 0 };
    this.#run('rejoin', [0, seen.spent, seen.resetsAt]).catch((error: unknown) =>
      this.#logger.warn({ err: error }, 'allowance: could not restore the shared count yet'),
    );
    return true;
  }

  #onPublished(message: string): void {
    const [limit, spent, inFlight, resetsAt, seq] = message.split(' ').map(Number);
    if (
      limit === undefined ||
      spent === undefined ||
      inFlight === undefined ||
      resetsAt === undefined ||
      seq === undefined
    )
      return;
    if (![limit, spent, inFlight, resetsAt, seq].every(Number.isFinite)) return;
    this.#setView({ limit, spent, inFlight, resetsAt, seq });
  }

  #setView(view: LedgerView): void {
    if (this.#view !== undefined && view.seq <= this.#view.seq) return;
    this.#view = {
      limit: clampInt(view.limit),
      spent: clampInt(view.spent),
      inFlight: clampInt(view.inFlight),
      resetsAt: view.resetsAt,
      seq: view.seq,
    };
    this.#changed();
  }

  /** The view, rolled over locally when its reset has passed (the next script confirms it). */
  #currentView(): LedgerView {
    const now = Date.now();
    const view = this.#view;
    if (view === undefined || now >= view.resetsAt) {
      const limit = planAllowances[this.plan];
      return {
        limit,
        spent: view === undefined ? limit : 0,
        inFlight: 0,
        resetsAt: view === undefined ? wholeSecond(now + DAY_MS) : nextResetAt(now),
        seq: view?.seq ?? 0,
      };
    }
    return view;
  }

  /** Spent from shares and not yet in the shared count. */
  #unsharedSpend(): number {
    return this.#owed;
  }

  #exhausted(context: { version: string; route: string }): GatewayError {
    return new GatewayError(ErrorCode.QuotaExhausted, 'The daily upstream allowance is spent.', {
      version: context.version,
      route: context.route,
      resetsAt: new Date(this.#currentView().resetsAt).toISOString(),
    });
  }

  #changed(): void {
    if (this.#listeners.size === 0) return;
    const snapshot = this.snapshot();
    for (const listener of this.#listeners) listener(snapshot);
  }
}

/** The upstream's rate-limit headers as script arguments ('' when absent or not a whole number). */
function rateLimitHeaders(header: HeaderSource | undefined): [string, string, string] {
  const names = upstreamAssumptions.rateLimitHeaders;
  const read = (name: string, min: number): string => {
    const value = header?.(name);
    if (value === undefined || value.trim() === '') return '';
    const parsed = Number(value);
    return Number.isInteger(parsed) && parsed >= min && parsed <= MAX_ALLOWANCE ? String(parsed) : '';
  };
  return [read(names.limit, 1), read(names.remaining, 0), read(names.reset, 1)];
}

function clampInt(value: number): number {
  return Math.max(0, Math.min(Math.trunc(value), MAX_ALLOWANCE));
}
