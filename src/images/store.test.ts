/**
 * The image index is never trusted blindly and never forgotten whole
 * (issue 12): the store alone, on real files in a temporary directory.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StateFileError } from '../state/state-file.js';
import { isGatewayError } from '../upstream/errors.js';
import { ImageStore, type ImageEntry } from './store.js';

interface LogLine {
  level: number;
  msg: string;
  file?: string;
  line?: number;
  key?: string;
  problem?: string;
}

const WARN = 40;
const png = (seed: number, size = 64): Buffer =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(size - 4, seed)]);

describe('image store index', () => {
  let dir: string;
  let logs: LogLine[];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) });
  const open = (options: { compactAfter?: number } = {}): Promise<ImageStore> =>
    ImageStore.open({ dir, logger, ...options });
  const journal = (): string => join(dir, 'index.jsonl');
  const journalLines = async (): Promise<string[]> =>
    (await readFile(journal(), 'utf8')).split('\n').filter((line) => line !== '');
  const warnings = (): LogLine[] => logs.filter((log) => log.level === WARN);
  const everyName = async (): Promise<string[]> => [
    ...(await readdir(dir)),
    ...(await readdir(join(dir, 'files'))).map((name) => `files/${name}`),
  ];

  /** Three images under keys a, b, c, written by a store that is then left. */
  const storeThree = async (): Promise<Record<'a' | 'b' | 'c', ImageEntry>> => {
    const store = await open();
    const a = await store.putImage('a', png(1), 'image/png');
    const b = await store.putImage('b', png(2), 'image/png');
    const c = await store.putImage('c', png(3), 'image/png');
    await store.flush();
    return { a, b, c };
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'image-store-'));
    logs = [];
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps images and markers across a reopen, one journal line per put', async () => {
    const first = await open();
    const logo = await first.putImage('v2/football/teams/1', png(1), 'image/png');
    await first.putImage('v6/football/-/x.png', png(2), 'image/png', 60_000);
    await first.putMarker('v2/football/teams/2', 'missing', 60_000);
    expect(await journalLines()).toHaveLength(3);

    const again = await open();
    expect(again.get('v2/football/teams/1')).toEqual(logo);
    expect((await again.read(logo)).equals(png(1))).toBe(true);
    expect(again.hasImage('v6/football/-/x.png')).toBe(true);
    expect(again.get('v2/football/teams/2')?.kind).toBe('missing');
    expect(warnings()).toEqual([]);
  });

  it('a damaged line in the middle costs only its own key, is named with file and line, and is compacted away', async () => {
    await storeThree();
    const lines = await journalLines();
    await writeFile(
      journal(),
      `${lines[0]}\n${lines[1]?.replace('"kind":"image"', '"kind":"im\u0000ge",,')}\n${lines[2]}\n`,
    );

    const store = await open();
    expect(store.hasImage('a')).toBe(true);
    expect(store.hasImage('b')).toBe(false);
    expect(store.hasImage('c')).toBe(true);
    expect(warnings()).toContainEqual(expect.objectContaining({ file: journal(), line: 2 }));
    expect(await journalLines()).toHaveLength(2);

    logs = [];
    await open();
    expect(warnings()).toEqual([]);
  });

  it('a truncated last line (a crash mid-append) is ignored, and the next put is not glued to it', async () => {
    const { a } = await storeThree();
    const text = await readFile(journal(), 'utf8');
    await truncate(journal(), Buffer.byteLength(text) - 10);

    const store = await open();
    expect(store.get('a')).toEqual(a);
    expect(store.hasImage('b')).toBe(true);
    expect(store.hasImage('c')).toBe(false);
    expect(warnings()).toContainEqual(
      expect.objectContaining({ file: journal(), msg: expect.stringMatching(/ends inside a line/) as unknown }),
    );
    await store.putImage('d', png(4), 'image/png');

    const again = await open();
    expect(['a', 'b', 'd'].map((key) => again.hasImage(key))).toEqual([true, true, true]);
  });

  it('a whole-garbage index neither crashes the store nor keeps it from storing again', async () => {
    await storeThree();
    await writeFile(
      journal(),
      Buffer.concat([
        Buffer.from('\u0000\u0001{{{\n[1,2]\n"x"\nnull\n'),
        Buffer.from([0xff, 0xfe, 0x0a, 0xc3, 0x28, 0x0a]),
        Buffer.from('{"key":'),
      ]),
    );

    const store = await open();
    expect(store.get('a')).toBeUndefined();
    expect(warnings().filter((log) => log.file === journal()).length).toBeGreaterThanOrEqual(6);
    await store.putImage('a', png(1), 'image/png');
    expect((await open()).hasImage('a')).toBe(true);
  });

  it('an entry with a wrong type or range is dropped with a warning; its valid neighbours are kept', async () => {
    const { a } = await storeThree();
    const valid = {
      key: 'k',
      kind: 'image',
      hash: a.hash,
      contentType: 'image/png',
      size: a.size,
      storedAt: a.storedAt,
    };
    const wrong: Array<Record<string, unknown>> = [
      { ...valid, key: 'size as string', size: String(a.size) },
      { ...valid, key: 'negative size', size: -1 },
      { ...valid, key: 'upper-case hash', hash: a.hash.toUpperCase() },
      { ...valid, key: 'short hash', hash: a.hash.slice(1) },
      { ...valid, key: 'html', contentType: 'text/html' },
      { ...valid, key: 'unknown kind', kind: 'banana' },
      { ...valid, key: 'fraction', storedAt: 1.5 },
      { ...valid, key: 'expires as string', expiresAt: '2030-01-01' },
      { key: 'marker without expiry', kind: 'missing', storedAt: 1 },
      { ...valid, key: '' },
      { ...valid, key: 'x'.repeat(5_000) },
      { ...valid, key: 42 },
    ];
    await writeFile(
      journal(),
      `${(await journalLines()).join('\n')}\n${wrong.map((entry) => JSON.stringify(entry)).join('\n')}\n`,
      'utf8',
    );

    const store = await open();
    expect(['a', 'b', 'c'].map((key) => store.hasImage(key))).toEqual([true, true, true]);
    for (const entry of wrong) if (typeof entry['key'] === 'string') expect(store.get(entry['key'])).toBeUndefined();
    const named = warnings().filter((log) => log.file === journal());
    expect(named.map((log) => log.line)).toEqual(wrong.map((_, index) => index + 4));
    expect(await journalLines()).toHaveLength(3);
  });

  it('an entry whose image file is missing or of another size is dropped, not served', async () => {
    const { a, b } = await storeThree();
    await rm(join(dir, 'files', `${a.hash}.png`));
    await truncate(join(dir, 'files', `${b.hash}.png`), 10);

    const store = await open();
    expect(store.get('a')).toBeUndefined();
    expect(store.get('b')).toBeUndefined();
    expect(store.hasImage('c')).toBe(true);
    expect(
      warnings()
        .map((log) => log.key)
        .sort(),
    ).toEqual(['a', 'b']);
  });

  it('migrates a version-1 index.json entry by entry, then removes it', async () => {
    const { a, b } = await storeThree();
    await rm(journal());
    const legacy = join(dir, 'index.json');
    await writeFile(
      legacy,
      JSON.stringify({
        version: 1,
        entries: {
          'old/a': a,
          'old/b': { ...b, size: 'big' },
          'old/miss': { kind: 'missing', storedAt: Date.now(), expiresAt: Date.now() + 60_000 },
        },
      }),
    );

    const store = await open();
    expect(store.get('old/a')).toEqual(a);
    expect(store.get('old/b')).toBeUndefined();
    expect(store.get('old/miss')?.kind).toBe('missing');
    expect(warnings()).toContainEqual(expect.objectContaining({ file: legacy }));
    expect(await readdir(dir)).not.toContain('index.json');
    expect((await open()).get('old/a')).toEqual(a);
  });

  it('a version-1 index.json that is not JSON is reported and removed; the store starts', async () => {
    const legacy = join(dir, 'index.json');
    await writeFile(legacy, '{"version":1,"entries":{"a":');
    const store = await open();
    expect(warnings()).toContainEqual(expect.objectContaining({ file: legacy }));
    expect(await readdir(dir)).not.toContain('index.json');
    await store.putMarker('x', 'missing', 60_000);
    expect((await open()).get('x')?.kind).toBe('missing');
  });

  it('removes temporaries a crashed process left, and leaves none of its own', async () => {
    await mkdir(join(dir, 'files'), { recursive: true });
    const leftovers = [
      'index.json.tmp',
      'index.jsonl.4242.abcd1234.tmp',
      `files/${'0'.repeat(64)}.png.4242.1700000000000.tmp`,
      `files/${'1'.repeat(64)}.png.4243.ab12cd34.tmp`,
    ];
    for (const name of leftovers) await writeFile(join(dir, name), 'half');

    const store = await open({ compactAfter: 2 });
    expect(await everyName()).toEqual(expect.not.arrayContaining(leftovers));
    for (let i = 0; i < 10; i += 1) await store.putImage(`k${i % 3}`, png(i), 'image/png');
    await store.putMarker('m', 'placeholder', 60_000);
    expect((await everyName()).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('compacts once superseded lines pass the bound, and keeps the last entry of each key', async () => {
    const store = await open({ compactAfter: 4 });
    let last: ImageEntry | undefined;
    for (let i = 0; i < 30; i += 1) last = await store.putImage(`k${i % 2}`, png(i), 'image/png');
    expect((await journalLines()).length).toBeLessThanOrEqual(2 + 4 + 1);
    expect((await open()).get('k1')).toEqual(last);
  });

  it('an index that cannot be read at all stops the open with a StateFileError naming it', async () => {
    await mkdir(journal(), { recursive: true });
    const error = await open().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StateFileError);
    expect((error as Error).message).toContain(journal());
    expect((error as Error).message).toMatch(/EISDIR/);
  });

  it('refuses an image type it could not index again, before writing anything', async () => {
    const store = await open();
    const error = await store.putImage('k', png(1), 'image/x-made-up').catch((caught: unknown) => caught);
    expect(isGatewayError(error) && error.code).toBe('UPSTREAM_INVALID_RESPONSE');
    expect(await readdir(join(dir, 'files'))).toEqual([]);
    expect(store.get('k')).toBeUndefined();
  });
});
