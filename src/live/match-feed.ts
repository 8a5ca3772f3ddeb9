/**
 * One upstream odds subscription for one match: its own WebSocket to
 * `{ws_base_url}/ws`, subscribed to `match:{id}:odds`, kept alive across
 * drops, silence and unreadable frames.
 *
 * Timing, which is the subtle part:
 *
 * - The watchdog (spec 6.6) is re-armed by every readable snapshot and by
 *   every (re)connect attempt. When it fires, the last frame is older than
 *   `watchdogMs`: the socket is torn down and a new one is opened after a
 *   backoff. Only a readable snapshot counts as life: pings or garbage do not.
 * - Backoff uses "equal jitter": the n-th consecutive failed attempt waits
 *   between half and all of `min(maxMs, initialMs * 2^n)`, so a fleet of
 *   feeds dropped together does not reconnect in one burst, yet never waits
 *   zero. A readable snapshot resets n to 0.
 * - An unreadable frame is a missed update (spec 6.6: no sequence number, no
 *   replay): the feed resubscribes on the same socket, and the immediate
 *   snapshot that follows is authoritative. Several unreadable frames in a
 *   row mean the socket is broken: it is replaced like a dropped one.
 * - After any gap the first snapshot is handed on like any other; the hub
 *   diffs it against the last one before the gap.
 */
import type { Logger } from 'pino';
import WebSocket from 'ws';
import { CloseCode } from '../codes/close-codes.js';
import {
  encodeClientMessage,
  ODDS_SOCKET_KEY_HEADER,
  oddsChannel,
  parseServerMessage,
  type OddsFrame,
} from '../upstream/routes/odds-socket.js';

export type FeedState = 'CONNECTING' | 'LIVE' | 'RECONNECTING';

export interface BackoffOptions {
  /** First retry waits between half of this and this. @default 500 */
  initialMs: number;
  /** Ceiling for any wait. @default 30_000 */
  maxMs: number;
}

export interface MatchFeedOptions {
  /** Full socket URL (`oddsSocketUrl(wsBase)`). */
  readonly url: string;
  readonly apiKey: string | undefined;
  readonly matchId: string;
  /** A frame older than this triggers a reconnect (spec 6.6). @default 90_000 */
  readonly watchdogMs: number;
  readonly backoff: BackoffOptions;
  readonly logger: Logger;
  /** Every readable snapshot, with the gateway's receive time. */
  onFrame(frame: OddsFrame, receivedAt: number): void;
  /** State changes: CONNECTING only before the first frame ever. */
  onState(state: FeedState): void;
}

/** Consecutive unreadable frames after which the socket is replaced. */
const MAX_UNREADABLE_IN_A_ROW = 3;

export class MatchFeed {
  readonly #options: MatchFeedOptions;
  readonly #channel: string;
  #socket: WebSocket | undefined;
  #watchdog: NodeJS.Timeout | undefined;
  #retry: NodeJS.Timeout | undefined;
  #attempts = 0;
  #unreadable = 0;
  #everLive = false;
  #stopped = false;
  #state: FeedState = 'CONNECTING';

  constructor(options: MatchFeedOptions) {
    this.#options = options;
    this.#channel = oddsChannel(options.matchId);
  }

  get state(): FeedState {
    return this.#state;
  }

  start(): void {
    this.#connect();
  }

  /** Unsubscribes, closes the socket and stops every timer. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#watchdog);
    clearTimeout(this.#retry);
    const socket = this.#socket;
    this.#socket = undefined;
    if (socket === undefined) return;
    if (socket.readyState === WebSocket.OPEN) {
      socket.send(encodeClientMessage({ type: 'unsubscribe', channel: this.#channel }));
      socket.close(CloseCode.NormalClosure, 'no subscribers');
    } else {
      socket.terminate();
    }
  }

  #connect(): void {
    if (this.#stopped) return;
    const { url, apiKey, logger } = this.#options;
    const headers: Record<string, string> = apiKey === undefined ? {} : { [ODDS_SOCKET_KEY_HEADER]: apiKey };
    const socket = new WebSocket(url, { headers, handshakeTimeout: this.#options.watchdogMs });
    this.#socket = socket;
    // Connect attempts are covered by the watchdog too: a handshake that
    // never completes is as silent as a socket that never speaks.
    this.#armWatchdog();

    socket.on('open', () => {
      if (socket !== this.#socket) return;
      this.#subscribe(socket);
    });
    socket.on('message', (data, isBinary) => {
      if (socket !== this.#socket) return;
      this.#onMessage(socket, isBinary ? '' : rawText(data));
    });
    socket.on('unexpected-response', (_request, response) => {
      if (socket !== this.#socket) return;
      logger.warn({ matchId: this.#options.matchId, status: response.statusCode }, 'odds socket upgrade refused');
      this.#replace(socket);
    });
    socket.on('error', (error) => {
      if (socket !== this.#socket) return;
      logger.warn({ matchId: this.#options.matchId, err: error.message }, 'odds socket error');
      this.#replace(socket);
    });
    socket.on('close', (code) => {
      if (socket !== this.#socket) return;
      logger.info({ matchId: this.#options.matchId, code }, 'odds socket closed by the upstream');
      this.#replace(socket);
    });
  }

  #subscribe(socket: WebSocket): void {
    socket.send(encodeClientMessage({ type: 'subscribe', channel: this.#channel }));
  }

  #onMessage(socket: WebSocket, text: string): void {
    const message = parseServerMessage(text);
    if (message === undefined || message.type === 'error') {
      this.#unreadable += 1;
      this.#options.logger.warn(
        {
          matchId: this.#options.matchId,
          unreadableInARow: this.#unreadable,
          upstreamError: message?.type === 'error',
        },
        'unreadable odds frame: resubscribing for an authoritative snapshot',
      );
      if (this.#unreadable >= MAX_UNREADABLE_IN_A_ROW) {
        this.#replace(socket);
        return;
      }
      socket.send(encodeClientMessage({ type: 'unsubscribe', channel: this.#channel }));
      this.#subscribe(socket);
      return;
    }
    if (message.channel !== this.#channel) return;
    this.#unreadable = 0;
    this.#attempts = 0;
    this.#armWatchdog();
    this.#setState('LIVE');
    this.#everLive = true;
    this.#options.onFrame(message.frame, Date.now());
  }

  #armWatchdog(): void {
    clearTimeout(this.#watchdog);
    this.#watchdog = setTimeout(() => {
      const socket = this.#socket;
      if (socket === undefined) return;
      this.#options.logger.warn(
        { matchId: this.#options.matchId, watchdogMs: this.#options.watchdogMs },
        'no odds frame within the watchdog: reconnecting',
      );
      this.#replace(socket);
    }, this.#options.watchdogMs);
    this.#watchdog.unref();
  }

  /** Drops `socket` and schedules a new connection after the backoff. */
  #replace(socket: WebSocket): void {
    if (socket !== this.#socket || this.#stopped) return;
    this.#socket = undefined;
    clearTimeout(this.#watchdog);
    socket.removeAllListeners('message');
    socket.on('error', () => undefined); // a late error on a discarded socket is not news
    socket.terminate();
    this.#setState(this.#everLive ? 'RECONNECTING' : 'CONNECTING');
    const delay = backoffDelay(this.#attempts, this.#options.backoff);
    this.#attempts += 1;
    clearTimeout(this.#retry);
    this.#retry = setTimeout(() => this.#connect(), delay);
    this.#retry.unref();
  }

  #setState(state: FeedState): void {
    if (state === this.#state) return;
    this.#state = state;
    this.#options.onState(state);
  }
}

/** Equal jitter: between half and all of the capped exponential step. */
export function backoffDelay(
  attempt: number,
  { initialMs, maxMs }: BackoffOptions,
  random: () => number = Math.random,
): number {
  const step = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(step / 2 + random() * (step / 2));
}

function rawText(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
