/**
 * The last estimates (src/spend/estimate/estimate.ts) of each operation, by its
 * coerced variables, reused while what they read is unchanged.
 *
 * Why: with the upstream answers cached, the estimate walks the operation
 * over real values (resolvers run dry) and costs about a tenth of the
 * gateway's CPU per operation (issue 16), yet for the same document and
 * variables over the same cache it must come out the same.
 *
 * When an estimate is reused, all of these hold:
 * - the same schema, cost table, operation (the costed operation
 *   src/spend/estimate/costed-selections.ts keeps per document) and variables
 *   (compared as JSON);
 * - nothing the estimate can read has changed since the walk began: the
 *   response cache's entries and the image store (src/upstream/known-state.ts;
 *   a change made while the walk ran means it is not kept);
 * - it is at most `maxAgeMs` old. Entries age out of freshness without any
 *   write; an estimate made over a fresh entry could otherwise call it free
 *   long after it expired. This widens a race the estimate always had (an
 *   entry read fresh may expire before execution reaches it) from the
 *   walk's few milliseconds to at most this bound, and each counted
 *   request still passes its client's budget guard when it leaves;
 * - the walk spent nothing and joined nothing in flight: an estimate that
 *   loaded a list first (field-costs.ts) made the state it read;
 * - every cached answer the walk read is still fresh. The operation that
 *   reuses the estimate is then answered with those same answers (as the
 *   walk's own operation is: UpstreamLoader.keepKnown), so an entry that
 *   expires before execution reaches it is not sent for.
 */
import type { GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { Peeked } from '../../upstream/cache.js';
import { knownStateVersion } from '../../upstream/known-state.js';
import type { FieldCost } from './cost-rule.js';
import type { Estimate } from '../resource-estimate.js';

export interface EstimateMemoOptions {
  /** @default 500 */
  readonly maxAgeMs?: number;
  /** Variable sets kept per operation (the oldest goes first). @default 32 */
  readonly perOperation?: number;
  /** @default Date.now */
  readonly now?: () => number;
}

export interface MemoKey {
  readonly schema: GraphQLSchema;
  readonly costs: Readonly<Record<string, FieldCost>>;
  readonly operation: OperationDefinitionNode;
  readonly variables: Readonly<Record<string, unknown>>;
}

interface Kept {
  readonly estimate: Estimate;
  /** The cached answers the walk read, by cache key. */
  readonly known: ReadonlyMap<string, Peeked>;
  readonly version: number;
  readonly madeAt: number;
}

/** What a walk that may be kept started from. */
export interface WalkStart {
  readonly version: number;
  readonly madeAt: number;
  /** The variables as a key, made once for the walk (undefined: never kept). */
  readonly variables: string | undefined;
}

type ByVariables = Map<string, Kept>;

export class EstimateMemo {
  readonly #maxAgeMs: number;
  readonly #perOperation: number;
  readonly #now: () => number;
  readonly #kept = new WeakMap<
    GraphQLSchema,
    WeakMap<Readonly<Record<string, FieldCost>>, WeakMap<OperationDefinitionNode, ByVariables>>
  >();

  constructor(options: EstimateMemoOptions = {}) {
    this.#maxAgeMs = options.maxAgeMs ?? 500;
    this.#perOperation = options.perOperation ?? 32;
    this.#now = options.now ?? Date.now;
  }

  /** The kept estimate, when it still holds (see the module comment). */
  get(key: MemoKey, isFresh: (cacheKey: string) => boolean = () => true): Estimate | undefined {
    return this.reuse(key, isFresh)?.estimate;
  }

  /** The kept estimate and the answers its walk read, when it still holds and each of them is still fresh. */
  reuse(key: MemoKey, isFresh: (cacheKey: string) => boolean): Pick<Kept, 'estimate' | 'known'> | undefined {
    const variables = variablesKey(key.variables);
    if (variables === undefined) return undefined;
    const kept = this.#byVariables(key, false)?.get(variables);
    if (kept === undefined) return undefined;
    if (kept.version !== knownStateVersion() || this.#now() - kept.madeAt >= this.#maxAgeMs) return undefined;
    for (const cacheKey of kept.known.keys()) if (!isFresh(cacheKey)) return undefined;
    return kept;
  }

  /** Taken before a walk of `key`: `keep` compares the state with it afterwards. */
  start(key: MemoKey): WalkStart {
    return { version: knownStateVersion(), madeAt: this.#now(), variables: variablesKey(key.variables) };
  }

  /** Keeps a walk's estimate when nothing known changed while it ran. */
  keep(key: MemoKey, estimate: Estimate, start: WalkStart, known: ReadonlyMap<string, Peeked> = new Map()): void {
    if (knownStateVersion() !== start.version) return;
    const { variables } = start;
    const byVariables = variables === undefined ? undefined : this.#byVariables(key, true);
    if (variables === undefined || byVariables === undefined) return;
    byVariables.delete(variables);
    if (byVariables.size >= this.#perOperation) {
      const oldest = byVariables.keys().next();
      if (oldest.done !== true) byVariables.delete(oldest.value);
    }
    byVariables.set(variables, { estimate, known: new Map(known), version: start.version, madeAt: start.madeAt });
  }

  #byVariables(key: MemoKey, create: boolean): ByVariables | undefined {
    let byCosts = this.#kept.get(key.schema);
    if (byCosts === undefined) {
      if (!create) return undefined;
      byCosts = new WeakMap();
      this.#kept.set(key.schema, byCosts);
    }
    let byOperation = byCosts.get(key.costs);
    if (byOperation === undefined) {
      if (!create) return undefined;
      byOperation = new WeakMap();
      byCosts.set(key.costs, byOperation);
    }
    let byVariables = byOperation.get(key.operation);
    if (byVariables === undefined) {
      if (!create) return undefined;
      byVariables = new Map();
      byOperation.set(key.operation, byVariables);
    }
    return byVariables;
  }
}

/** Coerced variables as a key; undefined for values JSON does not carry whole (a BigInt), which are then never kept. */
function variablesKey(variables: Readonly<Record<string, unknown>>): string | undefined {
  try {
    return JSON.stringify(variables);
  } catch {
    return undefined;
  }
}
