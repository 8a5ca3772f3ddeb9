/**
 * Image routes (spec 4.2): V1 free and keyless, V2 and V6 keyed and counted.
 * Their answers are bytes, not JSON: `UpstreamFetcher.fetchRaw` runs them and
 * the image store (`src/images/`) is their cache, so `accepts` is never asked.
 *
 * Parameters reach these builders only after `src/model/image-paths.ts` checked
 * them; the builders still encode every segment so nothing can leave the path.
 *
 * Assumptions: V1 images are served under `/v1/football/images` for every
 * sport (the only path the spec shows); V2 image types are `teams`,
 * `tournaments`, `players` (the full list is not shown).
 */
import type { Route } from './route.js';

export const v1ImageTypes = ['competitors', 'athletes', 'competitions'] as const;
export type V1ImageType = (typeof v1ImageTypes)[number];

/**
 * Teams, tournaments and players live under `/v2/{sport}/images/{type}/{id}`
 * (spec 4.2); managers and referees have their image under their own API
 * route (`/api/manager/{id}/image`, `/api/referee/{id}/image`, spec 4.5, 4.8).
 */
export const v2ImageTypes = ['teams', 'tournaments', 'players', 'managers', 'referees'] as const;
export type V2ImageType = (typeof v2ImageTypes)[number];

/** Spec 4.2.2: the eight V6 image types. */
export const v6ImageTypes = [
  'teams',
  'competitions',
  'tournaments',
  'players',
  'coaches',
  'referees',
  'venues',
  'countries',
] as const;
export type V6ImageType = (typeof v6ImageTypes)[number];

export interface V1ImageParams {
  type: V1ImageType;
  id: number;
  imageVersion?: number | undefined;
}

export interface V2ImageParams {
  sport: string;
  type: V2ImageType;
  id: number;
}

export interface V6ImageParams {
  sport: string;
  /** Omitted: the upstream resolves the type itself (spec 4.2.2). */
  type?: V6ImageType | undefined;
  /** Exactly as the payload gave it, `!w80` included (spec 4.2.3). */
  filename: string;
}

const bytesOnly = (_body: unknown): _body is never => false;
const seg = encodeURIComponent;

export const imageRoutes = {
  v1: {
    version: 'v1',
    template: '/v1/football/images/{type}/{id}',
    auth: false,
    counted: false,
    cacheClass: 'image',
    build: (p: V1ImageParams) => ({
      path: `/v1/football/images/${seg(p.type)}/${p.id}`,
      query: { imageVersion: p.imageVersion },
    }),
    accepts: bytesOnly,
  },
  v2: {
    version: 'v2',
    template: '/v2/{sport}/images/{type}/{id}',
    auth: true,
    counted: true,
    cacheClass: 'image',
    build: (p: V2ImageParams) => ({ path: `/v2/${seg(p.sport)}/images/${seg(p.type)}/${p.id}`, query: {} }),
    accepts: bytesOnly,
  },
  /** Spec 4.8: manager images work on every V2 sport. */
  v2Manager: {
    version: 'v2',
    template: '/v2/{sport}/api/manager/{id}/image',
    auth: true,
    counted: true,
    cacheClass: 'image',
    build: (p: V2ImageParams) => ({ path: `/v2/${seg(p.sport)}/api/manager/${p.id}/image`, query: {} }),
    accepts: bytesOnly,
  },
  /** Spec 4.5: the referee (umpire) image route is shown for Aussie rules only. */
  v2Referee: {
    version: 'v2',
    template: '/v2/{sport}/api/referee/{id}/image',
    auth: true,
    counted: true,
    cacheClass: 'image',
    build: (p: V2ImageParams) => ({ path: `/v2/${seg(p.sport)}/api/referee/${p.id}/image`, query: {} }),
    accepts: bytesOnly,
  },
  v6Typed: {
    version: 'v6',
    template: '/v6/{sport}/images/{type}/{filename}',
    auth: true,
    counted: true,
    cacheClass: 'image',
    build: (p: V6ImageParams) => ({
      path: `/v6/${seg(p.sport)}/images/${seg(p.type ?? '')}/${seg(p.filename)}`,
      query: {},
    }),
    accepts: bytesOnly,
  },
  v6: {
    version: 'v6',
    template: '/v6/{sport}/images/{filename}',
    auth: true,
    counted: true,
    cacheClass: 'image',
    build: (p: V6ImageParams) => ({ path: `/v6/${seg(p.sport)}/images/${seg(p.filename)}`, query: {} }),
    accepts: bytesOnly,
  },
} as const satisfies Record<string, Route<never, never>>;
