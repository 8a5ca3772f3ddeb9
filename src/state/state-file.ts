/**
 * The rules every state file under `DATA_DIR` follows (issue 12):
 *
 * - Read: absent is a fresh start; anything else must parse and validate,
 *   or start-up stops with a `StateFileError` that names the file, says what
 *   is wrong and what to do. Nothing is silently believed or silently reset.
 * - Write: to a temporary file beside the target, then `rename`, so a crash
 *   leaves the old content or the new, never half. Temporary names carry the
 *   pid, and the owner of the directory (it holds the DATA_DIR lock, see
 *   data-dir-lock.ts) removes what a crashed process left behind.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Code } from '../codes/error-codes.js';

export class StateFileError extends Error {
  readonly code = Code.STATE_FILE_INVALID;
  constructor(
    readonly file: string,
    problem: string,
    remedy: string,
  ) {
    super(`${file}: ${problem}. ${remedy}`);
    this.name = 'StateFileError';
  }
}

/**
 * The parsed JSON of `file`, or undefined when it does not exist.
 * @throws StateFileError when it cannot be read or is not JSON (empty and truncated files included).
 */
export async function readJsonState(file: string, remedy: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, remedy);
  }
  if (text.trim() === '') throw new StateFileError(file, 'is empty', remedy);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new StateFileError(file, 'is not valid JSON (truncated or overwritten?)', remedy);
  }
}

const TMP_SUFFIX = '.tmp';

/** Writes `content` to `file` through a temporary file and a rename. */
export async function writeAtomic(file: string, content: string | Uint8Array): Promise<void> {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}${TMP_SUFFIX}`;
  try {
    await writeFile(temporary, content);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Removes the temporaries `writeAtomic` left in `dir` when a process died
 * between write and rename. Only the owner of the directory may call it.
 * @returns the names removed.
 */
export async function removeLeftoverTemporaries(dir: string, prefix = ''): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const leftovers = names.filter((name) => name.startsWith(prefix) && name.endsWith(TMP_SUFFIX));
  await Promise.all(leftovers.map((name) => rm(join(dir, name), { force: true })));
  return leftovers;
}

/** Temporaries of one file: `quota.json.<pid>.<rand>.tmp`. */
export function temporariesOf(file: string): { dir: string; prefix: string } {
  return { dir: dirname(file), prefix: `${basename(file)}.` };
}
