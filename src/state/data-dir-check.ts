/**
 * The first thing a gateway does with `DATA_DIR` (issue 35 item 4, issue 29
 * item 5): make sure it can be written and has room, before anything else
 * starts (the embedded sandbox, the port, the lock). A directory that is
 * read-only, unwritable or full would otherwise show up later as a raw
 * `EACCES`/`EROFS` stack from the lock or the cache file, or as a process
 * that starts and then loses every write.
 *
 * Why a probe file and not `access(W_OK)`: `access` says nothing about a
 * read-only mount for root, nor about a full disk. Writing a small file
 * (and removing it) is the question asked the way the state files ask it.
 */
import { closeSync, mkdirSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Code } from '../codes/error-codes.js';

/**
 * Below this much free space the directory counts as full: the ledger, the
 * client budgets and the cache file's first pages need well under it, and a
 * start on less would only fail at the first cache commit.
 */
export const MIN_FREE_BYTES = 1024 * 1024;

const PROBE_BYTES = 4096;

/** Stable code for a DATA_DIR the gateway cannot use (src/main.ts prints the message, exits 2). */
export class DataDirUnusableError extends Error {
  readonly code = Code.DATA_DIR_UNUSABLE;
  constructor(
    readonly dataDir: string,
    problem: string,
    remedy: string,
  ) {
    super(`DATA_DIR ${dataDir} ${problem}. ${remedy}`);
    this.name = 'DataDirUnusableError';
  }
}

const WRITABLE_REMEDY =
  'Point DATA_DIR at a directory this process can write (it holds the allowance ledger, client budgets and the upstream cache), or give it write access (a read-only mount or volume is not enough)';
const SPACE_REMEDY =
  'Free space on its file system or point DATA_DIR at one with room (at least 1 MiB; the upstream cache file grows up to CACHE_DISK_MAX_MB)';

/**
 * Creates `dataDir` if needed and checks that a file can be written in it and that it has room.
 * @throws DataDirUnusableError naming the directory, what is wrong and what to do.
 */
export function checkDataDir(dataDir: string): void {
  const dir = resolve(dataDir);
  const codeOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? String(error);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new DataDirUnusableError(dir, `cannot be created (${codeOf(error)})`, WRITABLE_REMEDY);
  }
  const probe = join(dir, `.write-check.${process.pid}`);
  try {
    const fd = openSync(probe, 'w');
    try {
      writeSync(fd, Buffer.alloc(PROBE_BYTES));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    rmSync(probe, { force: true });
    const code = codeOf(error);
    if (code === 'ENOSPC' || code === 'EDQUOT')
      throw new DataDirUnusableError(dir, `has no space left (${code})`, SPACE_REMEDY);
    throw new DataDirUnusableError(dir, `is not writable (${code})`, WRITABLE_REMEDY);
  }
  rmSync(probe, { force: true });
  const { bavail, bsize } = statfsSync(dir);
  const free = bavail * bsize;
  if (free < MIN_FREE_BYTES)
    throw new DataDirUnusableError(dir, `has no space left (${Math.floor(free / 1024)} KiB free)`, SPACE_REMEDY);
}
