/**
 * The native addons the gateway loads (left external by the build, installed
 * once by `npm ci`) work on the Node that runs this file: CI runs the suite
 * on each Node line package.json promises with the same node_modules
 * (.ci/run), so each line loads the prebuilt binaries that `npm ci` chose.
 * LMDB keeps the upstream cache file, fs-native-extensions locks DATA_DIR,
 * and msgpackr-extract is msgpackr's native decoder, which msgpackr drops
 * silently (falling back to JavaScript) when it does not load.
 */
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tryLock, unlock } from 'fs-native-extensions';
import { open } from 'lmdb';
import { isNativeAccelerationEnabled } from 'msgpackr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe(`native addons on Node ${process.version}`, () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sports-graph-addons-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('lmdb stores and reads back a value', async () => {
    const db = open<{ n: number }, string>({ path: join(dir, 'cache.lmdb') });
    try {
      await db.put('key', { n: 1 });
      expect(db.get('key')).toEqual({ n: 1 });
    } finally {
      await db.close();
    }
  });

  it('fs-native-extensions takes and releases an OS lock', () => {
    const fd = openSync(join(dir, 'lock'), 'a+');
    try {
      expect(tryLock(fd)).toBe(true);
      unlock(fd);
    } finally {
      closeSync(fd);
    }
  });

  it('msgpackr decodes natively (msgpackr-extract loaded)', () => {
    expect(isNativeAccelerationEnabled).toBe(true);
  });
});
