/**
 * Bus, leases and board for a gateway that runs alone
 * (src/state/contracts.ts has the contracts): the process is the whole
 * cluster, so every lease is its own and every message stays in it.
 */
import type { Board, Bus, Leases } from '../contracts.js';

export class LocalBus implements Bus {
  readonly #listeners = new Map<string, Set<(message: string) => void>>();

  publish(channel: string, message: string): void {
    const listeners = this.#listeners.get(channel);
    if (listeners === undefined) return;
    for (const listener of [...listeners]) listener(message);
  }

  subscribe(channel: string, listener: (message: string) => void): () => void {
    let listeners = this.#listeners.get(channel);
    if (listeners === undefined) {
      listeners = new Set();
      this.#listeners.set(channel, listeners);
    }
    listeners.add(listener);
    const own = listeners;
    return () => {
      own.delete(listener);
      if (own.size === 0 && this.#listeners.get(channel) === own) this.#listeners.delete(channel);
    };
  }
}

export class LocalLeases implements Leases {
  readonly #held = new Set<string>();

  constructor(private readonly replicaId: string) {}

  acquire(name: string): Promise<boolean> {
    this.#held.add(name);
    return Promise.resolve(true);
  }

  renew(name: string): Promise<boolean> {
    return Promise.resolve(this.#held.has(name));
  }

  release(name: string): Promise<void> {
    this.#held.delete(name);
    return Promise.resolve();
  }

  holder(name: string): Promise<string | undefined> {
    return Promise.resolve(this.#held.has(name) ? this.replicaId : undefined);
  }
}

export class LocalBoard implements Board {
  readonly #values = new Map<string, { value: string; until: number }>();

  get(key: string): Promise<string | undefined> {
    const entry = this.#values.get(key);
    if (entry === undefined) return Promise.resolve(undefined);
    if (entry.until <= Date.now()) {
      this.#values.delete(key);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(entry.value);
  }

  set(key: string, value: string, ttlMs: number): Promise<void> {
    this.#values.set(key, { value, until: Date.now() + ttlMs });
    return Promise.resolve();
  }
}
