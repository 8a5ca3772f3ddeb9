/**
 * Seconds each route class stays fresh in the shared cache. Each can be
 * overridden with `CACHE_TTL_<CLASS>`; the README's caching table mirrors
 * this file. A domain adds its classes here, one line each.
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
} as const satisfies Record<string, number>;

export type CacheClass = keyof typeof defaultCacheTtls;
