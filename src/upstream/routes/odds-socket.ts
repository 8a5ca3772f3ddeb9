/**
 * The upstream odds WebSocket, as DESIGN.md assumes it (spec 6 leaves the
 * address, handshake and message types unshown). Everything the gateway and
 * the sandbox assume about it lives here, so the real service's answer
 * replaces this one module:
 *
 * - address: `{ws_base_url}/ws`, key in `x-api-key` on the upgrade request;
 * - client -> server: `{"type":"subscribe","channel":"match:ID:odds"}` and
 *   `{"type":"unsubscribe","channel":...}`;
 * - server -> client: `{"type":"snapshot","channel":...,"data":<frame 2.9>}`;
 *   the sandbox also answers a bad request with `{"type":"error","message":...}`
 *   (assumption: the spec shows no error message).
 *
 * The frame (spec 2.9) is a complete snapshot: `markets[]`, `eventId`,
 * `liveStreamUrl`, `timestamp` (epoch ms of the service's own emit time). A
 * market may carry `suspended: true`. The spec shows no other market field;
 * we assume `{ id, name, outcomes: [{ name, price }] }` and read `id`
 * (falling back to `marketId`, then `name`) as the market's identity.
 */
import { upstreamAssumptions } from '../assumptions.js';

/** Path of the odds socket under `{ws_base_url}`. */
export const ODDS_SOCKET_PATH = '/ws';

/** Header carrying the key on the upgrade request. */
export const ODDS_SOCKET_KEY_HEADER = upstreamAssumptions.apiKeyHeader;

export interface OddsOutcome {
  readonly name: string;
  /** Decimal price; null when the bookmaker shows none. */
  readonly price: number | null;
}

export interface OddsMarket {
  /** The market's identity across frames (see the module comment). */
  readonly key: string;
  readonly name: string | null;
  readonly suspended: boolean;
  readonly outcomes: readonly OddsOutcome[];
  /** The market exactly as the upstream sent it. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/** One parsed frame (spec 2.9). */
export interface OddsFrame {
  readonly eventId: string | null;
  readonly liveStreamUrl: string | null;
  /** The service's own fetch/emit time, epoch ms. */
  readonly timestamp: number;
  readonly markets: readonly OddsMarket[];
  readonly raw: Readonly<Record<string, unknown>>;
}

export type ClientMessage =
  | { readonly type: 'subscribe'; readonly channel: string }
  | { readonly type: 'unsubscribe'; readonly channel: string };

export type ServerMessage =
  | { readonly type: 'snapshot'; readonly channel: string; readonly data: unknown }
  | { readonly type: 'error'; readonly message: string; readonly channel?: string };

/**
 * A match ID the odds channel can carry. Spec 6 shows the channel
 * `match:{matchId}:odds` for V1 and Football V2 only, and both number their
 * matches (2.15, 9.3: V1 and V2 IDs are numeric; V6's opaque strings have
 * no channel). So: a positive integer in its canonical form (no sign, no
 * leading zero), any safe integer as for every V1/V2 ID (past 2^32 too:
 * the spec gives no size), which also keeps `7` and `007` from opening two
 * upstream feeds for one match. Checked before any upstream subscription;
 * if the real service names matches otherwise, this line is the one to
 * change.
 */
export const ODDS_MATCH_ID = /^[1-9][0-9]{0,15}$/;

export function isOddsMatchId(matchId: string): boolean {
  return ODDS_MATCH_ID.test(matchId) && Number.isSafeInteger(Number(matchId));
}

/** `match:{matchId}:odds` (spec 6). */
export function oddsChannel(matchId: string): string {
  return `match:${matchId}:odds`;
}

/** The match ID of an odds channel name, or undefined for any other channel. */
export function matchIdOfChannel(channel: string): string | undefined {
  return /^match:([^:]+):odds$/.exec(channel)?.[1];
}

/** `{ws_base_url}/ws`. */
export function oddsSocketUrl(wsBaseUrl: string): string {
  return `${wsBaseUrl.replace(/\/+$/, '')}${ODDS_SOCKET_PATH}`;
}

/** The WebSocket base derived from an HTTP base: same host, ws(s) scheme. */
export function wsBaseFromHttp(httpBaseUrl: string): string {
  return httpBaseUrl.replace(/^http(s?):/i, 'ws$1:');
}

export function encodeClientMessage(message: ClientMessage): string {
  return JSON.stringify(message);
}

export function encodeServerMessage(message: ServerMessage): string {
  return JSON.stringify(message);
}

export function parseClientMessage(text: string): ClientMessage | undefined {
  const value = parseJson(text);
  if (!isRecord(value) || typeof value['channel'] !== 'string') return undefined;
  if (value['type'] === 'subscribe' || value['type'] === 'unsubscribe') {
    return { type: value['type'], channel: value['channel'] };
  }
  return undefined;
}

/**
 * A server message, with its frame parsed. Undefined for anything the
 * gateway cannot read (bad JSON, unknown type, a frame missing its
 * `timestamp` or `markets[]`): the caller treats that as a missed update.
 */
export function parseServerMessage(
  text: string,
): { type: 'snapshot'; channel: string; frame: OddsFrame } | { type: 'error'; message: string } | undefined {
  const value = parseJson(text);
  if (!isRecord(value)) return undefined;
  if (value['type'] === 'error') return { type: 'error', message: String(value['message'] ?? '') };
  if (value['type'] !== 'snapshot' || typeof value['channel'] !== 'string') return undefined;
  const frame = parseFrame(value['data']);
  return frame === undefined ? undefined : { type: 'snapshot', channel: value['channel'], frame };
}

export function parseFrame(data: unknown): OddsFrame | undefined {
  if (!isRecord(data) || !Array.isArray(data['markets'])) return undefined;
  const timestamp = data['timestamp'];
  if (typeof timestamp !== 'number' || !Number.isFinite(timestamp)) return undefined;
  const markets: OddsMarket[] = [];
  const seen = new Set<string>();
  for (const item of data['markets']) {
    const market = parseMarket(item);
    if (market === undefined || seen.has(market.key)) return undefined;
    seen.add(market.key);
    markets.push(market);
  }
  return {
    eventId: idString(data['eventId']),
    liveStreamUrl: typeof data['liveStreamUrl'] === 'string' ? data['liveStreamUrl'] : null,
    timestamp,
    markets,
    raw: data,
  };
}

function parseMarket(item: unknown): OddsMarket | undefined {
  if (!isRecord(item)) return undefined;
  const key = idString(item['id']) ?? idString(item['marketId']) ?? idString(item['name']);
  if (key === null) return undefined;
  const outcomes: OddsOutcome[] = [];
  if (Array.isArray(item['outcomes'])) {
    for (const outcome of item['outcomes']) {
      if (!isRecord(outcome) || typeof outcome['name'] !== 'string') return undefined;
      const price = outcome['price'];
      outcomes.push({
        name: outcome['name'],
        price: typeof price === 'number' && Number.isFinite(price) ? price : null,
      });
    }
  }
  return {
    key,
    name: typeof item['name'] === 'string' ? item['name'] : null,
    suspended: item['suspended'] === true,
    outcomes,
    raw: item,
  };
}

function idString(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
