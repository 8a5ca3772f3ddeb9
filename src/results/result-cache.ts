/**
 * The operation-result cache: whole `data` of queries that ran without
 * errors and without stale answers, kept no longer than the least fresh
 * upstream resource they used (so a hit is never older than re-executing
 * would be).
 *
 * `ResultCache` is the seam (DESIGN.md, "State"): alone, the gateway keeps
 * results in an LRU bounded by serialized bytes
 * (src/state/local/local-result-cache.ts); in a cluster,
 * src/state/redis/redis-result-cache.ts puts the same LRU in front of a
 * Redis tier every replica reads. The state backend (src/state/open-state.ts)
 * chooses; the yoga plugin and the HTTP fast path see only the interface.
 */
export interface StoredResult {
  readonly data: Record<string, unknown>;
  /** `data` serialized once when stored: a hit's response is spliced around it instead of re-serializing. */
  readonly json: string;
  /**
   * Route templates of the resources the result was built from, one per
   * load: a hit reports them as cache hits (`extensions.cost.cacheHits`, the
   * cache-hit metric), as executing again over the fresh cache would.
   */
  readonly routes: readonly string[];
  /**
   * The counted resources among them, with when the upstream gave each
   * answer (the upstream cache's clock): a hit reports each one's age in
   * `extensions.resources` as executing again over the fresh cache would.
   * Absent on a result stored before it was kept (a shared tier's older entry).
   */
  readonly answers?: readonly StoredAnswer[];
}

/** One counted upstream answer a stored result was built from. */
export interface StoredAnswer {
  readonly route: string;
  /** When the upstream cache stored the answer, epoch ms on its clock. */
  readonly storedAt: number;
}

export interface ResultKeyParts {
  readonly query: string;
  readonly operationName: string | null | undefined;
  readonly variables: unknown;
  readonly clientName: string | undefined;
}

/**
 * One key per (document text, operation name, variables, client).
 * `JSON.stringify` walks the variables recursively: callers pass only
 * variables that passed the input bounds (src/transport/http/input-bounds.ts), which
 * every door checks before any key is made.
 */
export function resultKey(parts: ResultKeyParts): string {
  return JSON.stringify([parts.clientName ?? null, parts.operationName ?? null, parts.variables ?? null, parts.query]);
}

export interface ResultCache {
  /**
   * This replica's own layer, synchronously: what the HTTP fast path
   * (src/transport/http/result-cache-hits.ts) answers from, so that a hit there never waits
   * on the network.
   */
  getLocal(key: string): StoredResult | undefined;
  /**
   * This replica's layer, then any shared tier behind it. A local hit is
   * returned synchronously; a shared lookup is a promise that never rejects
   * (a tier that cannot answer is a miss).
   */
  get(key: string): StoredResult | undefined | Promise<StoredResult | undefined>;
  /**
   * Keeps `result` for at most `ttlMs` in every layer.
   * @param ttlMs how long every resource the result used stays fresh, as of now.
   * @param resources the upstream cache keys the result was built from (fresh-results.ts reads them).
   */
  set(key: string, result: StoredResult, ttlMs: number, resources?: readonly string[]): void;
  /** The upstream cache keys the result under `key` was built from, when known here. */
  resourcesOf?(key: string): readonly string[] | undefined;
}

/** Bytes an entry is counted as: the object graph about as large as its JSON, held beside it, and the key. */
export function storedSize(key: string, result: StoredResult): number {
  return key.length + 2 * result.json.length;
}
