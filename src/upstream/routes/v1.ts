/**
 * V1 routes (spec 4.1): typed path builders and payload types, nothing else.
 *
 * Where the spec leaves a name unshown, the assumption is written here, next
 * to the route that uses it, and the sandbox serves the same shape.
 */
import { isObject, type Route } from './route.js';
import { v1GameKey } from './match-sightings.js';
import { arrayOf, bool, date, int, num, obj, opt, shape, str } from './shape.js';

/** Spec 2.1. */
export interface V1StandingsCompetitor {
  id: number;
  name: string;
  score: number;
  imageUrl: string;
  /** Spec 2.5: V1 responses carry `imageVersion` next to entities with images. */
  imageVersion?: number;
}

export interface V1StandingsEntry {
  competitor: V1StandingsCompetitor;
  position: number;
  points: number;
  played: number;
  wins: number;
  losses: number;
  /** Assumption: the spec names overtime losses and goals but not their fields. */
  overtimeLosses?: number;
  goalsFor?: number;
  goalsAgainst?: number;
}

export interface V1StandingsPayload {
  standings: V1StandingsEntry[];
  /** Assumption: the competition and season the table is for, when the upstream echoes them. */
  competitionId?: number;
  seasonNum?: number;
}

/** Spec 2.2. */
export interface V1LinesPayload {
  lines: {
    gameId: number;
    markets: {
      moneyline?: { home: number; away: number; draw: number };
      puckLine?: { line: number; home: number; away: number };
      totalGoals?: { line: number; over: number; under: number };
    };
  };
}

/** Spec 2.3. */
export interface V1NewsArticle {
  id: number;
  publishDate: string;
  sourceId: number;
  title: string;
  image: string;
  url: string;
  isMagazine: boolean;
}

export interface V1NewsSource {
  id: number;
  name: string;
  imageVersion: number;
}

export interface V1NewsPayload {
  success: boolean;
  type: 'news';
  data: { news: V1NewsArticle[]; newsSources: V1NewsSource[] };
}

/**
 * Spec 2.4 shows no athlete fields ("bio, statistics, team and current-season
 * performance"). Assumption: these names, served alike by the sandbox.
 */
export interface V1Athlete {
  id: number;
  name: string;
  position?: string;
  jerseyNumber?: number;
  birthDate?: string;
  nationality?: string;
  heightCm?: number;
  weightKg?: number;
  shoots?: string;
  imageVersion?: number;
  bio?: string;
  team?: { id: number; name: string; imageVersion?: number };
  statistics?: Array<{ name: string; value: number }>;
  currentSeason?: {
    season: number;
    gamesPlayed: number;
    goals: number;
    assists: number;
    points: number;
    plusMinus: number;
    penaltyMinutes: number;
  };
}

export interface V1AthletesPayload {
  athletes: V1Athlete[];
}

/** `/search` payload: not shown in the spec. Assumption: a flat list of typed hits. */
export interface SearchHit {
  type: 'athlete' | 'competitor' | 'competition' | 'team' | 'player' | 'tournament';
  id: number;
  name: string;
  sport: string;
  version: 'v1' | 'v2';
  /** Assumption: the entity's country, where the provider has one (clubs, leagues). */
  country?: string;
}

export interface SearchPayload {
  results: SearchHit[];
}

const hasArray = (body: unknown, key: string): boolean => isObject(body) && Array.isArray(body[key]);

/** What the resolvers read of each payload (the interfaces above), checked once: see shape.ts. */
const standingsShape = obj({
  standings: arrayOf(
    obj({
      competitor: obj({ id: int, name: str, score: opt(num), imageUrl: opt(str), imageVersion: opt(int) }),
      position: int,
      points: num,
      played: int,
      wins: int,
      losses: int,
      overtimeLosses: opt(int),
      goalsFor: opt(int),
      goalsAgainst: opt(int),
    }),
  ),
  competitionId: opt(int),
  seasonNum: opt(int),
});
const linesShape = obj({
  lines: obj({
    gameId: int,
    markets: obj({
      moneyline: opt(obj({ home: num, away: num, draw: num })),
      puckLine: opt(obj({ line: num, home: num, away: num })),
      totalGoals: opt(obj({ line: num, over: num, under: num })),
    }),
  }),
});
const newsShape = obj({
  data: obj({
    news: arrayOf(
      obj({ id: int, publishDate: date, sourceId: int, title: str, image: opt(str), url: str, isMagazine: opt(bool) }),
    ),
    newsSources: arrayOf(obj({ id: int, name: str, imageVersion: opt(int) })),
  }),
});
const athletesShape = obj({
  athletes: arrayOf(
    obj({
      id: int,
      name: str,
      position: opt(str),
      jerseyNumber: opt(int),
      birthDate: opt(str),
      nationality: opt(str),
      heightCm: opt(num),
      weightKg: opt(num),
      shoots: opt(str),
      imageVersion: opt(int),
      bio: opt(str),
      team: opt(obj({ id: int, name: str, imageVersion: opt(int) })),
      statistics: opt(arrayOf(obj({ name: str, value: num }))),
      currentSeason: opt(
        obj({
          season: int,
          gamesPlayed: int,
          goals: int,
          assists: int,
          points: int,
          plusMinus: int,
          penaltyMinutes: int,
        }),
      ),
    }),
  ),
});

export const v1Routes = {
  standings: {
    version: 'v1',
    template: '/v1/hockey/standings',
    auth: true,
    counted: true,
    cacheClass: 'standings',
    build: (p: { competition?: number | undefined; seasonNum?: number | undefined }) => ({
      path: '/v1/hockey/standings',
      query: { competitions: p.competition, seasonNum: p.seasonNum },
    }),
    accepts: shape<V1StandingsPayload>(standingsShape),
  },
  lines: {
    version: 'v1',
    template: '/v1/hockey/bets/lines',
    auth: true,
    counted: true,
    cacheClass: 'lines',
    build: (p: { gameId: number }) => ({ path: '/v1/hockey/bets/lines', query: { gameId: p.gameId } }),
    accepts: shape<V1LinesPayload>(linesShape),
    // A V1 game ID (V1 is one provider): the lines follow that game's state wherever a V1 payload showed it
    // (its detail, `/api/v1/game/{gameId}`); the lines themselves show none, so until then they keep `lines`.
    match: { match: (p: { gameId: number }) => v1GameKey(p.gameId) },
  },
  news: {
    version: 'v1',
    template: '/v1/hockey/news',
    auth: true,
    counted: true,
    cacheClass: 'news',
    build: (p: { competitionId?: number | undefined; limit?: number | undefined; gameId?: number | undefined }) => ({
      path: '/v1/hockey/news',
      // Assumption: the game filter's name is not shown in the spec; `gameId` as on the lines route.
      query: { competitionId: p.competitionId, limit: p.limit, gameId: p.gameId },
    }),
    accepts: shape<V1NewsPayload>(newsShape),
  },
  athletes: {
    version: 'v1',
    template: '/v1/hockey/athletes',
    auth: true,
    counted: true,
    cacheClass: 'athlete',
    build: (p: { athleteId: number }) => ({
      path: '/v1/hockey/athletes',
      query: { athletes: p.athleteId, fullDetails: true },
    }),
    accepts: shape<V1AthletesPayload>(athletesShape),
  },
  search: {
    version: 'v1',
    template: '/search',
    auth: true,
    counted: true,
    cacheClass: 'search',
    // Assumption: the search term is passed as `q`, optionally narrowed by `sport`.
    build: (p: { q: string; sport?: string | undefined }) => ({ path: '/search', query: { q: p.q, sport: p.sport } }),
    accepts: (body: unknown): body is SearchPayload => hasArray(body, 'results'),
  },
} as const satisfies Record<string, Route<never, unknown>>;
