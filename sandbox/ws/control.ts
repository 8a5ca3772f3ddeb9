/**
 * Control routes for the odds socket, under `/__sandbox/` like the others
 * (never counted, no key):
 *
 * - `GET  /__sandbox/ws` -> connections, subscriptions per channel,
 *   subscribe / unsubscribe totals (`OddsSocketStats`);
 *   `POST /__sandbox/ws/reset` zeroes the totals.
 * - `POST /__sandbox/ws/drop` `{ match?, refuseMs? }`: destroys the sockets
 *   (of one match, or all) and refuses new upgrades (503) for `refuseMs`.
 * - `POST /__sandbox/ws/silence` `{ match? }`: those sockets stay open and
 *   receive nothing more.
 * - `POST /__sandbox/ws/malformed` `{ match? }`: one unreadable frame each.
 * - `GET  /__sandbox/odds/{match}`: the book as the next frame will show it.
 * - `POST /__sandbox/odds/{match}/markets/{market}` `{ action }` with
 *   `suspend | reopen | close | open`: shows in the next (change-gated) frame.
 * - `POST /__sandbox/odds/{match}/price` `{ market, outcome, price }`: likewise.
 * - `POST /__sandbox/odds/{match}/event`: a match event; prices shift and a
 *   frame follows about 300 ms later (fast cadence: 30 ms).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ODDS_MATCH_ID } from '../fixtures/odds.js';
import type { OddsSocketServer } from './odds-socket.js';

/** Answers the request if it is one of these routes; false leaves it to the sandbox. */
export function handleOddsControl(odds: OddsSocketServer, req: IncomingMessage, res: ServerResponse): boolean {
  const pathname = new URL(req.url ?? '/', 'http://sandbox').pathname;
  if (!pathname.startsWith('/__sandbox/ws') && !pathname.startsWith('/__sandbox/odds/')) return false;
  void answer(odds, req, pathname).then(
    ([status, body]) => reply(res, status, body),
    (error: unknown) => reply(res, 400, { error: error instanceof Error ? error.message : 'Bad request' }),
  );
  return true;
}

async function answer(odds: OddsSocketServer, req: IncomingMessage, pathname: string): Promise<[number, unknown]> {
  const route = `${req.method ?? 'GET'} ${pathname}`;
  switch (route) {
    case 'GET /__sandbox/ws':
      return [200, odds.stats()];
    case 'POST /__sandbox/ws/reset':
      odds.resetStats();
      return [200, odds.stats()];
    case 'POST /__sandbox/ws/drop': {
      const body = await readBody(req);
      return [200, { affected: odds.drop(optionalMatch(body), nonNegative(body['refuseMs'], 'refuseMs') ?? 0) }];
    }
    case 'POST /__sandbox/ws/silence':
      return [200, { affected: odds.silence(optionalMatch(await readBody(req))) }];
    case 'POST /__sandbox/ws/malformed':
      return [200, { affected: odds.malformed(optionalMatch(await readBody(req))) }];
  }
  const match = /^(GET|POST) \/__sandbox\/odds\/([^/]+)(?:\/(event|price|markets\/([^/]+)))?$/.exec(route);
  if (match === null) return [404, { error: 'Route not found' }];
  const [, method, rawMatchId = '', action, marketId] = match;
  const matchId = decodeURIComponent(rawMatchId);
  if (!ODDS_MATCH_ID.test(matchId)) return [400, { error: 'Bad match ID' }];
  const book = odds.book(matchId);
  if (method === 'GET' && action === undefined) return [200, book.frame(Date.now())];
  if (method !== 'POST' || action === undefined) return [404, { error: 'Route not found' }];

  if (action === 'event') {
    odds.matchEvent(matchId);
    return [202, { eventDelayMs: odds.timing.eventDelayMs }];
  }
  const body = await readBody(req);
  if (action === 'price') {
    const market = String(body['market'] ?? '');
    const outcome = String(body['outcome'] ?? '');
    const price = body['price'];
    if (typeof price !== 'number' || !(price > 1)) return [400, { error: 'price must be a number above 1' }];
    return [200, { changed: book.setPrice(market, outcome, price) }];
  }
  const id = decodeURIComponent(marketId ?? '');
  switch (body['action']) {
    case 'suspend':
      return [200, { changed: book.suspend(id) }];
    case 'reopen':
      return [200, { changed: book.reopen(id) }];
    case 'close':
      return [200, { changed: book.close(id) }];
    case 'open':
      return [200, { changed: book.open(id, typeof body['name'] === 'string' ? body['name'] : id) }];
    default:
      return [400, { error: 'action must be suspend, reopen, close or open' }];
  }
}

function optionalMatch(body: Record<string, unknown>): string | undefined {
  const match = body['match'];
  if (match === undefined) return undefined;
  const id = String(match);
  if (!ODDS_MATCH_ID.test(id)) throw new Error('Bad match ID');
  return id;
}

function nonNegative(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value >= 0)) throw new Error(`${name} must be a non-negative number`);
  return value;
}

export async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > 64 * 1024) throw new Error('Control request body too large');
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  const value = JSON.parse(text) as unknown;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('Body must be a JSON object');
  return value as Record<string, unknown>;
}

export function reply(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}
