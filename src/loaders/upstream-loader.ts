/**
 * The request-scoped loader: one per GraphQL operation (dataloader's own
 * advice), keyed by route and parameters, so that every field of one
 * operation asking for the same upstream resource shares one load. Across
 * operations, sharing is the job of the cache's in-flight map.
 *
 * It also keeps the operation's trace: how many upstream requests it made,
 * how many resources the cache answered, and which answers were stale. The
 * request counts are read from the operation's spend meter, which the
 * client pipeline tells of every request that reached the upstream,
 * whatever then happened to its answer (a 404, a payload that failed
 * validation, a timeout after sending): what was sent is reported and
 * charged, never inferred from where the answer came from.
 */
import DataLoader from 'dataloader';
import type { CacheSource, Peeked, StaleInfo } from '../upstream/cache.js';
import { ErrorCode, GatewayError } from '../upstream/errors.js';
import type { PreparedCall, UpstreamFetcher } from '../upstream/fetcher.js';
import type { Route } from '../upstream/routes/route.js';
import { SpendMeter } from '../spend/spend-meter.js';

export interface StaleNotice extends StaleInfo {
  /** Route template of the stale resource. */
  route: string;
  version: string;
}

export interface RequestTrace {
  /** Upstream requests this operation started (shared ones are counted once, by their starter). */
  readonly upstreamRequests: number;
  /** Of those, the ones that spent the allowance (route.counted): what a client's budget is charged. */
  readonly countedRequests: number;
  /**
   * Counted requests another operation had in flight when this one asked
   * for the same resource: not paid here, but needed (the estimate's bound
   * is checked against paid plus joined).
   */
  joinedCounted: number;
  /** Counted resources that failed before a request left (the allowance or budget spent, a cooldown, the deadline). */
  unsentCounted: number;
  /**
   * Counted resources the operation needed (src/spend/estimate/estimate-bound.ts):
   * each loaded resource once, whether it reserved a request (however
   * often, however it ended, recorded yet or not), joined one in flight,
   * started a refresh, or failed before a request left; plus each request
   * reserved on the operation's meter outside the loader.
   */
  readonly neededCounted: number;
  /** Resources answered by the shared cache or by another operation's request in flight. */
  cacheHits: number;
  stale: StaleNotice[];
  /**
   * Every resource the operation loaded (cache key and route template),
   * whatever answered it, failed loads included: the operation-result cache
   * stores a result only while all of them are fresh.
   */
  resources: Array<{ key: string; route: string; counted: boolean }>;
  /**
   * Where each counted resource's answer came from and how old it was
   * (`extensions.resources`): `cache`, `upstream`, `shared` (another
   * operation's request in flight) or `stale` with the reason.
   */
  answers: ResourceAnswer[];
}

/** One counted resource's answer as `extensions.resources` reports it. */
export interface ResourceAnswer {
  readonly route: string;
  readonly source: CacheSource;
  /** Seconds since the upstream gave the answer (0 for one fetched for this operation or shared in flight). */
  readonly ageSeconds: number;
  /** Why a stale answer answered. */
  readonly reason?: string;
}

/** How one resource load ended, for an observer (src/tracing/upstream-spans.ts). */
export interface LoadOutcome {
  /** Where the answer came from; undefined when the load failed. */
  readonly source: CacheSource | undefined;
  readonly stale: StaleInfo | undefined;
  /** The failure, when it failed. */
  readonly error: unknown;
  /** Requests this load sent upstream, and how many of them the allowance counts. */
  readonly requests: number;
  readonly counted: number;
}

/** Told of every resource load of an operation (tracing); never changes what the load does. */
export interface LoadObserver {
  /** A load of `route` starts; the function returned is told once how it ended. */
  loadStarted(route: Pick<Route<unknown, unknown>, 'version' | 'template' | 'counted'>): (outcome: LoadOutcome) => void;
}

/** One counted resource of the operation, as far as its load has gone. */
interface CountedLoad {
  readonly meter: SpendMeter;
  /** Joined another operation's request in flight, or started a refresh answered stale: needed, not on this meter yet. */
  elsewhere: boolean;
  /** Failed with a code that can come before a request leaves. */
  refusedUnsent: boolean;
}

interface Call {
  route: Route<unknown, unknown>;
  prepared: PreparedCall;
  key: string;
}

export class UpstreamLoader {
  /** Every request this operation sent, and the guard that may refuse one before it is sent (a client's budget). */
  readonly meter = new SpendMeter();
  readonly trace: RequestTrace;
  /** Told of each load (set by src/plugins/use-operation-spans.ts when tracing is on). */
  observer: LoadObserver | undefined;
  /** Refreshes this operation started that answered stale before their request was recorded. */
  private readonly refreshing = new Set<{ meter: SpendMeter; counted: boolean }>();
  /** Every counted resource loaded, for `trace.neededCounted`. */
  private readonly countedLoads: CountedLoad[] = [];
  /**
   * Answers the cost estimate read fresh from the cache (src/spend/estimate/resolve-known.ts),
   * by cache key. Execution answers these keys with them: an entry that
   * expired or was evicted between the estimate and execution would
   * otherwise be sent for, a counted request the estimate called free.
   */
  private readonly known = new Map<string, Peeked>();
  /** Made on the first load: most subscription contexts never load anything, and there are thousands of them. */
  private loader: DataLoader<Call, unknown, string> | undefined;

  constructor(
    private readonly fetcher: UpstreamFetcher,
    private readonly deadline: number,
    /** Whether a resource loaded once in this operation answers its other calls (off only in the bench's naive loader). @default true */
    private readonly shared = true,
  ) {
    const meter = this.meter;
    const refreshing = this.refreshing;
    const countedLoads = this.countedLoads;
    // A refresh this operation started and answered stale without (stale
    // beats slow) may reach the upstream after the operation ends: it is
    // reported and charged here, once, whether or not it was recorded yet.
    const unrecorded = (counted: boolean): number =>
      [...refreshing].filter((refresh) => refresh.meter.requests === 0 && (!counted || refresh.counted)).length;
    this.trace = {
      get upstreamRequests() {
        return meter.requests + unrecorded(false);
      },
      get countedRequests() {
        return meter.counted + unrecorded(true);
      },
      joinedCounted: 0,
      unsentCounted: 0,
      // Decided when asked, not when a load fails: at the deadline the load
      // fails before its hung request ends, and the request holds its unit
      // (and its charge) from the start.
      get neededCounted() {
        let needed = 0;
        let reservedByLoads = 0;
        for (const load of countedLoads) {
          reservedByLoads += load.meter.reserved;
          if (load.meter.reserved > 0 || load.meter.counted > 0 || load.elsewhere || load.refusedUnsent) needed += 1;
        }
        // What was reserved on the operation's meter itself, past the loader (the logo chain, resolvers/images.ts): each request its own image.
        return needed + meter.reserved - reservedByLoads;
      },
      cacheHits: 0,
      stale: [],
      resources: [],
      answers: [],
    };
  }

  /**
   * The age of a cached answer this operation accepts instead of the
   * answer's own freshness: a client's `@maxAge` (src/plugins/use-max-age.ts),
   * set before the estimate runs. @default undefined: the answer's freshness
   */
  maxAgeMs: number | undefined;

  /** Whether what the cost estimate loads ahead is reused by execution: this loader and the fetcher both share. */
  get reusesLoads(): boolean {
    return this.shared && this.fetcher.sharesLoads;
  }

  private createLoader(): DataLoader<Call, unknown, string> {
    return new DataLoader<Call, unknown, string>((calls) => this.loadAll(calls), {
      name: 'upstream',
      cacheKeyFn: (call) => call.key,
      // No batching: the upstream has no batch routes, so a batch only made
      // every key wait for the slowest one (a cached `/reference/sports`
      // held back until the V1 requests of the same tick came back, which
      // put the V2 requests that need its slug one round trip later). Each
      // key resolves on its own; per-operation de-duplication is the cache.
      batch: false,
      // With nothing to batch, waiting for dataloader's default turn (a
      // resolved promise, then process.nextTick) only delays the load: a
      // field that loads after awaiting another load (V2 after its sport's
      // slug) then reserved its allowance after the write-ahead of the
      // operation's first requests, and paid a second one. A microtask keeps
      // every load of the operation inside one run of the promise jobs.
      batchScheduleFn: (dispatch) => queueMicrotask(dispatch),
      cache: this.shared,
    });
  }

  /** Loads one upstream resource; a failure rejects with a coded GatewayError. */
  load<P, T>(route: Route<P, T>, params: P): Promise<T> {
    // The request and key are built once: the key for de-duplication here, both for the fetch.
    const prepared = this.fetcher.prepare(route, params);
    const call: Call = { route: route as Route<unknown, unknown>, prepared, key: prepared.key };
    this.loader ??= this.createLoader();
    return this.loader.load(call) as Promise<T>;
  }

  /** An answer the estimate read fresh for `key`: this operation is answered with it (see `known`). */
  keepKnown(key: string, peeked: Peeked): void {
    this.known.set(key, peeked);
  }

  /** The answers kept with keepKnown, for an estimate reused by a later operation (src/spend/estimate/estimate-memo.ts). */
  knownAnswers(): ReadonlyMap<string, Peeked> {
    return this.known;
  }

  private answered(call: Call, source: CacheSource, ageMs: number | undefined, reason?: string): void {
    const ageSeconds = Math.floor((ageMs ?? 0) / 1000);
    this.trace.answers.push({
      route: call.route.template,
      source,
      ageSeconds,
      ...(reason === undefined ? {} : { reason }),
    });
  }

  private loadAll(calls: readonly Call[]): Promise<Array<unknown>> {
    return Promise.all(
      calls.map(async (call) => {
        this.trace.resources.push({ key: call.key, route: call.route.template, counted: call.route.counted });
        const known = this.known.get(call.key);
        if (known !== undefined) {
          this.trace.cacheHits += 1;
          if (call.route.counted) this.answered(call, 'cache', this.fetcher.cache.ageMs(call.key));
          this.observer?.loadStarted(call.route)({
            source: 'cache',
            stale: undefined,
            error: known.kind === 'error' ? known.error : undefined,
            requests: 0,
            counted: 0,
          });
          return known.kind === 'value' ? known.value : known.error;
        }
        const meter = this.meter.child();
        const counted: CountedLoad | undefined = call.route.counted
          ? { meter, elsewhere: false, refusedUnsent: false }
          : undefined;
        if (counted !== undefined) this.countedLoads.push(counted);
        const observed = this.observer?.loadStarted(call.route);
        try {
          const result = await this.fetcher.fetchPrepared(call.route, call.prepared, {
            deadline: this.deadline,
            meter,
            maxAgeMs: this.maxAgeMs,
          });
          if (call.route.counted) {
            this.answered(
              call,
              result.source,
              result.ageSeconds === undefined ? 0 : result.ageSeconds * 1000,
              result.stale?.reason,
            );
          }
          observed?.({
            source: result.source,
            stale: result.stale,
            error: undefined,
            requests: meter.requests,
            counted: meter.counted,
          });
          // What was sent is on the meter; every other answer came from the
          // cache or from another operation's request in flight.
          const sent = result.source === 'upstream' || result.startedRefresh === true;
          if (!sent) this.trace.cacheHits += 1;
          if (result.startedRefresh === true && meter.requests === 0)
            this.refreshing.add({ meter, counted: call.route.counted });
          if (result.source === 'shared' && call.route.counted) this.trace.joinedCounted += 1;
          if (counted !== undefined && (result.source === 'shared' || result.startedRefresh === true))
            counted.elsewhere = true;
          if (result.stale !== undefined) {
            this.trace.stale.push({ route: call.route.template, version: call.route.version, ...result.stale });
          }
          return result.value;
        } catch (error) {
          observed?.({ source: undefined, stale: undefined, error, requests: meter.requests, counted: meter.counted });
          const unsent = error instanceof GatewayError && unsentCodes.has(error.code);
          if (counted !== undefined) counted.refusedUnsent = unsent;
          // A request holding its unit has left, or will: the deadline failed the load before its record came.
          if (counted !== undefined && unsent && meter.reserved === 0 && meter.counted === 0)
            this.trace.unsentCounted += 1;
          // One failed resource is an Error in its slot: it never fails its neighbours.
          return error instanceof Error ? withScope(error) : new Error(String(error));
        }
      }),
    );
  }
}

/** Failures that can come before a request leaves: the resource was needed but not paid for. */
const unsentCodes: ReadonlySet<string> = new Set([
  ErrorCode.QuotaExhausted,
  ErrorCode.UpstreamUnavailable,
  ErrorCode.UpstreamUnreachable,
]);

/**
 * An allowance refusal says what ran out: the ledger and the upstream's 429
 * speak of the plan's allowance; a client's budget (src/spend/operation-budget.ts)
 * names itself.
 */
function withScope(error: Error): Error {
  if (!(error instanceof GatewayError) || error.code !== ErrorCode.QuotaExhausted || error.details.scope !== undefined)
    return error;
  return new GatewayError(error.code, error.message, { ...error.details, scope: 'plan' });
}
