/**
 * The sandbox's live World Cup: one `LiveMatch` per game in progress (and
 * per scheduled game a control route kicks off), read by every REST route
 * and by the odds socket, so that both tell the same story.
 *
 * The fixtures stay the one source the routes read: `advance(now)` writes
 * each simulated match's state, minute, score, goal events and commentary
 * into its `WorldCupMatch`, and the request pipeline calls it before every
 * upstream answer (sandbox/pipeline.ts). With the clock standing still
 * (`minuteMs` 0, the default for tests) nothing moves unless a control route
 * scripts it, so the frozen fixtures the tests expect are what they get.
 *
 * A match is known by its V1 game ID and its V2 event ID alike; both name
 * the same odds (`match:{id}:odds`).
 *
 * While the clock runs, one timer wakes at the next change any match has on
 * its own (a goal, half-time, full time) so that listeners (the odds socket:
 * a frame about 300 ms after a match event, spec 6.4) hear of it when it
 * happens, not at the next request. And the tournament goes on: when a game
 * ends, the next scheduled group game kicks off `KICK_OFF_AFTER_MINUTES`
 * later, so `npm start` always has games in progress.
 */
import { Random } from '../fixtures/random.js';
import type { WorldCupFixtures, WorldCupMatch } from '../fixtures/world-cup.js';
import { LiveMatch, ScriptError, type MatchChange, type MatchView, type Phase, type Side } from './live-match.js';

export interface SimulationOptions {
  readonly worldCup: WorldCupFixtures;
  readonly seed: number;
  /** @default Date.now */
  readonly clock?: () => number;
  /** Real ms per minute of play; 0 stands every clock still. @default 0 */
  readonly minuteMs?: number;
}

export interface SimulatedMatch {
  readonly fixture: WorldCupMatch;
  readonly live: LiveMatch;
  /** The IDs that name it: V1 game ID, V2 event ID. */
  readonly ids: readonly string[];
}

export type ScriptedEvent =
  | { readonly type: 'goal'; readonly team: Side }
  | { readonly type: 'period' }
  | { readonly type: 'end' };

export type ChangeListener = (match: SimulatedMatch, changes: readonly MatchChange[]) => void;

/** Minutes of the match pace between one game's full time and the next game's kick-off. */
const KICK_OFF_AFTER_MINUTES = 2;

/** The longest a timer can wait (setTimeout's limit). */
const MAX_TIMER_MS = 2_147_483_647;

export class MatchSimulation {
  readonly minuteMs: number;
  readonly #worldCup: WorldCupFixtures;
  readonly #seed: number;
  readonly #clock: () => number;
  readonly #matches = new Map<string, SimulatedMatch>();
  readonly #listeners = new Set<ChangeListener>();
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: SimulationOptions) {
    this.#worldCup = options.worldCup;
    this.#seed = options.seed;
    this.#clock = options.clock ?? Date.now;
    this.minuteMs = options.minuteMs ?? 0;
    if (!Number.isFinite(this.minuteMs) || this.minuteMs < 0)
      throw new TypeError('MatchSimulation: minuteMs must be a non-negative number');
    for (const fixture of this.#worldCup.matches) {
      if (fixture.state === 'live') this.#simulate(fixture);
    }
    this.#arm();
  }

  /** Every simulated match, once each. */
  matches(): SimulatedMatch[] {
    return [...new Set(this.#matches.values())];
  }

  /** The match an ID names (V1 game or V2 event), simulated or not yet; undefined when it names no World Cup game with both teams. */
  find(id: string): SimulatedMatch | undefined {
    const known = this.#matches.get(id);
    if (known !== undefined) return known;
    if (!/^\d+$/.test(id)) return undefined;
    const fixture = this.#worldCup.matchByV1Id.get(Number(id)) ?? this.#worldCup.matchByV2Id.get(Number(id));
    if (
      fixture === undefined ||
      fixture.home === undefined ||
      fixture.away === undefined ||
      fixture.state === 'finished'
    )
      return undefined;
    return this.#simulate(fixture);
  }

  /** Only a match already simulated (the odds socket asks for every channel; that must not start matches). */
  simulated(id: string): SimulatedMatch | undefined {
    return this.#matches.get(id);
  }

  view(match: SimulatedMatch): MatchView {
    this.advance();
    return match.live.view(this.#clock());
  }

  /** Listens to every change, on its own or scripted; returns the way to stop. */
  onChange(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Brings every match, and its fixture, up to now. */
  advance(now: number = this.#clock()): void {
    let pending = this.matches();
    while (pending.length > 0) {
      const kickedOff: SimulatedMatch[] = [];
      for (const match of pending) {
        const changes = match.live.advance(now);
        this.#write(match, changes, now);
        if (changes.length > 0) this.#tell(match, changes);
        const end = changes.find((change) => change.kind === 'phase' && change.phase === 'finished');
        const next = end === undefined ? undefined : this.#next(end.at);
        if (next !== undefined) kickedOff.push(next);
      }
      pending = kickedOff;
    }
  }

  /** A scripted event, now. Throws `ScriptError` (409) when the match cannot have it. */
  script(match: SimulatedMatch, event: ScriptedEvent): MatchView {
    const now = this.#clock();
    this.advance(now);
    const changes =
      event.type === 'goal'
        ? match.live.goal(event.team, now)
        : event.type === 'period'
          ? match.live.nextPeriod(now)
          : match.live.end(now);
    this.#write(match, changes, now);
    this.#tell(match, changes);
    const end = changes.find((change) => change.kind === 'phase' && change.phase === 'finished');
    if (end !== undefined) this.#next(end.at);
    this.#arm();
    return match.live.view(now);
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#listeners.clear();
  }

  /** While the clock runs: the first scheduled group game not simulated yet, to kick off a little after `endedAt`. */
  #next(endedAt: number): SimulatedMatch | undefined {
    if (this.minuteMs === 0) return undefined;
    const fixture = this.#worldCup.matches.find(
      (m) =>
        m.state === 'scheduled' &&
        m.group !== undefined &&
        m.home !== undefined &&
        m.away !== undefined &&
        !this.#matches.has(String(m.v1Id)),
    );
    return fixture === undefined
      ? undefined
      : this.#simulate(fixture, endedAt + KICK_OFF_AFTER_MINUTES * this.minuteMs);
  }

  #simulate(fixture: WorldCupMatch, kickOffAt?: number): SimulatedMatch {
    const random = new Random(this.#seed ^ fixture.v1Id);
    const minute = fixture.minute ?? 0;
    const phase: Phase = fixture.state === 'scheduled' ? 'scheduled' : minute <= 45 ? 'first-half' : 'second-half';
    const live = new LiveMatch({
      seed: random.int(1, 2 ** 31),
      start: { phase, minute, home: fixture.homeScore ?? 0, away: fixture.awayScore ?? 0 },
      at: this.#clock(),
      minuteMs: this.minuteMs,
      ...(kickOffAt === undefined ? {} : { kickOffAt }),
      rates: { home: round2(random.float(1, 1.9)), away: round2(random.float(0.8, 1.6)) },
    });
    const match: SimulatedMatch = { fixture, live, ids: [String(fixture.v1Id), String(fixture.v2Id)] };
    for (const id of match.ids) this.#matches.set(id, match);
    return match;
  }

  /** The fixture as the match stands: what every REST route serves. */
  #write(match: SimulatedMatch, changes: readonly MatchChange[], now: number): void {
    const { fixture } = match;
    for (const change of changes) {
      if (change.kind === 'goal') {
        const team = change.goal.side === 'home' ? fixture.home : fixture.away;
        if (team === undefined) continue;
        const scorer = team.players[5 + ((fixture.v1Id + fixture.events.length * 7) % 6)];
        fixture.events.push({
          minute: change.goal.minute,
          type: 'goal',
          competitorId: team.v1Id,
          athleteId: scorer?.v1Id ?? 0,
          name: scorer?.name ?? '',
        });
        fixture.commentary.push({
          minute: change.goal.minute,
          text: `Goal! ${scorer?.name ?? team.name} scores for ${team.name}.`,
        });
      } else {
        const text = {
          scheduled: '',
          'first-half': `Kick-off: ${fixture.home?.name ?? fixture.homeSlot} against ${fixture.away?.name ?? fixture.awaySlot}.`,
          'half-time': 'Half time.',
          'second-half': 'The second half is under way.',
          finished: 'Full time.',
        }[change.phase];
        if (text !== '') fixture.commentary.push({ minute: change.minute, text });
      }
    }
    const view = match.live.view(now);
    fixture.homeScore = view.phase === 'scheduled' ? null : view.home;
    fixture.awayScore = view.phase === 'scheduled' ? null : view.away;
    if (view.phase === 'scheduled') return;
    if (view.phase === 'finished') {
      fixture.state = 'finished';
      delete fixture.minute;
      delete fixture.period;
    } else {
      fixture.state = 'live';
      fixture.minute = view.minute;
      fixture.period = view.phase;
    }
  }

  #tell(match: SimulatedMatch, changes: readonly MatchChange[]): void {
    for (const listener of this.#listeners) listener(match, changes);
  }

  /** One timer for the next change any match has on its own. */
  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#closed || this.minuteMs === 0) return;
    const next = Math.min(...this.matches().map((match) => match.live.nextChangeAt() ?? Infinity));
    if (!Number.isFinite(next)) return;
    this.#timer = setTimeout(
      () => {
        this.advance();
        this.#arm();
      },
      Math.min(MAX_TIMER_MS, Math.max(0, next - this.#clock())),
    );
    this.#timer.unref();
  }
}

export { ScriptError };

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
