/**
 * The upstream client: undici Pools, one per origin, behind a composition of
 * small steps (cooldown, retry, ledger, metrics, auth). Each step is a function
 * from the next `Send` to a `Send`, so each rule lives in one place and can be
 * read alone.
 *
 * It returns raw responses; turning a status into a GatewayError and a body
 * into a payload is the job of `fetcher.ts`.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { upstreamAssumptions } from './assumptions.js';
import { DeadlineSignals } from './deadline-signals.js';
import { exchange } from './exchange.js';
import { ErrorCode, GatewayError } from './errors.js';
import type { Ledger, Reservation } from '../spend/ledger.js';
import type { SpendMeter } from '../spend/spend-meter.js';
import { FORM_PLAIN, type RouteRequest, type Version } from './routes/route.js';
import type { GatewayMetrics } from '../metrics.js';
import type { UpstreamTrouble } from './trouble.js';

export interface RouteInfo {
  readonly version: Version;
  readonly template: string;
  readonly auth: boolean;
  readonly counted: boolean;
}

export interface UpstreamCall {
  readonly route: RouteInfo;
  /** Origin the route lives on (`http://host:port`), base path included in `request.path` by the caller. */
  readonly origin: string;
  readonly request: RouteRequest;
  /** Epoch ms by which the whole operation must be answered. */
  readonly deadline: number;
  /** Never changed once handed down (the Dispatcher merges each object once): a step that adds one makes a new object. */
  readonly headers: Readonly<Record<string, string>>;
  /** Told of every request that reached the upstream for this call (spend-meter.ts). */
  readonly meter?: SpendMeter | undefined;
}

export interface UpstreamResponse {
  readonly status: number;
  header(name: string): string | undefined;
  readonly body: Buffer;
}

export type Send = (call: UpstreamCall) => Promise<UpstreamResponse>;
export type Step = (next: Send) => Send;

export function compose(...steps: Step[]): (send: Send) => Send {
  return (send) => steps.reduceRight((next, step) => step(next), send);
}

/**
 * A network failure. `sent` is false when the request certainly never reached
 * the upstream (connection refused, connect timeout): its allowance unit is
 * given back.
 */
export class UpstreamNetworkError extends GatewayError {
  constructor(
    message: string,
    readonly sent: boolean,
    context: { version: string; route: string },
    /** Nothing was tried: the operation's deadline had passed already, which says nothing of the upstream. */
    readonly notTried = false,
  ) {
    super(ErrorCode.UpstreamUnreachable, message, context);
  }
}

export class UpstreamBodyTooLargeError extends GatewayError {
  constructor(context: { version: string; route: string }) {
    super(
      ErrorCode.UpstreamInvalidResponse,
      `The upstream sent a body larger than the gateway accepts (${context.route}).`,
      context,
    );
  }
}

const notSentCodes = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'ENOTFOUND', 'EAI_AGAIN']);

function describeNetworkError(error: unknown, deadlinePassed: boolean): { message: string; sent: boolean } {
  const code = (error as { code?: unknown }).code;
  if (deadlinePassed) return { message: 'The upstream did not answer before the operation deadline.', sent: true };
  if (typeof code === 'string' && notSentCodes.has(code)) {
    return { message: 'The upstream could not be reached.', sent: false };
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT')
    return { message: 'The upstream sent no response headers in time.', sent: true };
  if (code === 'UND_ERR_BODY_TIMEOUT')
    return { message: 'The upstream stopped sending its response body.', sent: true };
  return { message: 'The upstream connection failed.', sent: true };
}

/** The socket was closed or reset under a request before its response headers came. */
function closedBeforeAnswer(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE';
}

export interface DispatcherOptions {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  connections: number;
  maxBodyBytes: number;
  /** When given, the pools' open sockets show in `sports_graph_upstream_open_sockets`. */
  metrics?: Pick<GatewayMetrics, 'upstreamSocketSources'>;
}

/** The innermost step: undici, one keep-alive Pool per origin. */
export class Dispatcher {
  private readonly pools = new Map<string, Pool>();
  private readonly deadlines = new DeadlineSignals();

  constructor(private readonly options: DispatcherOptions) {
    options.metrics?.upstreamSocketSources.add(this.openSockets);
  }

  /** Sockets connected in every pool (undici's `Pool.stats.connected`). */
  readonly openSockets = (): number => {
    let open = 0;
    for (const pool of this.pools.values()) open += pool.stats.connected;
    return open;
  };

  /** The request headers sent for each header set the steps hand down (withAuth's is one object per process): merged once, not per request. */
  private readonly headerSets = new WeakMap<Readonly<Record<string, string>>, Readonly<Record<string, string>>>();

  private headersOf(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
    let merged = this.headerSets.get(headers);
    if (merged === undefined) {
      merged = { accept: 'application/json, image/*', ...headers };
      this.headerSets.set(headers, merged);
    }
    return merged;
  }

  readonly send: Send = (call) => {
    const remaining = call.deadline - Date.now();
    const context = (): { version: string; route: string } => ({
      version: call.route.version,
      route: call.route.template,
    });
    if (remaining <= 0)
      return Promise.reject(
        new UpstreamNetworkError('The operation deadline passed before the request was sent.', false, context(), true),
      );
    const deadline = this.deadlines.hold(call.deadline, remaining);
    const failure = (error: unknown): GatewayError => {
      if ((error as { code?: unknown }).code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE')
        return new UpstreamBodyTooLargeError(context());
      const { message, sent } = describeNetworkError(error, deadline.aborted);
      return new UpstreamNetworkError(message, sent, context());
    };
    let pool: Pool;
    try {
      pool = this.pool(call.origin);
    } catch (error) {
      deadline.release();
      return Promise.reject(failure(error));
    }
    // The exchange's own promise, settled with the response or the coded failure: no async wrapper around it.
    // The pool cuts a body past `maxBodyBytes` while it streams (maxResponseSize): it is never buffered whole.
    return exchange({
      pool,
      path: call.request.path + queryString(call.request.query),
      headers: this.headersOf(call.headers),
      deadline,
      retryable: closedBeforeAnswer,
      failure,
    });
  };

  private pool(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (pool === undefined) {
      pool = new Pool(origin, {
        connections: this.options.connections,
        connect: { timeout: this.options.connectTimeoutMs },
        headersTimeout: this.options.headersTimeoutMs,
        bodyTimeout: this.options.bodyTimeoutMs,
        keepAliveTimeout: 10_000,
        keepAliveMaxTimeout: 60_000,
        maxResponseSize: this.options.maxBodyBytes,
      });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  async close(): Promise<void> {
    this.options.metrics?.upstreamSocketSources.delete(this.openSockets);
    await Promise.all([...this.pools.values()].map((pool) => pool.destroy()));
    this.pools.clear();
  }
}

function queryString(query: RouteRequest['query']): string {
  // Most queries are ids and numbers, which encode as themselves: joined directly, without a URLSearchParams.
  let plain = '';
  for (const key in query) {
    if (!Object.hasOwn(query, key)) continue;
    const value = query[key];
    if (value === undefined) continue;
    const text = String(value);
    if (!FORM_PLAIN.test(key) || !FORM_PLAIN.test(text)) return encodedQuery(query);
    plain += `${plain === '' ? '?' : '&'}${key}=${text}`;
  }
  return plain;
}

/** The query as URLSearchParams encodes it. */
function encodedQuery(query: RouteRequest['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** The headers of a call no step has added to yet: one object, so that what the steps add can be built once for it. */
export const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** Spec section 5: the key goes only to routes that need it, and only from config. */
export function withAuth(apiKey: string | undefined): Step {
  const keyOnly: Readonly<Record<string, string>> | undefined =
    apiKey === undefined ? undefined : Object.freeze({ [upstreamAssumptions.apiKeyHeader]: apiKey });
  return (next) => (call) => {
    if (!call.route.auth || keyOnly === undefined) return next(call);
    // One headers object for every keyed call without headers of its own (the Dispatcher merges each set once).
    const headers = call.headers === NO_HEADERS ? keyOnly : { ...call.headers, ...keyOnly };
    return next({ ...call, headers });
  };
}

/**
 * Counted routes reserve a unit before sending, and are refused when none is
 * left. Every request that reached the upstream is recorded on the call's
 * spend meter, if it carries one.
 */
export function withLedger(ledger: Ledger): Step {
  return (next) => async (call) => {
    const { counted } = call.route;
    if (!counted && call.meter === undefined) return next(call);
    // The payer first, charged as the unit is reserved (a client's budget may refuse: nothing is reserved or sent).
    const guard = counted ? call.meter?.guard : undefined;
    if (guard !== undefined) await guard.claim();
    let reservation: Reservation | undefined;
    try {
      reservation = counted ? ledger.reserve({ version: call.route.version, route: call.route.template }) : undefined;
      // Never send what a crash could forget (quota.ts, "Crash safety") or
      // another replica could spend too: a unit refused here was given back
      // by the ledger, and nothing was sent.
      if (reservation !== undefined) await reservation.durable;
    } catch (error) {
      guard?.unclaim();
      throw error;
    }
    if (reservation !== undefined) call.meter?.reserve();
    let response: UpstreamResponse;
    try {
      response = await next(call);
    } catch (error) {
      if (error instanceof UpstreamNetworkError && !error.sent) {
        if (reservation !== undefined) {
          reservation.release();
          call.meter?.unreserve();
        }
        guard?.unclaim();
      } else {
        reservation?.commit();
        guard?.sent();
        call.meter?.record(counted);
      }
      throw error;
    }
    call.meter?.record(counted);
    if (reservation === undefined) return response;
    reservation.commit(response.header);
    guard?.sent();
    if (response.status === upstreamAssumptions.quotaExhaustedStatus) {
      ledger.markExhausted(parseRetryAfter(response.header('retry-after'), Date.now()));
    }
    return response;
  };
}

/**
 * Tells the trouble states (trouble.ts) of every request that was sent and
 * what came back. Inside withLedger: a request the ledger or a cooldown
 * refused was never sent and says nothing of the upstream.
 */
export function withTroubleWatch(trouble: UpstreamTrouble): Step {
  return (next) => async (call) => {
    let response: UpstreamResponse;
    try {
      response = await next(call);
    } catch (error) {
      if (error instanceof UpstreamBodyTooLargeError) trouble.payloadChecked(call.route.template, false);
      else if (error instanceof UpstreamNetworkError && !error.notTried) trouble.unreachable(call, error.message);
      throw error;
    }
    trouble.answered(call, response.status);
    return response;
  };
}

/** A route's metric labels, made once per route and status instead of per request. */
interface RouteLabels {
  readonly route: { readonly version: string; readonly route: string };
  readonly byStatus: Map<string, { readonly version: string; readonly route: string; readonly status: string }>;
}

export function withMetrics(metrics: GatewayMetrics): Step {
  const byRoute = new WeakMap<RouteInfo, RouteLabels>();
  const labelsOf = (route: RouteInfo): RouteLabels => {
    let labels = byRoute.get(route);
    if (labels === undefined) {
      // Frozen: the counters tally a frozen label set by identity (src/metrics-after-answer.ts).
      labels = { route: Object.freeze({ version: route.version, route: route.template }), byStatus: new Map() };
      byRoute.set(route, labels);
    }
    return labels;
  };
  const withStatus = (labels: RouteLabels, status: string): { version: string; route: string; status: string } => {
    let found = labels.byStatus.get(status);
    if (found === undefined) {
      found = Object.freeze({ ...labels.route, status });
      labels.byStatus.set(status, found);
    }
    return found;
  };
  return (next) => async (call) => {
    const labels = labelsOf(call.route);
    // Timed here, observed with the route's own label set: startTimer makes a closure and a merged label object per request.
    const started = performance.now();
    try {
      const response = await next(call);
      metrics.upstreamRequests.inc(withStatus(labels, String(response.status)));
      return response;
    } catch (error) {
      metrics.upstreamRequests.inc(withStatus(labels, 'error'));
      throw error;
    } finally {
      metrics.upstreamDuration.observe(labels.route, (performance.now() - started) / 1000);
    }
  };
}

/**
 * Spec section 7: a 502 with `Retry-After` is retried once, when waiting fits
 * inside the operation's deadline. 404 and 501 are answers, never retried.
 */
export function withRetryOnce(sleep: (ms: number) => Promise<void> = delay): Step {
  return (next) => async (call) => {
    const first = await next(call);
    if (first.status !== 502) return first;
    const retryAfter = parseRetryAfter(first.header('retry-after'), Date.now());
    if (retryAfter === undefined) return first;
    const waitMs = retryAfter * 1000;
    // Leave room for the retry itself to be answered.
    if (Date.now() + waitMs + 250 >= call.deadline) return first;
    await sleep(waitMs);
    return next(call);
  };
}

/**
 * After a 502 with `Retry-After` that could not be retried in time, the route
 * is not asked again before `Retry-After` has passed: calls fail at once with
 * the seconds left (stale data may still answer them, see cache.ts).
 */
export function withCooldown(): Step {
  const until = new Map<string, number>();
  return (next) => async (call) => {
    // The key is built only while some route is cooling down: a string made and hashed per request otherwise.
    const key = until.size === 0 ? undefined : cooldownKey(call);
    const blockedUntil = key === undefined ? undefined : until.get(key);
    if (key !== undefined && blockedUntil !== undefined) {
      const left = blockedUntil - Date.now();
      if (left > 0) {
        throw new GatewayError(ErrorCode.UpstreamUnavailable, `The upstream is unavailable (${call.route.template}).`, {
          version: call.route.version,
          route: call.route.template,
          status: 502,
          retryAfter: Math.ceil(left / 1000),
        });
      }
      until.delete(key);
    }
    const response = await next(call);
    if (response.status === 502) {
      const retryAfter = parseRetryAfter(response.header('retry-after'), Date.now());
      if (retryAfter !== undefined) until.set(key ?? cooldownKey(call), Date.now() + retryAfter * 1000);
    }
    return response;
  };
}

/** What one cooldown covers: a route template on one origin. */
function cooldownKey(call: UpstreamCall): string {
  return `${call.origin} ${call.route.template}`;
}

/** `Retry-After` as seconds: an integer, or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
