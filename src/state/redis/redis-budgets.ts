/**
 * Client budgets shared by every replica of a cluster, in Redis
 * (src/spend/client-budgets.ts has the contract and the single-node one).
 *
 * - **One budget per client for the cluster.** A hold is taken in one Lua
 *   script: check, then add the held units to the client's count. The
 *   count is spent *plus held*, as the single-node file is: a replica that
 *   dies mid-operation leaves its whole estimate counted, never less than
 *   it spent. Settling gives back what the operation held and did not spend.
 * - **One reset for all**, in the script, on Redis's clock.
 * - **A view for synchronous readers** (`remaining`, the cost report): the
 *   counts the scripts returned or published.
 * - **Redis away**: each client may spend its share of what it had left,
 *   split among the replicas seen lately (src/state/redis/degraded-share.ts, recent-members.ts);
 *   the spending is added to its count when Redis returns.
 * - **Counts lost in Redis are restored, never restarted at 0.** The hash
 *   has no expiry (a `volatile-*` maxmemory policy cannot evict it) and an
 *   epoch: a replica that finds a new epoch while it holds today's view
 *   writes back the counts it last saw before spending (eviction-policy.ts
 *   warns at start when the policy could evict it anyway).
 */
import type { Logger } from 'pino';
import type { BudgetHold, Budgets } from '../../spend/client-budgets.js';
import type { ClientKey } from '../../access/client-keys.js';
import { nextResetAt, upstreamAssumptions } from '../../upstream/assumptions.js';
import type { Bus } from '../contracts.js';
import { DegradedShare } from './degraded-share.js';
import { luaScript, REDIS_NOW_MS, type LuaScript } from './lua-script.js';
import type { RedisLink } from './redis-link.js';

const DAY_MS = 86_400_000;

/**
 * KEYS[1] the counts (hash: `resetsAt`, `epoch`, `c:{client}`); ARGV[1] the
 * daily reset's offset from UTC midnight (ms), ARGV[2] the channel, ARGV[3]
 * the client, ARGV[4] the epoch this replica last saw ('' none), ARGV[5] the
 * reset its counts belong to.
 *
 * The hash carries no expiry: under a `volatile-*` maxmemory policy Redis
 * evicts only keys that have one, and a day's counts are replaced at the
 * reset by the script itself. Each new hash gets a new `epoch` (Redis's
 * clock in microseconds), so a replica can tell that the counts it saw today
 * are gone (deleted, flushed, evicted under an `allkeys-*` policy, a Redis
 * restarted empty) rather than spent at 0: `lost()` says so, and the
 * replica writes back what it last saw (RESTORE) before spending again.
 */
const PREAMBLE = `${REDIS_NOW_MS}
local day = ${DAY_MS}
local resets = tonumber(redis.call('HGET', KEYS[1], 'resetsAt'))
local epoch = redis.call('HGET', KEYS[1], 'epoch')
if not resets or now >= resets or resets > now + day or not epoch then
  if not resets or now >= resets or resets > now + day then
    resets = math.floor(now / day) * day + tonumber(ARGV[1])
    if resets <= now then resets = resets + day end
    redis.call('DEL', KEYS[1])
  end
  epoch = t[1] .. string.format('%06d', tonumber(t[2]))
  redis.call('HSET', KEYS[1], 'resetsAt', resets, 'epoch', epoch)
end
local field = 'c:' .. ARGV[3]
local function lost()
  return ARGV[4] ~= '' and ARGV[4] ~= epoch and tonumber(ARGV[5]) == resets
end
local function finish(granted, count)
  redis.call('PUBLISH', ARGV[2], resets .. ' ' .. count .. ' ' .. ARGV[3] .. '\\0' .. epoch)
  return {granted, count, resets, epoch}
end
local function restore_first()
  return {-1, 0, resets, epoch}
end
`;

/** ARGV[6] units, ARGV[7] the client's budget. */
const HOLD = `${PREAMBLE}
if lost() then return restore_first() end
local count = tonumber(redis.call('HGET', KEYS[1], field)) or 0
if count + tonumber(ARGV[6]) > tonumber(ARGV[7]) then return finish(0, count) end
return finish(1, redis.call('HINCRBY', KEYS[1], field, ARGV[6]))
`;

/** ARGV[6] units to add (negative: give back), ARGV[7] the reset the hold was taken under ('' for any). */
const ADJUST = `${PREAMBLE}
if lost() then return restore_first() end
local count = tonumber(redis.call('HGET', KEYS[1], field)) or 0
if ARGV[7] == '' or tonumber(ARGV[7]) == resets then
  count = math.max(0, count + tonumber(ARGV[6]))
  redis.call('HSET', KEYS[1], field, count)
end
return finish(1, count)
`;

/**
 * ARGV[6..] pairs of client and count, as this replica last saw them under
 * the reset ARGV[5]: each count is raised to at least that (another replica
 * may have restored or spent more already). Nothing when the day has turned.
 */
const RESTORE = `${PREAMBLE}
if tonumber(ARGV[5]) == resets then
  for i = 6, #ARGV - 1, 2 do
    local name = 'c:' .. ARGV[i]
    local seen = tonumber(ARGV[i + 1])
    local count = tonumber(redis.call('HGET', KEYS[1], name)) or 0
    if seen > count then
      redis.call('HSET', KEYS[1], name, seen)
      redis.call('PUBLISH', ARGV[2], resets .. ' ' .. seen .. ' ' .. ARGV[i] .. '\\0' .. epoch)
    end
  end
end
return {1, 0, resets, epoch}
`;

/** One budget script's answer; `granted` -1 asks for the counts to be restored first. */
interface BudgetReply {
  granted: number;
  count: number;
  resetsAt: number;
  epoch: string;
}

export interface RedisBudgetsOptions {
  readonly keys: readonly ClientKey[];
  readonly link: RedisLink;
  readonly bus: Bus;
  readonly logger: Logger;
}

export class RedisBudgets implements Budgets {
  readonly #budgets: ReadonlyMap<string, number>;
  readonly #link: RedisLink;
  readonly #logger: Logger;
  readonly #key: readonly string[];
  readonly #channel: string;
  readonly #hold: LuaScript;
  readonly #adjust: LuaScript;
  readonly #restore: LuaScript;
  /** The shared hash's epoch as the last script saw it ('' before any): a different one today means the counts were lost. */
  #epoch = '';
  /** Each client's count (spent + held) as last seen, and the reset it belongs to. */
  readonly #counts = new Map<string, number>();
  #resetsAt = nextResetAt(Date.now());
  /** Per client while Redis is away. */
  readonly #shares = new Map<string, DegradedShare>();
  /** Units spent from shares, per client, not yet in the shared count. */
  readonly #owed = new Map<string, number>();
  #degraded: boolean;

  constructor(options: RedisBudgetsOptions) {
    this.#budgets = new Map(options.keys.filter((k) => k.budget !== undefined).map((k) => [k.name, k.budget ?? 0]));
    this.#link = options.link;
    this.#logger = options.logger;
    this.#key = [options.link.key('budgets')];
    this.#channel = options.link.key('bus:budgets');
    this.#hold = luaScript(options.link.command, 'sgBudgetHold', 1, HOLD);
    this.#adjust = luaScript(options.link.command, 'sgBudgetAdjust', 1, ADJUST);
    this.#restore = luaScript(options.link.command, 'sgBudgetRestore', 1, RESTORE);
    this.#degraded = !options.link.up;
    // `resetsAt count client\0epoch`: an older replica reads `client\0epoch` as an unknown client and ignores it.
    options.bus.subscribe('budgets', (message) => {
      const cut = message.lastIndexOf('\0');
      const [resetsAt, count, ...client] = (cut < 0 ? message : message.slice(0, cut)).split(' ');
      // A replica whose view comes only from others' scripts knows its epoch too, so it can tell a loss when it next spends.
      if (cut >= 0 && this.#epoch === '') this.#epoch = message.slice(cut + 1);
      this.#see(client.join(' '), Number(count), Number(resetsAt));
    });
    options.link.onDown(() => {
      this.#degraded = true;
    });
    options.link.onUp(() => void this.#rejoin());
  }

  has(client: string | undefined): client is string {
    return client !== undefined && this.#budgets.has(client);
  }

  remaining(client: string | undefined): number | undefined {
    if (!this.has(client)) return undefined;
    const share = this.#shares.get(client);
    if (this.#degraded && share !== undefined) return share.available;
    this.#rollOver();
    return Math.max(
      0,
      (this.#budgets.get(client) ?? 0) - (this.#counts.get(client) ?? 0) - (this.#owed.get(client) ?? 0),
    );
  }

  get resetsAtIso(): string {
    this.#rollOver();
    return new Date(this.#resetsAt).toISOString();
  }

  async hold(client: string, units: number): Promise<BudgetHold | undefined> {
    if (!this.#degraded) {
      try {
        const [granted, resetsAt] = await this.#run(this.#hold, client, [units, this.#budgets.get(client) ?? 0]);
        if (!granted) return undefined;
        return this.#sharedHold(client, units, resetsAt);
      } catch (error) {
        this.#logger.warn({ err: error, client }, "budget hold not confirmed by Redis: using this replica's share");
        this.#degraded = true;
      }
    }
    const share = this.#shareOf(client);
    if (!share.take(units)) return undefined;
    let settled = false;
    return {
      settle: (spent) => {
        if (!settled) {
          settled = true;
          share.settle(units, spent);
          if (spent > 0) this.#owe(client, spent);
        }
        return this.remaining(client) ?? 0;
      },
    };
  }

  #sharedHold(client: string, units: number, resetsAt: number): BudgetHold {
    let settled = false;
    return {
      settle: (spent) => {
        if (!settled) {
          settled = true;
          if (spent !== units) this.#correct(client, spent - units, resetsAt);
        }
        return this.remaining(client) ?? 0;
      },
    };
  }

  /** The count already holds the estimate: gives back what was not spent, or adds what was spent past it. */
  #correct(client: string, delta: number, resetsAt: number): void {
    this.#counts.set(client, Math.max(0, (this.#counts.get(client) ?? 0) + delta));
    this.#run(this.#adjust, client, [delta, resetsAt]).catch(() => {
      // A refund lost with Redis only keeps the client more careful; spending past the hold is owed.
      if (delta > 0) this.#owe(client, delta);
    });
  }

  #shareOf(client: string): DegradedShare {
    let share = this.#shares.get(client);
    if (share === undefined) {
      share = new DegradedShare(this.remaining(client) ?? 0, this.#link.recentMembers.length);
      this.#shares.set(client, share);
    }
    return share;
  }

  #owe(client: string, units: number): void {
    this.#owed.set(client, (this.#owed.get(client) ?? 0) + units);
    if (!this.#degraded) void this.#pay(client);
  }

  /** Adds what `client` owes to its shared count; false when Redis did not take it. */
  async #pay(client: string): Promise<boolean> {
    const owed = this.#owed.get(client) ?? 0;
    if (owed === 0) return true;
    this.#owed.delete(client);
    try {
      await this.#run(this.#adjust, client, [owed, '']);
      return true;
    } catch {
      this.#owed.set(client, (this.#owed.get(client) ?? 0) + owed);
      return false;
    }
  }

  async #rejoin(): Promise<void> {
    for (const client of [...this.#owed.keys()]) {
      if (!(await this.#pay(client))) return;
    }
    this.#shares.clear();
    this.#degraded = false;
  }

  /** Runs a script for `client`; returns [granted, resetsAt]. Counts found lost are restored first, once. */
  async #run(script: LuaScript, client: string, args: ReadonlyArray<string | number>): Promise<[boolean, number]> {
    let reply = await this.#call(script, client, args);
    if (reply.granted === -1) {
      await this.#restoreCounts(reply.epoch);
      reply = await this.#call(script, client, args);
      if (reply.granted === -1) throw new Error('the shared budget counts changed epoch again while being restored');
    }
    this.#epoch = reply.epoch;
    this.#see(client, reply.count, reply.resetsAt);
    return [reply.granted === 1, reply.resetsAt];
  }

  async #call(script: LuaScript, client: string, args: ReadonlyArray<string | number>): Promise<BudgetReply> {
    this.#rollOver();
    const reply = await script(this.#key, [
      upstreamAssumptions.allowanceResetHourUtc * 3_600_000,
      this.#channel,
      client,
      this.#epoch,
      this.#resetsAt,
      ...args,
    ]);
    if (!Array.isArray(reply) || reply.length < 4) throw new Error('unexpected reply from the budget script');
    const [granted, count, resetsAt] = reply.slice(0, 3).map(Number) as [number, number, number];
    return { granted, count, resetsAt, epoch: String(reply[3]) };
  }

  /**
   * The shared counts are gone while this replica still holds today's view
   * (the key deleted, flushed, evicted, or Redis restarted empty): that is
   * data loss, not a new day, so the counts last seen are written back.
   */
  async #restoreCounts(epoch: string): Promise<void> {
    const pairs = [...this.#counts].flatMap(([client, count]) => [client, count]);
    this.#logger.warn(
      { clients: this.#counts.size, previousEpoch: this.#epoch, epoch },
      'client budgets: the shared counts in Redis were lost (key deleted, evicted or Redis restarted empty); restoring the counts this replica last saw',
    );
    await this.#restore(this.#key, [
      upstreamAssumptions.allowanceResetHourUtc * 3_600_000,
      this.#channel,
      '',
      this.#epoch,
      this.#resetsAt,
      ...pairs,
    ]);
    this.#epoch = epoch;
  }

  #see(client: string, count: number, resetsAt: number): void {
    if (!Number.isFinite(count) || !Number.isFinite(resetsAt) || !this.#budgets.has(client)) return;
    if (resetsAt > this.#resetsAt) {
      this.#counts.clear();
      this.#resetsAt = resetsAt;
    }
    if (resetsAt === this.#resetsAt) this.#counts.set(client, Math.max(0, count));
  }

  #rollOver(): void {
    const now = Date.now();
    if (now < this.#resetsAt) return;
    this.#counts.clear();
    this.#resetsAt = nextResetAt(now);
  }
}
