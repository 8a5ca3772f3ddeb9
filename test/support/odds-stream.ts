/**
 * A GraphQL subscription over graphql-ws as a list of values that a test can
 * wait on.
 */
import type { Client } from 'graphql-ws';

export class Stream<T> {
  readonly values: T[] = [];
  /** Every message as it arrived on the wire (for "the key appears nowhere" checks). */
  readonly texts: string[] = [];
  completed = false;
  error: unknown;
  readonly #waiters = new Set<() => void>();

  push(value: T): void {
    this.values.push(value);
    this.texts.push(JSON.stringify(value));
    for (const wake of this.#waiters) wake();
  }

  /** Waits until `predicate` holds over the values so far; throws after `timeoutMs`. */
  async until(predicate: (values: T[]) => boolean, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.values)) {
      if (Date.now() > deadline)
        throw new Error(`timed out; got ${JSON.stringify(this.values.slice(-5)).slice(0, 2_000)}`);
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          this.#waiters.delete(wake);
          resolve();
        };
        this.#waiters.add(wake);
        setTimeout(wake, 50);
      });
    }
  }
}

export function subscribe<T>(
  client: Client,
  query: string,
  variables: Record<string, unknown>,
  field: string,
): { stream: Stream<T>; stop: () => void } {
  const stream = new Stream<T>();
  const stop = client.subscribe<Record<string, T>>(
    { query, variables },
    {
      next: (result) => {
        if (result.errors !== undefined) stream.error = result.errors;
        else if (result.data?.[field] !== undefined) stream.push(result.data[field]);
      },
      error: (error) => {
        stream.error = error;
      },
      complete: () => {
        stream.completed = true;
      },
    },
  );
  return { stream, stop };
}

/**
 * Every value of a subscription that completes by itself (a lineup watch), in
 * order; rejects on an error or on a message without data.
 */
export function collectUntilComplete<T>(
  client: Client,
  query: string,
  variables: Record<string, unknown>,
  field: string,
): Promise<T[]> {
  return new Promise<T[]>((resolve, reject) => {
    const seen: T[] = [];
    client.subscribe<Record<string, T>>(
      { query, variables },
      {
        next: (message) => {
          const value = message.data?.[field];
          if (value !== undefined) seen.push(value);
          else reject(new Error(JSON.stringify(message.errors)));
        },
        error: reject,
        complete: () => resolve(seen),
      },
    );
  });
}
