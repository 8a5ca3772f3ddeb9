/**
 * What an LMDB read or write failure (lmdb-js) means for the cache file.
 *
 * A rejected commit in lmdb-js rejects every write of the batch with
 * "Commit failed (see commitError for details)" and carries the cause as a
 * second, already rejected promise (`commitError`). Nobody else handles that
 * promise: left alone it is an unhandled rejection, which ends the process
 * (how a full DATA_DIR used to exit 1). `causeOf` handles it and returns the
 * cause.
 */

/** LMDB's codes for a page that failed its checks, and the transaction state that follows one. */
const DAMAGE_CODES = new Set([
  -30797, // MDB_PAGE_NOTFOUND: requested page not found
  -30796, // MDB_CORRUPTED: located page was wrong type
  -30795, // MDB_PANIC: update of meta page failed or environment had fatal error
  -30793, // MDB_INVALID: file is not an LMDB file
  -30782, // MDB_BAD_TXN: the transaction must abort (it met a bad page)
]);
const DAMAGE_NAMES = /MDB_CORRUPTED|MDB_PAGE_NOTFOUND|MDB_PANIC|MDB_INVALID|MDB_BAD_TXN/;

/** The cause of `error`: the commit's own error for a rejected batch, `error` itself otherwise. Never rejects. */
export async function causeOf(error: unknown): Promise<unknown> {
  const commitError = (error as { commitError?: unknown } | null)?.commitError;
  if (commitError instanceof Promise)
    return commitError.then(
      () => error,
      (cause: unknown) => cause,
    );
  return error;
}

/** True when `error` says the file itself is damaged (not full, not unwritable): it is set aside at the next start. */
export function isDamage(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (typeof code === 'number' && DAMAGE_CODES.has(code)) || (typeof message === 'string' && DAMAGE_NAMES.test(message))
  );
}

/** A short description for the log line: the errno or LMDB code and message. */
export function describeFailure(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
}
