/**
 * V2 entity routes shared by every sport (spec 4.3, 4.8, 2.14): typed path
 * builders and payload types, nothing else. Base `{base_url}/v2/{sport}`.
 *
 * The spec shows no V2 payloads ("Response payloads of the V2 entity
 * endpoints: not shown") beyond its terminology (events, homeTeam/awayTeam,
 * tournament, uniqueTournament, startTimestamp) and the team detail's
 * manager with full name and venue with coordinates and capacity.
 * Assumption: the shapes below, served alike by the sandbox. Domain route
 * modules (v2-football.ts, v2-hockey.ts...) add their own routes beside.
 */
import type { Route } from './route.js';
import { arrayOf, obj, shape, str, type Check } from './shape.js';
import { v2Manager, v2Player, v2Team, v2UniqueTournament } from './v2-shapes.js';

export interface V2Ref {
  id: number;
  name: string;
  slug?: string;
}

export interface V2Venue {
  id: number;
  name: string;
  city?: string;
  country?: string;
  capacity?: number;
  coordinates?: { latitude: number; longitude: number };
}

export interface V2Manager {
  id: number;
  /** Full name (spec 4.3). */
  name: string;
  shortName?: string;
  nationality?: string;
  team?: V2Ref;
}

export interface V2Team {
  id: number;
  name: string;
  shortName?: string;
  slug?: string;
  sport: { slug: string; name: string };
  country?: { name: string; alpha2?: string };
  manager?: V2Manager;
  venue?: V2Venue;
  /** Riders are modelled as teams on V2 cycling (spec 4.9). */
  type?: 'team' | 'rider' | 'national';
}

export interface V2Player {
  id: number;
  name: string;
  shortName?: string;
  position?: string;
  jerseyNumber?: string;
  dateOfBirthTimestamp?: number;
  country?: { name: string; alpha2?: string };
  team?: V2Ref;
}

export interface V2UniqueTournament {
  id: number;
  name: string;
  slug?: string;
  category?: { id: number; name: string; slug?: string; sport?: { slug: string } };
}

/** A V2 event (spec 2.14): events, homeTeam/awayTeam, tournament, startTimestamp. */
export interface V2Event {
  id: number;
  startTimestamp: number;
  status: { code: number; type: string; description?: string };
  homeTeam: V2Ref;
  awayTeam: V2Ref;
  homeScore?: { current?: number; display?: number; period1?: number; period2?: number; period3?: number };
  awayScore?: { current?: number; display?: number; period1?: number; period2?: number; period3?: number };
  tournament: V2Ref & { uniqueTournament?: V2Ref };
  season?: { id: number; name?: string; year?: string };
  roundInfo?: { round: number; name?: string };
  venue?: V2Ref;
  winnerCode?: 1 | 2 | 3;
}

export interface V2TeamPayload {
  team: V2Team;
}
export interface V2PlayerPayload {
  player: V2Player;
}
export interface V2TournamentPayload {
  uniqueTournament: V2UniqueTournament;
}
export interface V2ManagerPayload {
  manager: V2Manager;
}

/**
 * `/api/search?q=` (spec 4.3: finds canonical IDs by name). Payload not
 * shown; assumed as cycling's (v2-cycling.ts): typed hits, each with the
 * entity as its detail route would give it.
 */
export interface V2SearchPayload {
  results: Array<
    | { type: 'team'; entity: V2Team }
    | { type: 'tournament'; entity: V2UniqueTournament }
    | { type: 'player'; entity: V2Player }
  >;
}

/** A hit's entity is checked as what its `type` says; hits of other types (players, managers) pass unread. */
const searchHit: Check = (hit) => {
  if (!obj({ type: str })(hit)) return false;
  const { type } = hit as { type: string };
  if (type === 'team') return obj({ entity: v2Team })(hit);
  if (type === 'tournament') return obj({ entity: v2UniqueTournament })(hit);
  if (type === 'player') return obj({ entity: v2Player })(hit);
  return true;
};

export interface V2SportParam {
  /** The sport slug as V2 spells it (`hockey`, `waterpolo`, `aussie-rules`). */
  sport: string;
}

export const v2Routes = {
  search: {
    version: 'v2',
    template: '/v2/{sport}/api/search',
    auth: true,
    counted: true,
    cacheClass: 'search',
    build: (p: V2SportParam & { query: string }) => ({ path: `/v2/${p.sport}/api/search`, query: { q: p.query } }),
    // Hits of other types (players, managers) are kept but not read: `entity` is checked only where `type` says what it is.
    accepts: shape<V2SearchPayload>(obj({ results: arrayOf(searchHit) })),
  },
  team: {
    version: 'v2',
    template: '/v2/{sport}/api/teams/{id}',
    auth: true,
    counted: true,
    cacheClass: 'v2Entity',
    build: (p: V2SportParam & { id: number }) => ({ path: `/v2/${p.sport}/api/teams/${p.id}`, query: {} }),
    accepts: shape<V2TeamPayload>(obj({ team: v2Team })),
  },
  player: {
    version: 'v2',
    template: '/v2/{sport}/api/players/{id}',
    auth: true,
    counted: true,
    cacheClass: 'v2Entity',
    build: (p: V2SportParam & { id: number }) => ({ path: `/v2/${p.sport}/api/players/${p.id}`, query: {} }),
    accepts: shape<V2PlayerPayload>(obj({ player: v2Player })),
  },
  tournament: {
    version: 'v2',
    template: '/v2/{sport}/api/tournaments/{id}',
    auth: true,
    counted: true,
    cacheClass: 'v2Entity',
    /** Takes `uniqueTournament.id`; the per-season `tournament.id` does not resolve (spec 2.15). */
    build: (p: V2SportParam & { uniqueTournamentId: number }) => ({
      path: `/v2/${p.sport}/api/tournaments/${p.uniqueTournamentId}`,
      query: {},
    }),
    accepts: shape<V2TournamentPayload>(obj({ uniqueTournament: v2UniqueTournament })),
  },
  manager: {
    version: 'v2',
    template: '/v2/{sport}/api/managers/{id}',
    auth: true,
    counted: true,
    cacheClass: 'v2Entity',
    build: (p: V2SportParam & { id: number }) => ({ path: `/v2/${p.sport}/api/managers/${p.id}`, query: {} }),
    accepts: shape<V2ManagerPayload>(obj({ manager: v2Manager })),
  },
} as const satisfies Record<string, Route<never, unknown>>;
