/**
 * A REST route described as data: where it lives, whether it needs the key,
 * whether it spends the allowance, how long its answers stay fresh, and the
 * shape check its payload must pass. One executor (`../client.ts`) runs them.
 */
export type Version = 'v1' | 'v2' | 'v3' | 'v4' | 'v6';

export type { CacheClass } from '../cache-ttls.js';
import type { CacheClass } from '../cache-ttls.js';

/** `main` is `{base_url}`; `v3Cycling` is `{v3_cycling_base_url}` (spec 4.9). */
export type UpstreamBase = 'main' | 'v3Cycling';

export type QueryValue = string | number | boolean | undefined;

export interface RouteRequest {
  /** Path with parameters filled in, starting with `/`. */
  readonly path: string;
  readonly query: Readonly<Record<string, QueryValue>>;
}

export interface Route<P, T> {
  readonly version: Version;
  /** The path as the spec writes it (`/v1/hockey/standings`): metric label and error context. */
  readonly template: string;
  /** Spec section 5: send `x-api-key`. */
  readonly auth: boolean;
  /** Spec section 8: spends the daily allowance. */
  readonly counted: boolean;
  readonly cacheClass: CacheClass;
  /** Which configured base URL the path is relative to. @default 'main' */
  readonly base?: UpstreamBase;
  build(params: P): RouteRequest;
  /**
   * Splits one upstream resource into several cache entries, without
   * changing the request sent: a route pinned on a version (the V6 stat-ID
   * mapping) keys its answer by the version it must match, so a new version
   * is fetched at once while the pinned one stays cached. @default none
   */
  cacheVariant?(params: P): string | undefined;
  /** Rejects a payload the gateway cannot read (the upstream's JSON is not trusted). */
  accepts(body: unknown): body is T;
  /**
   * How the answer relates to matches: the match it belongs to, and the
   * matches (with their state) it shows. Its freshness then follows the
   * state of those matches (src/upstream/match-freshness.ts). @default none
   */
  readonly match?: MatchBinding<P, T>;
}

/** What a payload can show of a match. */
export type MatchPhase = 'scheduled' | 'inPlay' | 'ended' | 'postponed';

/** One match as a payload shows it. */
export interface MatchSighting {
  /** The match's identity across routes of one provider (`v1 game 123`, `v2 event 456`). */
  readonly match: string;
  readonly phase: MatchPhase;
  /** Kick-off, epoch ms, when the payload gives it. */
  readonly startsAt?: number | undefined;
}

/** How a route's answers relate to matches (on `Route.match`). */
export interface MatchBinding<P, T> {
  /** The match this answer belongs to: its freshness is that match's. */
  match?(params: P): string;
  /** The matches the payload shows, with their phase; the answer is a list of them unless `match` is set. */
  sightings?(payload: T, params: P): readonly MatchSighting[];
  /**
   * The competition whose matches the answer follows. On a list (with
   * `sightings`) it says whose fixtures those are; on an answer that shows
   * no match itself (a standings table) it makes that answer as fresh as
   * the competition's fixture list: short only while one of its matches is
   * in play or about to start, and due again when one changes state.
   */
  competition?(params: P): string;
}

export type RouteParams<R> = R extends Route<infer P, unknown> ? P : never;
export type RoutePayload<R> = R extends Route<unknown, infer T> ? T : never;

/** Characters `application/x-www-form-urlencoded` (URLSearchParams) leaves as they are. */
export const FORM_PLAIN = /^[A-Za-z0-9*._-]*$/;

/**
 * `template` + sorted query: the identity of one upstream resource. Built
 * for every route call an operation plans, estimates and executes (several
 * times per resource), so the usual query (a few plain keys and values) is
 * joined directly; anything else goes through URLSearchParams, whose
 * encoding the direct join equals for plain text.
 */
export function resourceKey(request: RouteRequest): string {
  const { query } = request;
  const keys: string[] = [];
  for (const key of Object.keys(query)) {
    if (query[key] === undefined) continue;
    // Insertion in code-unit order: a handful of keys, no sort's work arrays.
    let at = keys.length;
    keys.push(key);
    for (; at > 0 && keys[at - 1]! > key; at--) keys[at] = keys[at - 1]!;
    keys[at] = key;
  }
  if (keys.length === 0) return request.path;
  let search = '';
  for (const key of keys) {
    const value = String(query[key]);
    if (!FORM_PLAIN.test(key) || !FORM_PLAIN.test(value))
      return `${request.path}?${new URLSearchParams(keys.map((k) => [k, String(query[k])])).toString()}`;
    search += `${search === '' ? '' : '&'}${key}=${value}`;
  }
  return `${request.path}?${search}`;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
