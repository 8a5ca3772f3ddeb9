/**
 * The sandbox's odds WebSocket (spec 6, protocol in src/upstream/routes/odds-socket.ts),
 * on the sandbox's own HTTP server: `ws` in noServer mode, upgrades on
 * `/ws` only, key checked on the upgrade like any authenticated route
 * (never counted: the spec's allowance covers data and image routes).
 *
 * Each match has one book and one sending loop (see cadence.ts) that runs
 * while the match has subscribers, and, with `matchEventMs`, match events
 * of its own. A frame is encoded once per send and
 * written to every subscribed socket.
 *
 * Faults act on live sockets (dropped, silent, malformed frame) and on the
 * books (suspend, reopen, close, open, price, match event): see control.ts
 * in this folder for the routes.
 *
 * A book whose match ID names a simulated match (`follow`,
 * sandbox/live/simulation.ts) is priced from that match: before every
 * frame it catches up with the score and the clock, and a goal or a change
 * of period is a match event (a frame about `eventDelayMs` later).
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  encodeServerMessage,
  matchIdOfChannel,
  ODDS_SOCKET_KEY_HEADER,
  ODDS_SOCKET_PATH,
  oddsChannel,
  parseClientMessage,
} from '../../src/upstream/routes/odds-socket.js';
import { upstreamAssumptions } from '../../src/upstream/assumptions.js';
import { ODDS_MATCH_ID, OddsBook } from '../fixtures/odds.js';
import { Random } from '../fixtures/random.js';
import type { MatchSimulation } from '../live/simulation.js';
import { cadences, type CadenceTiming, type OddsCadence } from './cadence.js';

export interface OddsSocketOptions {
  readonly apiKey: string;
  /** Book seed: the same seed gives the same opening prices. @default 1 */
  readonly seed?: number;
  /** @default 'spec' */
  readonly cadence?: OddsCadence;
  /** @default Date.now */
  readonly clock?: () => number;
  /**
   * Match events on their own, as a live match has them: every match with
   * a subscriber gets one every `matchEventMs` on average (half to one and a
   * half times it), and its frame about `eventDelayMs` later. Off (0) in
   * tests, which make every change they see (see cadence.ts); on for
   * `npm start`, where the spec's cadence alone would show a frame every
   * 24 to 149 s and the odds would look dead.
   * @default 0 (off)
   */
  readonly matchEventMs?: number;
}

export interface OddsSocketStats {
  /** Open sockets. */
  connections: number;
  /** Sockets subscribed, per channel (channels with none are left out). */
  subscriptions: Record<string, number>;
  /** Subscribe messages received since the last reset, in total and per channel. */
  subscribes: number;
  subscribesByChannel: Record<string, number>;
  unsubscribes: number;
  /** Frames sent (every socket counts). */
  framesSent: number;
  /** Upgrades refused (bad key, wrong path, refusal window). */
  refusedUpgrades: number;
}

interface Client {
  readonly socket: WebSocket;
  readonly channels: Set<string>;
  /** Fault: the socket stays open but the sandbox sends it nothing more. */
  silent: boolean;
}

interface MatchLoop {
  readonly book: OddsBook;
  readonly clients: Set<Client>;
  sentVersion: number;
  lastSentAt: number;
  quietMs: number;
  timer: NodeJS.Timeout | undefined;
  /** The next match event of its own (`matchEventMs`), while it has subscribers. */
  eventTimer: NodeJS.Timeout | undefined;
}

export class OddsSocketServer {
  readonly timing: CadenceTiming;
  readonly #wss = new WebSocketServer({ noServer: true });
  readonly #apiKey: string;
  readonly #seed: number;
  readonly #clock: () => number;
  readonly #jitter: Random;
  readonly #matchEventMs: number;
  readonly #clients = new Set<Client>();
  readonly #matches = new Map<string, MatchLoop>();
  readonly #timers = new Set<NodeJS.Timeout>();
  #refuseUntil = 0;
  #simulation: MatchSimulation | undefined;
  #counts = { subscribes: 0, unsubscribes: 0, framesSent: 0, refusedUpgrades: 0, byChannel: new Map<string, number>() };

  constructor(options: OddsSocketOptions) {
    this.#apiKey = options.apiKey;
    this.#seed = options.seed ?? 1;
    this.#clock = options.clock ?? Date.now;
    this.timing = cadences[options.cadence ?? 'spec'];
    this.#jitter = new Random(this.#seed + 7);
    this.#matchEventMs = options.matchEventMs ?? 0;
    if (!Number.isFinite(this.#matchEventMs) || this.#matchEventMs < 0)
      throw new TypeError('OddsSocketServer: matchEventMs must be a non-negative number');
  }

  /** Hooks the upgrade handler onto `server`. */
  attach(server: Server): this {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.#upgrade(req, socket, head));
    return this;
  }

  stats(): OddsSocketStats {
    const subscriptions: Record<string, number> = {};
    for (const client of this.#clients) {
      for (const channel of client.channels) subscriptions[channel] = (subscriptions[channel] ?? 0) + 1;
    }
    return {
      connections: this.#clients.size,
      subscriptions,
      subscribes: this.#counts.subscribes,
      subscribesByChannel: Object.fromEntries(this.#counts.byChannel),
      unsubscribes: this.#counts.unsubscribes,
      framesSent: this.#counts.framesSent,
      refusedUpgrades: this.#counts.refusedUpgrades,
    };
  }

  resetStats(): void {
    this.#counts = { subscribes: 0, unsubscribes: 0, framesSent: 0, refusedUpgrades: 0, byChannel: new Map() };
  }

  /** The book for a match, made on first use, caught up with its match. */
  book(matchId: string): OddsBook {
    const loop = this.#loop(matchId);
    this.#catchUp(loop);
    return loop.book;
  }

  /**
   * Prices the books of simulated matches from the simulation, and makes
   * each of its changes (goal, period) a match event of those books.
   */
  follow(simulation: MatchSimulation): this {
    this.#simulation = simulation;
    simulation.onChange((match) => {
      for (const id of match.ids) {
        const loop = this.#matches.get(id);
        if (loop === undefined) continue;
        this.#catchUp(loop);
        this.#later(this.timing.eventDelayMs, () => this.#broadcast(loop));
      }
    });
    return this;
  }

  /** A change made to a book by a control route, shown like a match event: a frame about `eventDelayMs` later. */
  announce(matchId: string): void {
    const loop = this.#loop(matchId);
    this.#later(this.timing.eventDelayMs, () => this.#broadcast(loop));
  }

  /** Fault: destroys the sockets (of one match, or all) and refuses upgrades for `refuseMs`. */
  drop(matchId: string | undefined, refuseMs = 0): number {
    this.#refuseUntil = Math.max(this.#refuseUntil, this.#clock() + refuseMs);
    const targets = this.#targets(matchId);
    for (const client of targets) client.socket.terminate();
    return targets.length;
  }

  /** Fault: the sockets stay open and receive nothing more. */
  silence(matchId: string | undefined): number {
    const targets = this.#targets(matchId);
    for (const client of targets) client.silent = true;
    return targets.length;
  }

  /** Fault: one unreadable frame to each socket. */
  malformed(matchId: string | undefined): number {
    const targets = this.#targets(matchId);
    for (const client of targets) {
      const channel = matchId === undefined ? ([...client.channels][0] ?? 'match:0:odds') : oddsChannel(matchId);
      client.socket.send(`{"type":"snapshot","channel":${JSON.stringify(channel)},"data":{"markets":[{"id":`);
    }
    return targets.length;
  }

  /** A match event: prices shift, and a frame follows about `eventDelayMs` later (spec 6.4). */
  matchEvent(matchId: string): void {
    const loop = this.#loop(matchId);
    loop.book.matchEvent();
    this.#later(this.timing.eventDelayMs, () => this.#broadcast(loop));
  }

  close(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    for (const loop of this.#matches.values()) {
      clearTimeout(loop.timer);
      clearTimeout(loop.eventTimer);
    }
    for (const client of this.#clients) client.socket.terminate();
    this.#wss.close();
  }

  #targets(matchId: string | undefined): Client[] {
    const channel = matchId === undefined ? undefined : oddsChannel(matchId);
    return [...this.#clients].filter((client) => channel === undefined || client.channels.has(channel));
  }

  #upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const pathname = new URL(req.url ?? '/', 'http://sandbox').pathname;
    const key = req.headers[ODDS_SOCKET_KEY_HEADER];
    const refuse = (status: number, message: string): void => {
      this.#counts.refusedUpgrades += 1;
      const body = JSON.stringify({ error: message });
      socket.end(
        `HTTP/1.1 ${status} ${status === 503 ? 'Service Unavailable' : 'Refused'}\r\n` +
          `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    };
    if (pathname !== ODDS_SOCKET_PATH) {
      refuse(404, 'Route not found');
      return;
    }
    if (key === undefined || key === '') {
      refuse(upstreamAssumptions.missingKeyStatus, 'Missing API key');
      return;
    }
    if (key !== this.#apiKey) {
      refuse(upstreamAssumptions.invalidKeyStatus, 'Invalid API key');
      return;
    }
    if (this.#clock() < this.#refuseUntil) {
      refuse(503, 'Odds socket temporarily unavailable');
      return;
    }
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#connected(ws));
  }

  #connected(socket: WebSocket): void {
    const client: Client = { socket, channels: new Set(), silent: false };
    this.#clients.add(client);
    socket.on('message', (data, isBinary) => {
      const message = isBinary ? undefined : parseClientMessage(String(data));
      if (message === undefined) {
        this.#send(client, encodeServerMessage({ type: 'error', message: 'Unreadable message' }));
        return;
      }
      const matchId = matchIdOfChannel(message.channel);
      if (matchId === undefined || !ODDS_MATCH_ID.test(matchId)) {
        this.#send(
          client,
          encodeServerMessage({ type: 'error', message: 'Unknown channel', channel: message.channel }),
        );
        return;
      }
      if (message.type === 'subscribe') this.#subscribe(client, matchId, message.channel);
      else this.#unsubscribe(client, matchId, message.channel);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.#clients.delete(client);
      for (const channel of client.channels) {
        const matchId = matchIdOfChannel(channel);
        if (matchId !== undefined) this.#loop(matchId).clients.delete(client);
      }
      client.channels.clear();
    });
  }

  #subscribe(client: Client, matchId: string, channel: string): void {
    this.#counts.subscribes += 1;
    this.#counts.byChannel.set(channel, (this.#counts.byChannel.get(channel) ?? 0) + 1);
    client.channels.add(channel);
    const loop = this.#loop(matchId);
    loop.clients.add(client);
    this.#catchUp(loop);
    // Spec 6.3: an immediate snapshot, to this subscriber only.
    this.#send(client, this.#encodeFrame(loop));
    this.#schedule(loop);
    this.#scheduleMatchEvent(loop);
  }

  #unsubscribe(client: Client, matchId: string, channel: string): void {
    this.#counts.unsubscribes += 1;
    client.channels.delete(channel);
    this.#loop(matchId).clients.delete(client);
  }

  #loop(matchId: string): MatchLoop {
    let loop = this.#matches.get(matchId);
    if (loop === undefined) {
      const book = new OddsBook(matchId, this.#seed);
      loop = {
        book,
        clients: new Set(),
        sentVersion: book.version,
        lastSentAt: this.#clock(),
        quietMs: this.#quietMs(),
        timer: undefined,
        eventTimer: undefined,
      };
      this.#matches.set(matchId, loop);
    }
    return loop;
  }

  /** The change-gated refresh loop of one match, running while it has subscribers. */
  #schedule(loop: MatchLoop): void {
    if (loop.timer !== undefined) return;
    const { refreshMinMs, refreshMaxMs, driftProbability } = this.timing;
    loop.timer = setTimeout(
      () => {
        loop.timer = undefined;
        if (loop.clients.size === 0) return;
        this.#catchUp(loop);
        loop.book.drift(driftProbability);
        const quietFor = this.#clock() - loop.lastSentAt;
        if (loop.book.version !== loop.sentVersion || quietFor >= loop.quietMs) this.#broadcast(loop);
        this.#schedule(loop);
      },
      this.#jitter.int(refreshMinMs, refreshMaxMs),
    );
    loop.timer.unref();
  }

  /** Match events of its own while the match has subscribers (`matchEventMs`; off when 0). */
  #scheduleMatchEvent(loop: MatchLoop): void {
    if (this.#matchEventMs === 0 || loop.eventTimer !== undefined) return;
    const half = Math.max(1, Math.round(this.#matchEventMs / 2));
    loop.eventTimer = setTimeout(
      () => {
        loop.eventTimer = undefined;
        if (loop.clients.size === 0) return;
        this.matchEvent(loop.book.matchId);
        this.#scheduleMatchEvent(loop);
      },
      this.#jitter.int(half, this.#matchEventMs + half),
    );
    loop.eventTimer.unref();
  }

  /** A book of a simulated match: repriced from the match as it stands now (a no-op when it has not moved). */
  #catchUp(loop: MatchLoop): void {
    const simulation = this.#simulation;
    const match = simulation?.simulated(loop.book.matchId);
    if (simulation !== undefined && match !== undefined) loop.book.follow(simulation.view(match), match.live.rates);
  }

  #broadcast(loop: MatchLoop): void {
    const message = this.#encodeFrame(loop);
    loop.sentVersion = loop.book.version;
    loop.lastSentAt = this.#clock();
    loop.quietMs = this.#quietMs();
    for (const client of loop.clients) this.#send(client, message);
  }

  #encodeFrame(loop: MatchLoop): string {
    const channel = oddsChannel(loop.book.matchId);
    return encodeServerMessage({ type: 'snapshot', channel, data: loop.book.frame(this.#clock()) });
  }

  #send(client: Client, message: string): void {
    if (client.silent || client.socket.readyState !== client.socket.OPEN) return;
    this.#counts.framesSent += 1;
    client.socket.send(message);
  }

  #quietMs(): number {
    return this.#jitter.int(this.timing.quietMinMs, this.timing.quietMaxMs);
  }

  #later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    this.#timers.add(timer);
  }
}
