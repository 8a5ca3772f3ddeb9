/**
 * The persistent image store under `DATA_DIR/images`: image bytes in
 * content-addressed files (`files/<sha256>.<ext>`, so one logo served under
 * two keys is kept once) and an index (`index.json`) keyed by
 * version + type + ID (+ imageVersion for V1).
 *
 * The index also remembers answers that are not images: a V1 placeholder and
 * a V2/V6 "not found upstream", each for a day, so that asking again within
 * the day costs nothing either. Logos never expire (spec 4.2.8); V6 images
 * expire after 24 hours (spec 4.2.5).
 *
 * Writes go through one promise chain and are written to a temporary file
 * and renamed, so a crash leaves the old index or the new one, never half.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export type StoreEntry =
  | {
      readonly kind: 'image';
      /** sha256 of the bytes, hex: file name and ETag. */
      readonly hash: string;
      readonly contentType: string;
      readonly size: number;
      readonly storedAt: number;
      /** Epoch ms; absent for logos, which are kept for good. */
      readonly expiresAt?: number;
    }
  | { readonly kind: 'placeholder' | 'missing'; readonly storedAt: number; readonly expiresAt: number };

export type ImageEntry = Extract<StoreEntry, { kind: 'image' }>;

interface IndexFile {
  readonly version: 1;
  readonly entries: Record<string, StoreEntry>;
}

const extensions: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/svg+xml': 'svg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

export interface ImageStoreOptions {
  /** `DATA_DIR/images`. */
  readonly dir: string;
  /** @default Date.now */
  readonly now?: () => number;
  readonly onPersistError?: (error: unknown) => void;
}

export class ImageStore {
  private readonly entries = new Map<string, StoreEntry>();
  private writing: Promise<void> = Promise.resolve();
  private readonly now: () => number;

  private constructor(private readonly options: ImageStoreOptions) {
    this.now = options.now ?? Date.now;
  }

  static async open(options: ImageStoreOptions): Promise<ImageStore> {
    const store = new ImageStore(options);
    await mkdir(join(options.dir, 'files'), { recursive: true });
    try {
      const parsed = JSON.parse(await readFile(store.indexFile, 'utf8')) as Partial<IndexFile>;
      for (const [key, entry] of Object.entries(parsed.entries ?? {})) store.entries.set(key, entry);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ENOENT') options.onPersistError?.(error);
    }
    return store;
  }

  private get indexFile(): string {
    return join(this.options.dir, 'index.json');
  }

  /** The entry for a key, unless it has expired. */
  get(key: string): StoreEntry | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= this.now()) return undefined;
    return entry;
  }

  /** True when an image (not a placeholder or a miss) is stored under the key. */
  hasImage(key: string): boolean {
    return this.get(key)?.kind === 'image';
  }

  async read(entry: ImageEntry): Promise<Buffer> {
    return readFile(this.fileOf(entry.hash, entry.contentType));
  }

  /** Stores bytes under a key; `ttlMs` undefined keeps them for good. */
  async putImage(key: string, bytes: Buffer, contentType: string, ttlMs?: number): Promise<ImageEntry> {
    const hash = createHash('sha256').update(bytes).digest('hex');
    const now = this.now();
    const entry: ImageEntry = {
      kind: 'image',
      hash,
      contentType,
      size: bytes.length,
      storedAt: now,
      ...(ttlMs === undefined ? {} : { expiresAt: now + ttlMs }),
    };
    const file = this.fileOf(hash, contentType);
    const temporary = `${file}.${process.pid}.${now}.tmp`;
    await writeFile(temporary, bytes);
    await rename(temporary, file);
    this.entries.set(key, entry);
    await this.persist();
    return entry;
  }

  /** Remembers an answer that is not an image (placeholder, not found) for `ttlMs`. */
  async putMarker(key: string, kind: 'placeholder' | 'missing', ttlMs: number): Promise<void> {
    const now = this.now();
    this.entries.set(key, { kind, storedAt: now, expiresAt: now + ttlMs });
    await this.persist();
  }

  private fileOf(hash: string, contentType: string): string {
    return join(this.options.dir, 'files', `${hash}.${extensions[contentType] ?? 'bin'}`);
  }

  private persist(): Promise<void> {
    const run = async (): Promise<void> => {
      const body: IndexFile = { version: 1, entries: Object.fromEntries(this.entries) };
      const temporary = `${this.indexFile}.tmp`;
      await writeFile(temporary, JSON.stringify(body));
      await rename(temporary, this.indexFile);
    };
    this.writing = this.writing.then(run, run).catch((error: unknown) => this.options.onPersistError?.(error));
    return this.writing;
  }

  /** Waits for pending index writes. */
  flush(): Promise<void> {
    return this.writing;
  }
}
