/**
 * The cluster's shared images on Redis (src/images/shared-images.ts has the
 * contract), bounded in bytes.
 *
 * Why Redis and not a shared directory: the replicas already share Redis
 * and nothing else; a shared directory would need a network file system
 * every replica mounts, with its own failure modes and locking, for a few
 * megabytes of logos. Why a bound of its own: logos are kept for good
 * (spec 4.2.8), so without one the shared copies grow with every entity
 * ever shown, in the memory the allowance ledger and the leases live in.
 *
 * Keys, under the link's prefix:
 * - `images:item:{key}`: a hash `{ meta, bytes }`, `meta` the JSON of kind,
 *   content type and expiry; expiring with the image (V6 24 h, markers a day);
 * - `images:lru`: a sorted set of keys by when they were last put or read;
 * - `images:sizes` and `images:bytes`: each key's bytes and their sum.
 * One Lua script puts an image and, while the sum would pass `maxBytes`,
 * drops the least recently used ones, so the bound holds at every moment.
 * A V6 image or a marker that expired on its own is counted until the
 * bound reaches it: the sum can only overstate what Redis holds.
 * (The script names item keys it was not given as KEYS: fine on one Redis
 * server, as here; a Redis Cluster would need the keys in one hash slot.)
 *
 * An image bigger than `maxImageBytes` is not shared: each replica that
 * needs it fetches its own copy, as a single gateway would.
 */
import type { SharedImage, SharedImages } from '../../images/shared-images.js';
import type { RedisLink } from './redis-link.js';
import { defineScript } from './lua-script.js';

export interface RedisImagesOptions {
  readonly link: RedisLink;
  /**
   * Upper bound on the bytes of shared images in Redis.
   * @default 64 MiB
   */
  readonly maxBytes?: number;
  /**
   * Larger images are not shared.
   * @default 2 MiB
   */
  readonly maxImageBytes?: number;
  /** @default Date.now */
  readonly now?: () => number;
}

/** What a marker (placeholder without bytes, not found) is taken to weigh. */
const MARKER_BYTES = 64;

const PUT = `
local name = ARGV[1]
local size = tonumber(ARGV[4])
local max = tonumber(ARGV[6])
local total = tonumber(redis.call('GET', KEYS[4]) or '0') - tonumber(redis.call('HGET', KEYS[3], name) or '0')
redis.call('HDEL', KEYS[3], name)
redis.call('ZREM', KEYS[2], name)
while total + size > max do
  local oldest = redis.call('ZPOPMIN', KEYS[2])
  if #oldest == 0 then break end
  total = total - tonumber(redis.call('HGET', KEYS[3], oldest[1]) or '0')
  redis.call('HDEL', KEYS[3], oldest[1])
  redis.call('DEL', ARGV[8] .. oldest[1])
end
if total < 0 then total = 0 end
redis.call('DEL', KEYS[1])
if total + size > max then
  redis.call('SET', KEYS[4], total)
  return 0
end
redis.call('HSET', KEYS[1], 'meta', ARGV[2], 'bytes', ARGV[3])
if ARGV[5] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[5]) end
redis.call('ZADD', KEYS[2], ARGV[7], name)
redis.call('HSET', KEYS[3], name, size)
redis.call('SET', KEYS[4], total + size)
return 1
`;

type PutCommand = (...args: Array<string | number | Buffer>) => Promise<unknown>;

interface Meta {
  kind: SharedImage['kind'];
  contentType?: string;
  expiresAt?: number;
}

export class RedisImages implements SharedImages {
  readonly #link: RedisLink;
  readonly #maxBytes: number;
  readonly #maxImageBytes: number;
  readonly #now: () => number;
  readonly #put: PutCommand;

  constructor(options: RedisImagesOptions) {
    this.#link = options.link;
    this.#maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.#maxImageBytes = options.maxImageBytes ?? 2 * 1024 * 1024;
    this.#now = options.now ?? Date.now;
    // Defined here rather than through luaScript(): the image bytes go as a Buffer, not a string.
    const client = options.link.command;
    defineScript(client, 'sgImagePut', 4, PUT);
    const put = (client as unknown as Record<string, PutCommand>)['sgImagePut'];
    if (put === undefined) throw new Error('ioredis did not define sgImagePut');
    this.#put = (...args) => put.call(client, ...args);
  }

  async get(key: string): Promise<SharedImage | undefined> {
    if (!this.#link.up) return undefined;
    let found: Array<Buffer | null>;
    try {
      found = await this.#link.command.hmgetBuffer(this.#itemKey(key), 'meta', 'bytes');
    } catch {
      return undefined;
    }
    const [metaBytes, bytes] = found;
    if (metaBytes == null) return undefined;
    const image = imageOf(metaBytes.toString('utf8'), bytes ?? undefined, this.#now());
    // Recently read counts as recently used for the bound (XX: never re-adds a key the bound just dropped).
    if (image !== undefined) this.#link.command.zadd(this.#key('lru'), 'XX', this.#now(), key).catch(() => undefined);
    return image;
  }

  async put(key: string, image: SharedImage): Promise<void> {
    if (!this.#link.up) return;
    const bytes = image.kind === 'missing' ? Buffer.alloc(0) : image.bytes;
    if (bytes.length > this.#maxImageBytes) return;
    const now = this.#now();
    if (image.expiresAt !== undefined && image.expiresAt <= now) return;
    const meta: Meta = {
      kind: image.kind,
      ...(image.kind === 'image' ? { contentType: image.contentType } : {}),
      ...(image.expiresAt === undefined ? {} : { expiresAt: image.expiresAt }),
    };
    try {
      await this.#put(
        this.#itemKey(key),
        this.#key('lru'),
        this.#key('sizes'),
        this.#key('bytes'),
        key,
        JSON.stringify(meta),
        bytes,
        Math.max(MARKER_BYTES, bytes.length),
        image.expiresAt === undefined ? '' : Math.max(1, image.expiresAt - now),
        this.#maxBytes,
        now,
        this.#itemKey(''),
      );
    } catch {
      // Redis away: this replica keeps its own copy; the others fetch theirs.
    }
  }

  #itemKey(key: string): string {
    return this.#key(`item:${key}`);
  }

  #key(name: string): string {
    return this.#link.key(`images:${name}`);
  }
}

function imageOf(metaText: string, bytes: Buffer | undefined, now: number): SharedImage | undefined {
  let meta: unknown;
  try {
    meta = JSON.parse(metaText);
  } catch {
    return undefined;
  }
  if (typeof meta !== 'object' || meta === null) return undefined;
  const { kind, contentType, expiresAt } = meta as Record<string, unknown>;
  if (expiresAt !== undefined && (typeof expiresAt !== 'number' || expiresAt <= now)) return undefined;
  if (kind === 'image' && typeof contentType === 'string' && bytes !== undefined) {
    return { kind, contentType, bytes, expiresAt: expiresAt as number | undefined };
  }
  if (typeof expiresAt !== 'number') return undefined;
  if (kind === 'placeholder' && bytes !== undefined) return { kind, bytes, expiresAt };
  if (kind === 'missing') return { kind, expiresAt };
  return undefined;
}
