/**
 * Control routes that script the live World Cup, under `/__sandbox/` like
 * the others (never counted, no key):
 *
 * - `GET  /__sandbox/matches`: every simulated match as it stands (IDs,
 *   teams, phase, minute, score, goals, when the next change on its own is
 *   due).
 * - `GET  /__sandbox/matches/{id}`: one, by V1 game ID or V2 event ID
 *   (404 for a game not simulated: not yet kicked off nor scripted).
 * - `POST /__sandbox/matches/{id}/events` with one of
 *   `{ "type": "goal", "team": "home" | "away" }`,
 *   `{ "type": "period" }` (kick-off, half-time, second half, full time: the
 *   next one), `{ "type": "end" }` (full time now),
 *   `{ "type": "suspend" | "reopen" | "close" | "open", "market": ID }`.
 *   It applies at once: the next REST answer shows it, and the match's odds
 *   (under both its IDs) send a frame about 300 ms later (fast cadence:
 *   30 ms), as after any match event (spec 6.4). A scheduled game with both
 *   teams known can be kicked off with `period`.
 *
 * Errors: 404 unknown match, 400 a body that is not one of the above, 409 an
 * event the match cannot have now (a goal at half-time, anything after full
 * time).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../router.js';
import { readBody, reply } from '../ws/control.js';
import type { OddsSocketServer } from '../ws/odds-socket.js';
import { ScriptError, type MatchView } from './live-match.js';
import type { MatchSimulation, ScriptedEvent, SimulatedMatch } from './simulation.js';

const MARKET_ACTIONS = ['suspend', 'reopen', 'close', 'open'] as const;
type MarketAction = (typeof MARKET_ACTIONS)[number];

/** Answers the request if it is one of these routes; false leaves it to the sandbox. */
export function handleMatchControl(
  simulation: MatchSimulation,
  odds: OddsSocketServer,
  req: IncomingMessage,
  res: ServerResponse,
): boolean {
  const pathname = new URL(req.url ?? '/', 'http://sandbox').pathname;
  if (pathname !== '/__sandbox/matches' && !pathname.startsWith('/__sandbox/matches/')) return false;
  void answer(simulation, odds, req, pathname).then(
    ([status, body]) => reply(res, status, body),
    (error: unknown) =>
      reply(res, error instanceof ScriptError ? 409 : error instanceof HttpError ? error.status : 400, {
        error: error instanceof Error ? error.message : 'Bad request',
      }),
  );
  return true;
}

async function answer(
  simulation: MatchSimulation,
  odds: OddsSocketServer,
  req: IncomingMessage,
  pathname: string,
): Promise<[number, unknown]> {
  const route = `${req.method ?? 'GET'} ${pathname}`;
  if (route === 'GET /__sandbox/matches')
    return [
      200,
      { minuteMs: simulation.minuteMs, matches: simulation.matches().map((m) => describe(m, simulation.view(m))) },
    ];
  const parts = /^(GET|POST) \/__sandbox\/matches\/([^/]+)(\/events)?$/.exec(route);
  if (parts === null) return [404, { error: 'Route not found' }];
  const [, method, rawId = '', events] = parts;
  // Only a script takes a scheduled game into the simulation (then it kicks off when scripted, not on its own).
  const match =
    events === undefined ? simulation.simulated(decodeURIComponent(rawId)) : simulation.find(decodeURIComponent(rawId));
  if (match === undefined)
    return [404, { error: 'No World Cup game with both teams and that V1 or V2 ID is live or to come' }];
  if (method === 'GET' && events === undefined) return [200, describe(match, simulation.view(match))];
  if (method !== 'POST' || events === undefined) return [404, { error: 'Route not found' }];

  const body = await readBody(req);
  const type = body['type'];
  if (isMarketAction(type)) {
    const market = body['market'];
    if (typeof market !== 'string' || market === '') throw new HttpError(400, `${type} needs "market": a market ID`);
    const changed = match.ids.map((id) => marketAction(odds, id, type, market)).some(Boolean);
    for (const id of match.ids) odds.announce(id);
    return [200, { changed, match: describe(match, simulation.view(match)), eventDelayMs: odds.timing.eventDelayMs }];
  }
  const view = simulation.script(match, scriptedEvent(body));
  return [200, { match: describe(match, view), eventDelayMs: odds.timing.eventDelayMs }];
}

function scriptedEvent(body: Record<string, unknown>): ScriptedEvent {
  switch (body['type']) {
    case 'goal': {
      const team = body['team'];
      if (team !== 'home' && team !== 'away') throw new HttpError(400, 'goal needs "team": "home" or "away"');
      return { type: 'goal', team };
    }
    case 'period':
      return { type: 'period' };
    case 'end':
      return { type: 'end' };
    default:
      throw new HttpError(400, `type must be one of goal, period, end, ${MARKET_ACTIONS.join(', ')}`);
  }
}

function isMarketAction(value: unknown): value is MarketAction {
  return MARKET_ACTIONS.includes(value as MarketAction);
}

function marketAction(odds: OddsSocketServer, matchId: string, action: MarketAction, market: string): boolean {
  const book = odds.book(matchId);
  switch (action) {
    case 'suspend':
      return book.suspend(market);
    case 'reopen':
      return book.reopen(market);
    case 'close':
      return book.close(market);
    case 'open':
      return book.open(market);
  }
}

function describe(match: SimulatedMatch, view: MatchView): Record<string, unknown> {
  const { fixture } = match;
  return {
    v1Id: fixture.v1Id,
    v2Id: fixture.v2Id,
    home: fixture.home?.name ?? fixture.homeSlot,
    away: fixture.away?.name ?? fixture.awaySlot,
    phase: view.phase,
    minute: view.minute,
    score: { home: view.home, away: view.away },
    goals: view.goals,
    rates: match.live.rates,
    nextChangeAt: match.live.nextChangeAt() ?? null,
  };
}
