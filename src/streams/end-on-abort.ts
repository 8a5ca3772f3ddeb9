/**
 * A subscription's event stream that ends (done) when `signal` aborts: on
 * SIGTERM every subscription completes normally, so a graphql-ws client gets
 * `complete` for each operation and an SSE client the stream's end, instead
 * of a cut connection. The source is told to stop (`return()`) without
 * waiting for it: a source waiting for its next event may not settle until
 * that event comes.
 */
export function endOnAbort<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncIterableIterator<T> {
  const iterator = source[Symbol.asyncIterator]();
  const done: IteratorReturnResult<undefined> = { done: true, value: undefined };
  let finished = false;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<IteratorReturnResult<undefined>>((resolve) => {
    onAbort = () => resolve(done);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  const finish = (stopSource: boolean): IteratorReturnResult<undefined> => {
    if (finished) return done;
    finished = true;
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
    if (stopSource) void Promise.resolve(iterator.return?.()).catch(() => undefined);
    return done;
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      if (finished) return done;
      const result = await Promise.race([iterator.next(), aborted]);
      if (result.done === true) return finish(signal.aborted);
      return result;
    },
    return() {
      return Promise.resolve(finish(true));
    },
    throw(error: unknown) {
      finish(true);
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    },
  };
}
