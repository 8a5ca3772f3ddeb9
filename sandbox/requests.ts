/**
 * Counts every request a non-control route receives, whatever its answer
 * (401, 404, 429 and faults included): tests use it to prove how many
 * upstream calls the gateway made, so nothing may be left out. A bounded log
 * of the same requests says what each one was and which key it carried, as a
 * class (`none`, `valid`, `other`), never the key itself.
 */
export interface RequestCounts {
  total: number;
  /** Keyed by `METHOD /pathname`, without the query string. */
  byRoute: Record<string, number>;
}

export type KeyClass = 'none' | 'valid' | 'other';

export interface RequestLogEntry {
  /** ISO 8601, UTC. */
  readonly at: string;
  readonly method: string;
  /** Pathname, without the query string. */
  readonly path: string;
  /** The raw query string, without `?`. */
  readonly query: string;
  readonly key: KeyClass;
}

/** Oldest entries go first beyond this, so a long benchmark cannot grow the log without bound. */
const MAX_LOG_ENTRIES = 10_000;

export class RequestLog {
  #total = 0;
  #byRoute = new Map<string, number>();
  #entries: RequestLogEntry[] = [];

  record(entry: RequestLogEntry): void {
    const routeKey = `${entry.method} ${entry.path}`;
    this.#total += 1;
    this.#byRoute.set(routeKey, (this.#byRoute.get(routeKey) ?? 0) + 1);
    this.#entries.push(entry);
    if (this.#entries.length > MAX_LOG_ENTRIES) this.#entries.splice(0, this.#entries.length - MAX_LOG_ENTRIES);
  }

  snapshot(): RequestCounts {
    return { total: this.#total, byRoute: Object.fromEntries(this.#byRoute) };
  }

  /** Oldest first. */
  entries(): readonly RequestLogEntry[] {
    return [...this.#entries];
  }

  reset(): void {
    this.#total = 0;
    this.#byRoute = new Map();
    this.#entries = [];
  }
}
