/**
 * The response cache's shared tier on Redis (src/upstream/shared-tier.ts has
 * the contract, src/upstream/cluster-flight.ts the protocol over it).
 *
 * Keys, under the link's prefix:
 * - `cache:entry:{key}`: a hash `{ freshUntil, storedAt, entry }`, `entry`
 *   being the JSON of one SharedEntry (value, storedAt, ttlMs, size, or a
 *   404's code/message/details). It expires `ttl + maxStale` after it is
 *   written (a 404 at its TTL: nobody answers stale with one), so Redis holds
 *   every fresh and stale copy the replicas may answer from, and no more.
 *   A write never replaces a newer entry (`storedAt`), so a slow holder that
 *   lost its lock cannot put an older value back.
 * - `cache:lock:{key}`: who loads `key` for the cluster now, `SET NX PX
 *   lockMs` with a token of the holder's, renewed every `renewMs` while the
 *   load runs. A holder that dies stops renewing, its lock expires within
 *   `lockMs`, and the next waiter to claim takes over.
 * Claim and store are each one Lua script: "read, and lock when not fresh"
 * and "write, then unlock if still mine" are atomic, so no replica can see
 * the lock free and the entry missing while the holder is between the two.
 *
 * Notices ("stored", "failed" with the code and the lock's token,
 * "released") go out on the bus (pub/sub), one channel for all keys,
 * published by the store and release scripts themselves, so a load costs
 * one round trip at its end, not two; waiters also claim again every
 * `pollMs`, so a notice lost (pub/sub is at most once) costs a poll, no more.
 *
 * Freshness compares `freshUntil` (the storing replica's clock) with the
 * asking replica's clock: replicas are assumed to keep time (NTP) to well
 * under a TTL, the same assumption a TTL across machines always makes.
 *
 * Redis away: `link.up` is false and every method answers at once (claim
 * `away`, writes skipped); a command that fails or times out (the link's
 * command timeout, 1 s) is the same. Nothing here ever rejects.
 *
 * Memory: every distinct resource the cluster fetched within `ttl +
 * CACHE_MAX_STALE_SECONDS` is held once. Bound it with Redis's `maxmemory`
 * and a `volatile-*` eviction policy if that may outgrow the server: every
 * key here has an expiry, and an entry evicted is a miss, never an error.
 */
import { randomBytes } from 'node:crypto';
import type {
  Claim,
  Landing,
  LandingWatch,
  SharedEntry,
  SharedError,
  SharedTier,
  TierLock,
} from '../../upstream/shared-tier.js';
import { luaScript, type LuaScript } from './lua-script.js';
import type { RedisBus } from './redis-coordination.js';
import type { RedisLink } from './redis-link.js';

export interface RedisResponseTierOptions {
  readonly link: RedisLink;
  /** A Redis bus: `store` and `abandon` publish their notice from their own script, in the same round trip. */
  readonly bus: RedisBus;
  /** How long past its TTL an entry may still answer stale (the cache's `maxStaleMs`): the key lives that long. */
  readonly maxStaleMs: number;
  /** Lock time of a load; a dead holder is taken over within it. @default 3_000 */
  readonly lockMs?: number;
  /** How often a holder renews its lock while loading. @default 1_000 */
  readonly renewMs?: number;
}

/** One channel for every key: a replica subscribes once, not once per resource. */
const LANDED_CHANNEL = 'cache:landed';

/** `t`: the token of the lock the load held ('' without one), so a waiter tells its holder's failure from an older one's. */
type Notice =
  | { k: string; o: 'stored' }
  | { k: string; o: 'released' }
  | { k: string; o: 'failed'; t: string; e: SharedError };

const CLAIM = `
local freshUntil = tonumber(redis.call('HGET', KEYS[1], 'freshUntil') or '0')
local storedAt = tonumber(redis.call('HGET', KEYS[1], 'storedAt') or '0')
if freshUntil > tonumber(ARGV[1]) and storedAt >= tonumber(ARGV[5]) then
  return {'fresh', redis.call('HGET', KEYS[1], 'entry')}
end
local stale = ''
if ARGV[4] == '1' then stale = redis.call('HGET', KEYS[1], 'entry') or '' end
if redis.call('SET', KEYS[2], ARGV[2], 'NX', 'PX', ARGV[3]) then
  return {'mine', stale}
end
return {'theirs', stale, redis.call('GET', KEYS[2]) or ''}
`;

const STORE = `
local storedAt = tonumber(redis.call('HGET', KEYS[1], 'storedAt') or '0')
if tonumber(ARGV[2]) >= storedAt then
  redis.call('HSET', KEYS[1], 'freshUntil', ARGV[1], 'storedAt', ARGV[2], 'entry', ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
if ARGV[5] ~= '' and redis.call('GET', KEYS[2]) == ARGV[5] then
  redis.call('DEL', KEYS[2])
end
redis.call('PUBLISH', ARGV[6], ARGV[7])
return 1
`;

const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
end
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
`;

interface Watcher {
  readonly notices: Landing[];
  wake: (() => void) | undefined;
}

export class RedisResponseTier implements SharedTier {
  readonly #link: RedisLink;
  readonly #bus: RedisBus;
  readonly #maxStaleMs: number;
  readonly #lockMs: number;
  readonly #renewMs: number;
  readonly #claim: LuaScript;
  readonly #store: LuaScript;
  readonly #renew: LuaScript;
  readonly #release: LuaScript;
  readonly #watchers = new Map<string, Set<Watcher>>();
  /** Renewal timers of the locks this replica holds, by token. */
  readonly #renewals = new Map<string, NodeJS.Timeout>();
  #tokens = 0;
  readonly #tokenSalt = randomBytes(6).toString('hex');

  constructor(options: RedisResponseTierOptions) {
    this.#link = options.link;
    this.#bus = options.bus;
    this.#maxStaleMs = options.maxStaleMs;
    this.#lockMs = options.lockMs ?? 3_000;
    this.#renewMs = options.renewMs ?? 1_000;
    const client = options.link.command;
    this.#claim = luaScript(client, 'sgCacheClaim', 2, CLAIM);
    this.#store = luaScript(client, 'sgCacheStore', 2, STORE);
    this.#renew = luaScript(client, 'sgCacheRenew', 1, RENEW);
    this.#release = luaScript(client, 'sgCacheRelease', 1, RELEASE);
    this.#bus.subscribe(LANDED_CHANNEL, (message) => this.#heard(message));
  }

  async claim(key: string, now: number, withStale: boolean, notBefore = 0): Promise<Claim> {
    if (!this.#link.up) return { kind: 'away' };
    this.#tokens += 1;
    const token = `${this.#link.replicaId}:${this.#tokenSalt}:${this.#tokens}`;
    let reply: unknown;
    try {
      reply = await this.#claim(
        [this.#entryKey(key), this.#lockKey(key)],
        [now, token, this.#lockMs, withStale ? '1' : '0', notBefore],
      );
    } catch {
      return { kind: 'away' };
    }
    if (!Array.isArray(reply) || typeof reply[0] !== 'string') return { kind: 'away' };
    const [kind, text, holder] = reply as [string, unknown, unknown];
    if (kind === 'fresh') {
      const entry = parseEntry(text);
      // An entry this replica cannot read is as good as none: load it here and overwrite it.
      return entry === undefined ? { kind: 'away' } : { kind: 'fresh', entry };
    }
    const stale = parseEntry(text);
    if (kind === 'mine') {
      this.#startRenewing(key, token);
      return { kind: 'mine', lock: { token }, stale };
    }
    return { kind: 'theirs', holder: typeof holder === 'string' ? holder : '', stale };
  }

  async peek(key: string): Promise<SharedEntry | undefined> {
    if (!this.#link.up) return undefined;
    try {
      return parseEntry(await this.#link.command.hget(this.#entryKey(key), 'entry'));
    } catch {
      return undefined;
    }
  }

  watch(key: string): LandingWatch {
    const watcher: Watcher = { notices: [], wake: undefined };
    let watchers = this.#watchers.get(key);
    if (watchers === undefined) {
      watchers = new Set();
      this.#watchers.set(key, watchers);
    }
    watchers.add(watcher);
    const own = watchers;
    return {
      next: (ms) => {
        const first = watcher.notices.shift();
        if (first !== undefined) return Promise.resolve(first);
        return new Promise<Landing>((resolve) => {
          const timer = setTimeout(
            () => {
              watcher.wake = undefined;
              resolve({ kind: 'quiet' });
            },
            Math.max(0, ms),
          );
          watcher.wake = () => {
            clearTimeout(timer);
            watcher.wake = undefined;
            resolve(watcher.notices.shift() ?? { kind: 'quiet' });
          };
        });
      },
      close: () => {
        watcher.wake?.();
        own.delete(watcher);
        if (own.size === 0 && this.#watchers.get(key) === own) this.#watchers.delete(key);
      },
    };
  }

  async store(key: string, entry: SharedEntry, lock: TierLock | undefined): Promise<void> {
    if (lock !== undefined) this.#stopRenewing(lock.token);
    if (!this.#link.up) return;
    const freshUntil = entry.storedAt + entry.ttlMs;
    // A 404 is never a stale answer, so it need not outlive its TTL.
    const keepMs = entry.kind === 'value' ? entry.ttlMs + this.#maxStaleMs : entry.ttlMs;
    const notice: Notice = { k: key, o: 'stored' };
    try {
      // The notice goes out from the script, once the entry is written: one round trip for both.
      await this.#store(
        [this.#entryKey(key), this.#lockKey(key)],
        [
          freshUntil,
          entry.storedAt,
          JSON.stringify(entry),
          Math.max(1, Math.round(keepMs)),
          lock?.token ?? '',
          this.#landedChannel,
          JSON.stringify(notice),
        ],
      );
    } catch {
      // Redis went away: the entry stays on this replica only; waiters claim again and find the lock expired.
    }
  }

  async abandon(key: string, lock: TierLock | undefined, error: SharedError | undefined): Promise<void> {
    if (lock !== undefined) this.#stopRenewing(lock.token);
    if (!this.#link.up) return;
    const notice: Notice =
      error === undefined ? { k: key, o: 'released' } : { k: key, o: 'failed', t: lock?.token ?? '', e: error };
    if (lock === undefined) {
      this.#bus.publish(LANDED_CHANNEL, JSON.stringify(notice));
      return;
    }
    try {
      // Unlocked and told in one round trip: the notice goes out from the script.
      await this.#release([this.#lockKey(key)], [lock.token, this.#landedChannel, JSON.stringify(notice)]);
    } catch {
      // The lock expires on its own; waiters find it free at their next claim.
    }
  }

  #startRenewing(key: string, token: string): void {
    const renew = (): void => {
      if (!this.#link.up) return;
      this.#renew([this.#lockKey(key)], [token, this.#lockMs]).then(
        (renewed) => {
          // Lost (expired during a pause, or Redis restarted empty): another replica may load it too; nothing to undo.
          if (renewed !== 1) this.#stopRenewing(token);
        },
        () => undefined,
      );
    };
    const timer = setInterval(renew, this.#renewMs);
    timer.unref();
    this.#renewals.set(token, timer);
  }

  #stopRenewing(token: string): void {
    clearInterval(this.#renewals.get(token));
    this.#renewals.delete(token);
  }

  #heard(message: string): void {
    const notice = parseNotice(message);
    if (notice === undefined) return;
    const watchers = this.#watchers.get(notice.k);
    if (watchers === undefined) return;
    const landing: Landing =
      notice.o === 'failed' ? { kind: 'failed', holder: notice.t, error: notice.e } : { kind: notice.o };
    for (const watcher of watchers) {
      watcher.notices.push(landing);
      watcher.wake?.();
    }
  }

  get #landedChannel(): string {
    return this.#bus.channelKey(LANDED_CHANNEL);
  }

  #entryKey(key: string): string {
    return this.#link.key(`cache:entry:${key}`);
  }

  #lockKey(key: string): string {
    return this.#link.key(`cache:lock:${key}`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSharedError(value: unknown): value is SharedError {
  return (
    isRecord(value) &&
    typeof value['code'] === 'string' &&
    typeof value['message'] === 'string' &&
    isRecord(value['details'])
  );
}

/** An entry as written by `store`, or undefined for anything else (absent, from another version, damaged). */
function parseEntry(text: unknown): SharedEntry | undefined {
  if (typeof text !== 'string' || text === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || typeof parsed['storedAt'] !== 'number' || typeof parsed['ttlMs'] !== 'number')
    return undefined;
  const { storedAt, ttlMs } = parsed;
  if (parsed['kind'] === 'value' && 'value' in parsed && typeof parsed['size'] === 'number') {
    return { kind: 'value', value: parsed['value'], storedAt, ttlMs, size: parsed['size'] };
  }
  if (parsed['kind'] === 'error' && isSharedError(parsed['error']))
    return { kind: 'error', error: parsed['error'], storedAt, ttlMs };
  return undefined;
}

function parseNotice(message: string): Notice | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || typeof parsed['k'] !== 'string') return undefined;
  const k = parsed['k'];
  if (parsed['o'] === 'stored' || parsed['o'] === 'released') return { k, o: parsed['o'] };
  if (parsed['o'] === 'failed' && typeof parsed['t'] === 'string' && isSharedError(parsed['e']))
    return { k, o: 'failed', t: parsed['t'], e: parsed['e'] };
  return undefined;
}
