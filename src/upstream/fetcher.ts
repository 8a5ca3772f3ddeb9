/**
 * The one executor of route descriptions: cache -> in-flight sharing ->
 * client pipeline (cooldown, retry, ledger, metrics, auth, undici) -> payload
 * check. Resolvers reach it only through request-scoped loaders.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { GatewayMetrics } from '../metrics.js';
import {
  ResponseCache,
  type CacheEvents,
  type CachedCopy,
  type CacheResult,
  type Peeked,
  type TtlOf,
} from './cache.js';
import { MatchFreshness } from './match-freshness.js';
import type { CacheEntries } from './cache-entries.js';
import {
  compose,
  Dispatcher,
  parseRetryAfter,
  withAuth,
  withCooldown,
  withMetrics,
  withLedger,
  withRetryOnce,
  withTroubleWatch,
  NO_HEADERS,
  type Send,
  type UpstreamResponse,
} from './client.js';
import { ErrorCode, errorForStatus, GatewayError } from './errors.js';
import { markDegraded } from './degraded-parts.js';
import { checkPayload, type CheckedPayload } from './payload-check.js';
import { resetAfterSeconds } from './assumptions.js';
import type { Ledger } from '../spend/ledger.js';
import { tierAlone, type SharedTier } from './shared-tier.js';
import type { SpendMeter } from '../spend/spend-meter.js';
import { UpstreamTrouble } from './trouble.js';
import { resourceKey, type MatchBinding, type Route, type RouteRequest, type UpstreamBase } from './routes/route.js';

export interface FetchOptions {
  /** Epoch ms by which the operation must be answered. */
  deadline: number;
  /** Records the upstream requests this call starts (joined in-flight requests are its starter's). */
  meter?: SpendMeter | undefined;
  /**
   * The age of a cached answer the caller accepts instead of the answer's
   * own freshness (a client's `@maxAge`): older accepted, or fresher demanded.
   * @default the answer's freshness
   */
  maxAgeMs?: number | undefined;
}

/** A route call's request and cache key (`UpstreamFetcher.prepare`). */
export interface PreparedCall {
  readonly request: RouteRequest;
  readonly key: string;
}

interface Base {
  origin: string;
  /** Path prefix of the base URL, without trailing slash ('' for none). */
  prefix: string;
}

function parseBase(url: string): Base {
  const parsed = new URL(url);
  return { origin: parsed.origin, prefix: parsed.pathname.replace(/\/+$/, '') };
}

export interface UpstreamFetcherOptions {
  config: Config;
  /** The upstream's base URL (the embedded sandbox's when none is configured). */
  baseUrl: string;
  /** `{v3_cycling_base_url}`. @default baseUrl */
  v3CyclingBaseUrl?: string | undefined;
  ledger: Ledger;
  metrics: GatewayMetrics;
  logger: Logger;
  /**
   * The tier under the response cache (shared-tier.ts): the state backend's (src/state/open-state.ts).
   * @default tierAlone (a process alone: the importer)
   */
  responseTier?: SharedTier | undefined;
  /** Where the response cache keeps its entries: the state backend's. @default memory only */
  cacheEntries?: CacheEntries | undefined;
  /**
   * The clock of the response cache and its freshness policy (tests move it
   * instead of sleeping past a TTL). @default Date.now
   */
  now?: (() => number) | undefined;
}

export class UpstreamFetcher {
  readonly cache: ResponseCache;
  /** The freshness policy by match state (match-freshness.ts): what each match-bound answer's TTL is. */
  readonly freshness: MatchFreshness;
  private readonly dispatcher: Dispatcher;
  private readonly send: Send;
  private readonly bases: Readonly<Record<UpstreamBase, Base>>;
  private readonly config: Config;
  private readonly metrics: GatewayMetrics;
  private readonly logger: Logger;
  /** What is wrong with the upstream now, for the operator: logged, on `/healthz` and `/metrics` (trouble.ts). */
  readonly trouble: UpstreamTrouble;
  /**
   * Whether a resource loaded once answers later calls (the cache, in-flight
   * sharing): what the cost estimate reads ahead is then reused. Only the
   * bench's naive fetcher (bench/naive-upstream.ts) says no.
   */
  readonly sharesLoads: boolean = true;
  /**
   * The gateway-wide identity of this cache, the same through every
   * operation's view of it (src/loaders/cache-view.ts): state kept per
   * gateway (the V6 mapping pin) is keyed by it.
   */
  readonly scope: object = this;

  constructor(options: UpstreamFetcherOptions) {
    const { config, metrics, ledger } = options;
    this.config = config;
    this.metrics = metrics;
    this.logger = options.logger;
    this.trouble = new UpstreamTrouble({ logger: options.logger, ledger });
    metrics.observeTrouble(this.trouble);
    this.bases = {
      main: parseBase(options.baseUrl),
      v3Cycling: parseBase(options.v3CyclingBaseUrl ?? options.baseUrl),
    };
    this.freshness = new MatchFreshness(config.matchFreshness);
    this.cache = new ResponseCache({
      now: options.now,
      freshness: this.freshness,
      maxBytes: config.cacheMaxBytes,
      maxStaleMs: config.maxStaleSeconds * 1000,
      entries: options.cacheEntries,
      staleIfSlowMs: config.cacheStaleIfSlowMs,
      // Waiting longer than an operation may last for another replica's request helps no caller.
      shared: { tier: options.responseTier ?? tierAlone, maxWaitMs: config.timeouts.operationMs },
    });
    this.dispatcher = new Dispatcher({
      connectTimeoutMs: config.timeouts.connectMs,
      headersTimeoutMs: config.timeouts.headersMs,
      bodyTimeoutMs: config.timeouts.bodyMs,
      connections: config.upstreamConnections,
      maxBodyBytes: config.maxUpstreamBodyBytes,
      metrics,
    });
    this.send = compose(
      withCooldown(),
      withRetryOnce(),
      withLedger(ledger),
      withTroubleWatch(this.trouble),
      withMetrics(metrics),
      withAuth(config.apiKey),
    )(this.dispatcher.send);
  }

  /** The cache key of a route call: what "the same upstream resource" means. */
  keyOf<P>(route: Route<P, unknown>, params: P): string {
    return this.prepare(route, params).key;
  }

  /** The call's request and cache key, built once: a caller that needs the key first hands both to `fetchPrepared`. */
  prepare<P>(route: Route<P, unknown>, params: P): PreparedCall {
    const request = route.build(params);
    const key = keyOfRequest(route, params, request);
    // Before anything reads the key: its freshness is its match's from the first look (an explicit class TTL keeps the class's).
    if (route.match !== undefined && !this.config.cacheTtlsPinned.has(route.cacheClass)) {
      this.freshness.bind(key, checkedBinding(route.match), params);
    }
    return { request, key };
  }

  /** True when the call would be answered without an upstream request. */
  isCached<P>(route: Route<P, unknown>, params: P, maxAgeMs?: number): boolean {
    const key = this.keyOf(route, params);
    return maxAgeMs === undefined ? this.cache.isFresh(key) : this.cache.peekWithin(key, maxAgeMs) !== undefined;
  }

  /** The call's fresh cached answer, read without side effects (ResponseCache.peek); undefined when none. */
  peek<P, T>(route: Route<P, T>, params: P): Promise<Peeked | undefined> {
    return this.peekKey(route, this.keyOf(route, params));
  }

  /** `peek` for a caller that has the call's cache key already (`keyOf`). */
  async peekKey<T>(route: Route<never, T>, key: string, maxAgeMs?: number): Promise<Peeked | undefined> {
    const peeked = maxAgeMs === undefined ? await this.cache.peek(key) : this.cache.peekWithin(key, maxAgeMs);
    if (peeked?.kind !== 'value') return peeked;
    // The cache keeps the checked payload; a reader gets the payload, its dropped parts marked, as fetch() gives it.
    return { kind: 'value', value: unwrap(route, { value: peeked.value as CheckedPayload<T>, source: 'cache' }).value };
  }

  /** The copy this replica's cache holds of the resource keyed `key` (`keyOf`), with its age; undefined when none (ResponseCache.copyOf). */
  cachedCopy(key: string): CachedCopy | undefined {
    return this.cache.copyOf(key);
  }

  /** True when the cache could answer the call even if the upstream refused it (fresh or stale). */
  canAnswer<P>(route: Route<P, unknown>, params: P): boolean {
    return this.cache.canAnswer(this.keyOf(route, params));
  }

  fetch<P, T>(route: Route<P, T>, params: P, options: FetchOptions): Promise<CacheResult<T>> {
    return this.fetchPrepared(route, this.prepare(route, params), options);
  }

  /** `fetch` with the request and key `prepare` built for these parameters. */
  async fetchPrepared<P, T>(
    route: Route<P, T>,
    prepared: PreparedCall,
    options: FetchOptions,
  ): Promise<CacheResult<T>> {
    const { request, key } = prepared;
    const classTtlMs = this.config.cacheTtls[route.cacheClass] * 1000;
    const ttlMs: TtlOf<CheckedPayload<T>> = this.freshness.isBound(key)
      ? { ms: classTtlMs, of: (value, storedAt) => this.freshness.storedTtlMs(key, value, storedAt, classTtlMs) }
      : classTtlMs;
    const events = this.#eventsOf(route);
    // A fresh entry answers at once: no deadline timer or race for what cannot be late.
    const fresh = this.cache.fresh<CheckedPayload<T>>(key, events, options.maxAgeMs);
    if (fresh !== undefined) return unwrap(route, fresh);
    const result = this.cache.get<CheckedPayload<T>>(
      key,
      ttlMs,
      // Bounded by the deadline of the operation that starts the refresh, also
      // once every caller has answered stale and left (cache.ts, "stale beats slow").
      () => this.load(route, request, options.deadline, options.meter),
      events,
      options.maxAgeMs,
    );
    // Unwrapped once the race is won (a read marks the payload's dropped parts; a caller past its
    // deadline reads nothing), and awaited, not returned: each of those was one more promise and job.
    return unwrap(route, await raceDeadline(result, options.deadline, route));
  }

  /** Each route's cache events, made on its first call: they are the same for every call of it. */
  readonly #events = new WeakMap<Route<never, unknown>, CacheEvents>();

  #eventsOf(route: Route<never, unknown>): CacheEvents {
    let events = this.#events.get(route);
    if (events === undefined) {
      const labels = Object.freeze({ route: route.template });
      events = {
        onHit: () => this.metrics.cacheHits.inc(labels),
        onMiss: () => this.metrics.cacheMisses.inc(labels),
        onStale: (_key, info) => {
          this.metrics.staleAnswers.inc({ ...labels, reason: info.reason });
          this.logger.warn({ route: route.template, ...info }, 'answered from stale cache');
        },
      };
      this.#events.set(route, events);
    }
    return events;
  }

  /** The checked payload (sanitized, with its dropped parts listed) is what the cache keeps. */
  protected async load<T>(
    route: Route<unknown, T>,
    request: RouteRequest,
    deadline: number,
    meter: SpendMeter | undefined,
  ): Promise<{ value: CheckedPayload<T>; size: number }> {
    const base = this.bases[route.base ?? 'main'];
    const response = await this.send({
      route,
      origin: base.origin,
      request: { path: base.prefix + request.path, query: request.query },
      deadline,
      headers: NO_HEADERS,
      meter,
    });
    if (response.status < 200 || response.status >= 300) throw errorOfResponse(route, response);
    let body: unknown;
    try {
      body = JSON.parse(response.body.toString('utf8'));
    } catch {
      this.trouble.payloadChecked(route.template, false);
      throw invalidResponse(route, 'was not JSON');
    }
    const checked = checkPayload(route.accepts, body);
    this.trouble.payloadChecked(route.template, checked !== undefined);
    if (checked === undefined) throw invalidResponse(route, 'did not have the documented shape');
    return { value: checked, size: response.body.length };
  }

  /**
   * Sends a route through the same pipeline (cooldown, retry once, quota,
   * metrics, auth) and returns the raw response, any status, without JSON
   * parsing or the JSON cache: for binary answers (images), whose caller
   * keeps its own store. Network failures still throw GatewayErrors.
   */
  async fetchRaw<P>(route: Route<P, unknown>, params: P, options: FetchOptions): Promise<UpstreamResponse> {
    const request = route.build(params);
    const base = this.bases[route.base ?? 'main'];
    return this.send({
      route,
      origin: base.origin,
      request: { path: base.prefix + request.path, query: request.query },
      deadline: options.deadline,
      headers: NO_HEADERS,
      meter: options.meter,
    });
  }

  async close(): Promise<void> {
    this.trouble.close();
    await this.dispatcher.close();
    // After the dispatcher: answers still arriving are queued before the cache file writes its last batch.
    await this.cache.close();
  }
}

/** The cache key of a route call whose request is built already (a build is not free: it is once per call). */
function keyOfRequest<P>(route: Route<P, unknown>, params: P, request: RouteRequest): string {
  const variant = route.cacheVariant?.(params);
  return `${route.version} ${resourceKey(request)}${variant === undefined ? '' : ` #${variant}`}`;
}

/** A route's binding read over what the cache keeps (the checked payload), not the payload itself. */
function checkedBinding<P, T>(binding: MatchBinding<P, T>): MatchBinding<P, CheckedPayload<T>> {
  const { match, sightings, competition } = binding;
  return {
    ...(match === undefined ? {} : { match }),
    ...(competition === undefined ? {} : { competition }),
    ...(sightings === undefined
      ? {}
      : { sightings: (checked: CheckedPayload<T>, params: P) => sightings(checked.payload, params) }),
  };
}

/** The payload a caller reads, its dropped parts marked for the fields that read them. */
export function unwrap<T>(route: Route<unknown, T>, result: CacheResult<CheckedPayload<T>>): CacheResult<T> {
  const { payload, dropped } = result.value;
  if (dropped.length > 0) markDegraded(payload, dropped, route);
  return { ...result, value: payload };
}

/** A non-2xx upstream answer as the coded error of the DESIGN.md table. */
export function errorOfResponse(
  route: Pick<Route<never, unknown>, 'version' | 'template'>,
  response: UpstreamResponse,
): GatewayError {
  const now = Date.now();
  const retryAfter = parseRetryAfter(response.header('retry-after'), now);
  return errorForStatus(response.status, {
    version: route.version,
    route: route.template,
    retryAfter,
    resetsAt:
      response.status === 429 && retryAfter !== undefined
        ? new Date(resetAfterSeconds(now, retryAfter)).toISOString()
        : undefined,
    alternative: response.status === 501 ? alternativeOf(response.body) : undefined,
  });
}

function invalidResponse(route: Route<unknown, unknown>, what: string): GatewayError {
  return new GatewayError(ErrorCode.UpstreamInvalidResponse, `The upstream's answer ${what} (${route.template}).`, {
    version: route.version,
    route: route.template,
  });
}

/**
 * A 501 body names the alternative (spec 7). Only a short `alternative` field
 * made of plain characters is passed on: upstream text is otherwise never
 * copied into an error.
 */
function alternativeOf(body: Buffer): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    const alternative = (parsed as { alternative?: unknown }).alternative;
    if (typeof alternative === 'string' && alternative.length <= 200 && /^[\w\s/{}:.,()'-]*$/.test(alternative)) {
      return alternative;
    }
  } catch {
    // Not JSON: no alternative to pass on.
  }
  return undefined;
}

/**
 * A caller that joined an in-flight request started by another operation
 * still answers by its own deadline.
 */
export function raceDeadline<T>(promise: Promise<T>, deadline: number, route: Route<unknown, unknown>): Promise<T> {
  const remaining = deadline - Date.now();
  // One promise settled by whichever comes first (not Promise.race, then finally): once per upstream call.
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new GatewayError(
            ErrorCode.UpstreamUnreachable,
            'The upstream did not answer before the operation deadline.',
            {
              version: route.version,
              route: route.template,
            },
          ),
        ),
      Math.max(0, remaining),
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
