/**
 * One process per `DATA_DIR` (issue 12): the gateway and the image importer
 * hold an exclusive lock on `DATA_DIR/.lock` for as long as they run.
 *
 * Why an OS lock (an open-file-description lock through
 * fs-native-extensions, `fcntl(F_OFD_SETLK)` on Linux) and not a pid file:
 * the kernel drops it when the process dies, however it dies, so a
 * `kill -9` never leaves the directory locked, and no guess about stale pids
 * is needed. Two gateways in one Node process conflict too: each open of the
 * file is its own description.
 *
 * The file's content (pid, start time) is only for the refusal message;
 * the lock is what decides.
 */
import { closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tryLock } from 'fs-native-extensions';
import { Code } from '../codes/error-codes.js';

export const LOCK_FILE = '.lock';

/** Stable code for start-up failures caused by state (src/main.ts prints the message, exits 2). */
export class DataDirInUseError extends Error {
  readonly code = Code.DATA_DIR_IN_USE;
  constructor(
    readonly dataDir: string,
    holder: string | undefined,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another sports-graph process${holder === undefined ? '' : ` (${holder})`}. ` +
        'One data directory belongs to one process: give each gateway its own DATA_DIR, or run replicas with REDIS_URL so that they share state through Redis. ' +
        'Stop the other process to use this directory.',
    );
    this.name = 'DataDirInUseError';
  }
}

export interface DataDirLock {
  readonly dataDir: string;
  /** Releases the lock (closing the descriptor releases it). Idempotent. */
  release(): void;
}

/**
 * Takes the lock on `dataDir`, creating the directory if needed.
 * @throws DataDirInUseError when another process (or another gateway in this one) holds it.
 */
export function lockDataDir(dataDir: string, purpose: string): DataDirLock {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, LOCK_FILE);
  const fd = openSync(file, 'a+');
  if (!tryLock(fd)) {
    closeSync(fd);
    throw new DataDirInUseError(dir, describeHolder(file));
  }
  ftruncateSync(fd, 0);
  writeSync(fd, JSON.stringify({ pid: process.pid, purpose, since: new Date().toISOString() }));
  let held = true;
  return {
    dataDir: dir,
    release: () => {
      if (!held) return;
      held = false;
      closeSync(fd);
    },
  };
}

function describeHolder(file: string): string | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown; purpose?: unknown; since?: unknown };
    if (typeof holder.pid !== 'number') return undefined;
    return `pid ${holder.pid}${typeof holder.purpose === 'string' ? `, ${holder.purpose}` : ''}${typeof holder.since === 'string' ? `, since ${holder.since}` : ''}`;
  } catch {
    return undefined;
  }
}
