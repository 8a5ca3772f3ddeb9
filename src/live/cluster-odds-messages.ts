/**
 * What replicas tell each other about one match's odds feed, on the bus
 * channel `odds:{matchId}`, and what the lease holder leaves on the board
 * (`odds:{matchId}`) for a replica whose first subscriber arrives later.
 *
 * Frames travel as the upstream sent them (`data`, spec 2.9) and are parsed
 * again on arrival by the same parser as the socket's (protocol.ts), so a
 * relayed frame is read exactly as a received one. `at` is when the lease
 * holder received it from the upstream: `receivedAt` means the same thing
 * on every replica.
 *
 * Anything unreadable is dropped: the bus is at-most-once anyway, and the
 * next frame (or the next heartbeat) repairs a missed one.
 */
import type { FeedState } from './match-feed.js';

export type ClusterOddsMessage =
  /** A frame from the lease holder's upstream socket. */
  | { readonly t: 'frame'; readonly from: string; readonly at: number; readonly data: unknown }
  /** The lease holder's feed left LIVE (its socket dropped, or it has just taken the lease over). */
  | { readonly t: 'state'; readonly from: string; readonly state: FeedState }
  /** A replica has subscribers for the match: the holder keeps the feed open for it. */
  | { readonly t: 'interest'; readonly from: string }
  /** A replica has no more subscribers for the match. */
  | { readonly t: 'leave'; readonly from: string };

/** The latest frame, as the board keeps it. */
export interface BoardedFrame {
  readonly at: number;
  readonly data: unknown;
  readonly state: FeedState;
}

const STATES: ReadonlySet<string> = new Set<FeedState>(['CONNECTING', 'LIVE', 'RECONNECTING']);

export function oddsBusChannel(matchId: string): string {
  return `odds:${matchId}`;
}

export function oddsBoardKey(matchId: string): string {
  return `odds:${matchId}`;
}

/** The lease name `/healthz` shows for the holder of a match's upstream socket. */
export function oddsLeaseName(matchId: string): string {
  return `odds:${matchId}`;
}

export function encodeClusterMessage(message: ClusterOddsMessage): string {
  return JSON.stringify(message);
}

export function parseClusterMessage(text: string): ClusterOddsMessage | undefined {
  const value = parseRecord(text);
  if (value === undefined || typeof value['from'] !== 'string') return undefined;
  const from = value['from'];
  switch (value['t']) {
    case 'frame':
      return typeof value['at'] === 'number' ? { t: 'frame', from, at: value['at'], data: value['data'] } : undefined;
    case 'state':
      return isFeedState(value['state']) ? { t: 'state', from, state: value['state'] } : undefined;
    case 'interest':
    case 'leave':
      return { t: value['t'], from };
    default:
      return undefined;
  }
}

export function encodeBoardedFrame(frame: BoardedFrame): string {
  return JSON.stringify(frame);
}

export function parseBoardedFrame(text: string | undefined): BoardedFrame | undefined {
  const value = text === undefined ? undefined : parseRecord(text);
  if (value === undefined || typeof value['at'] !== 'number' || !isFeedState(value['state'])) return undefined;
  return { at: value['at'], data: value['data'], state: value['state'] };
}

function isFeedState(value: unknown): value is FeedState {
  return typeof value === 'string' && STATES.has(value);
}

function parseRecord(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
