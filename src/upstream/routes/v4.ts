/**
 * V4: multi-bookmaker odds over REST (spec 1, 6.1: the WebSocket odds channel
 * has one bookmaker; several bookmakers are REST-only on V4). V4 spells hockey
 * `ice-hockey` (spec 4.9); the slug comes from `/reference/sports`.
 *
 * Path and payload are not shown. Assumption, served alike by the sandbox:
 * `GET /v4/{sport}/odds?eventId={id}` ->
 * `{ eventId, sport, bookmakers: [{ key, name, lastUpdate (epoch ms),
 *    markets: [{ key, outcomes: [{ name, price, point? }] }] }] }`.
 */
import { isObject, type Route } from './route.js';

export interface V4Outcome {
  name: string;
  /** Decimal odds. */
  price: number;
  /** Handicap or total line, for spread and total markets. */
  point?: number;
}

export interface V4Market {
  key: string;
  suspended?: boolean;
  outcomes: V4Outcome[];
}

export interface V4Bookmaker {
  key: string;
  name: string;
  lastUpdate: number;
  markets: V4Market[];
}

export interface V4OddsPayload {
  eventId: number;
  sport: string;
  homeTeam?: string;
  awayTeam?: string;
  bookmakers: V4Bookmaker[];
}

export const v4Routes = {
  odds: {
    version: 'v4',
    template: '/v4/{sport}/odds',
    auth: true,
    counted: true,
    cacheClass: 'v4Odds',
    build: (p: { sport: string; eventId: number }) => ({ path: `/v4/${p.sport}/odds`, query: { eventId: p.eventId } }),
    accepts: (b: unknown): b is V4OddsPayload => isObject(b) && Array.isArray(b['bookmakers']),
  },
} as const satisfies Record<string, Route<never, unknown>>;
