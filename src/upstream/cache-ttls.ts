/**
 * Seconds each route class stays fresh in the shared cache. Each can be
 * overridden with `CACHE_TTL_<CLASS>`; docs/caching-and-allowance.md's table mirrors
 * this file (test/docs-cache-ttls.test.ts). A domain adds its classes here, one line each.
 */
export const defaultCacheTtls = {
  /** `/reference/sports`: slugs change with releases, not with games. */
  reference: 24 * 3600,
  search: 3600,
  standings: 300,
  /** Betting lines move with the market. */
  lines: 30,
  news: 300,
  athlete: 3600,
  /** V2 team, player, tournament, manager details. */
  v2Entity: 3600,
  /** Images: V6 kept 24 hours in the image store (spec 4.2.5); V1/V2 logos are kept for good. */
  image: 24 * 3600,
  /** V2 event lists (team/venue/referee last and next events, season events, live feeds). */
  v2Events: 300,
  /** Per-match answers of finished matches (statistics, player statistics): they never change. */
  finishedMatch: 30 * 24 * 3600,
  /** Baseball lineups: shorter than the 5-minute confirmation poll, so each poll asks the upstream. */
  lineups: 60,
  /** V3 day windows and the V3 cycling feed. */
  v3Window: 60,
  /** V4 multi-bookmaker odds move with the market. */
  v4Odds: 30,
  /** Motorsport seasons, stages, constructor tables; Aussie rules people and grounds. */
  v2Season: 3600,
  /** World Cup V1 hub, matches, standings, poll: scores move during games. */
  worldCup: 30,
  /** One V1 game: detail, lineups, live commentary. */
  worldCupGame: 30,
  /** `/api/v1/competitor/{id}`: names and image versions. */
  v1Competitor: 3600,
  /** World Cup V2 fixtures, groups, bracket, season events. */
  v2WorldCup: 60,
  /** V2 football discovery: the ~6,400-competition catalogue, countries, categories, seasons. */
  v2Catalogue: 6 * 3600,
  /** V2 live / scheduled tournaments, lineups. */
  v2Live: 60,
  /** Manager image and events, career (V2). */
  v2Manager: 3600,
  /** V6 stat-ID mapping: one hour (spec 4.9, 8), pinned on its version. */
  v6Mapping: 3600,
  /** V6 football team statistics of one match. */
  v6TeamStats: 60,
} as const satisfies Record<string, number>;

export type CacheClass = keyof typeof defaultCacheTtls;

/**
 * Defaults on the embedded sandbox (no `SPORTS_API_BASE_URL`), where they
 * differ. The World Cup lists stay fresh 10 s, not 30: the live ticker's
 * poll floor (`LIVE_TICKER_MIN_INTERVAL_MS`, 15 s) then sets its pace, so a
 * `liveTicker` subscription sees the sandbox's games move every 15 s. On a
 * real upstream the 30 s spare its allowance; the sandbox's is make-believe.
 */
export const sandboxCacheTtls: Readonly<Partial<Record<CacheClass, number>>> = {
  worldCup: 10,
};

/**
 * Stands for "never refetched" in the table below: an ended match's answers
 * cannot change. Stored as `IMMUTABLE_TTL_MS` (finite, so that the cache
 * file and Redis can hold it).
 */
export const IMMUTABLE = Number.POSITIVE_INFINITY;
/** Ten years: what an immutable answer is stored with. */
export const IMMUTABLE_TTL_MS = 10 * 365 * 24 * 3600 * 1000;

/**
 * Seconds an answer that belongs to a match stays fresh, by the match's
 * state: the freshness policy (docs/caching-and-allowance.md, "Freshness by
 * match state", mirrors it). It replaces the route class's TTL for every
 * answer bound to a match (statistics, lineups, events, incidents,
 * commentary, team statistics, odds over REST), and lists take the
 * shortest over the matches they hold. Each can be overridden with
 * `CACHE_TTL_MATCH_<STATE>` (`CACHE_TTL_MATCH_INPLAY=10`).
 */
export const defaultMatchStateTtls = {
  /** Kick-off more than `soonWindow` ahead: little changes but the team news. */
  scheduledFar: 3600,
  /** Kick-off within `soonWindow` (lineups appear, spec 4.9), or due and not yet shown in play. */
  scheduledSoon: 60,
  /** In play (spec 3: `statusGroup` 3; V2 `inprogress`): shorter than the 30 s class TTLs it replaces. */
  inPlay: 15,
  /** Ended: the answer is final. Never refetched, kept across restarts, evicted last. */
  ended: IMMUTABLE,
  /** Postponed or cancelled, or scheduled and `overdue` past its kick-off without a sign of play. */
  postponed: 3600,
  /** How far ahead of kick-off a match is "soon": spec 4.9 polls lineups from about 3 hours before. */
  soonWindow: 3 * 3600,
  /** How long after its kick-off a match still shown scheduled is taken as postponed. */
  overdue: 6 * 3600,
} as const satisfies Record<string, number>;

export type MatchFreshnessSetting = keyof typeof defaultMatchStateTtls;
export type MatchState = Exclude<MatchFreshnessSetting, 'soonWindow' | 'overdue'>;
