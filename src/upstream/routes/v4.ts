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
import type { Route } from './route.js';
import { arrayOf, bool, epochMs, int, num, obj, opt, str } from './shape.js';

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

/** What the resolvers read of the payload (the interfaces above), checked once: see shape.ts. */
const oddsShape = obj({
  eventId: int,
  sport: opt(str),
  homeTeam: opt(str),
  awayTeam: opt(str),
  bookmakers: arrayOf(
    obj({
      key: str,
      name: str,
      lastUpdate: epochMs,
      markets: arrayOf(
        obj({ key: str, suspended: opt(bool), outcomes: arrayOf(obj({ name: str, price: num, point: opt(num) })) }),
      ),
    }),
  ),
});

export const v4Routes = {
  odds: {
    version: 'v4',
    template: '/v4/{sport}/odds',
    auth: true,
    counted: true,
    // No `match` binding: nothing the spec shows of V4 gives an event's state (no event listing, commence
    // time or completed flag), and V4's event IDs are its own (spec 9.3), so the odds keep their class TTL.
    cacheClass: 'v4Odds',
    build: (p: { sport: string; eventId: number }) => ({ path: `/v4/${p.sport}/odds`, query: { eventId: p.eventId } }),
    accepts: (b: unknown): b is V4OddsPayload => oddsShape(b),
  },
} as const satisfies Record<string, Route<never, unknown>>;
