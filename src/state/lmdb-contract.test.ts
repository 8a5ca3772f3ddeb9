/**
 * What the cache file (cache-store-file.ts) relies on in lmdb-js beyond its
 * type definitions: the root database's `sync(callback)`, which runs
 * mdb_env_sync off the event loop and calls back when the pages are on the
 * disk. Checked on a real file with the installed lmdb, so that a release
 * that drops or renames it fails here, naming the version, instead of the
 * first `syncSoon` at run time.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { afterEach, describe, expect, it } from 'vitest';

// lmdb's exports map hides its package.json from require: read it where npm put it.
const { version } = JSON.parse(
  readFileSync(new URL('../../node_modules/lmdb/package.json', import.meta.url), 'utf8'),
) as { version: string };
const dirs: string[] = [];

afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe(`lmdb ${version}: the untyped part cache-store-file.ts uses`, () => {
  it('has sync(callback) on the root database, calling back once the commit is on the disk', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lmdb-contract-'));
    dirs.push(dir);
    const root = open<string, string>({ path: join(dir, 'contract.mdb'), noSync: true });
    try {
      const syncable = root as unknown as { sync?: unknown };
      expect(typeof syncable.sync, `lmdb ${version} no longer has RootDatabase.sync`).toBe('function');
      await root.put('key', 'value');
      const error = await new Promise<unknown>((resolve) =>
        (syncable.sync as (callback: (error?: unknown) => void) => void)(resolve),
      );
      expect(error ?? undefined).toBeUndefined();
      expect(root.get('key')).toBe('value');
    } finally {
      await root.close();
    }
  });
});
