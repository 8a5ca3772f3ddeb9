/**
 * One live football match as the sandbox plays it: a seeded timeline of
 * goals and the clock of two halves, read at any instant of an injected
 * clock. Nothing runs on its own here: `advance(now)` applies, in order,
 * every change due by `now`, so a request served at `now` and an odds frame
 * stamped `now` see the same match whatever the order they ask in.
 *
 * The match clock runs at `minuteMs` real milliseconds per minute of play
 * (0: it stands still, and only scripted events move the match). Half-time
 * lasts `breakMinutes` of that pace. No stoppage time: a half ends at 45:00
 * and 90:00 exactly.
 *
 * A scripted event (`script`) applies at `now`: goal, period (the next
 * phase), end. A scripted jump in time (period, end) drops the planned goals
 * it skips, so the timeline never scores in a half that is over.
 */
import { Random } from '../fixtures/random.js';

export type Phase = 'scheduled' | 'first-half' | 'half-time' | 'second-half' | 'finished';
export type Side = 'home' | 'away';

export interface Goal {
  readonly side: Side;
  /** Minute of play shown for it, as the clock showed it (at least 1). */
  readonly minute: number;
  readonly scripted: boolean;
}

/** What a change was, for whoever reacts to it (the odds book, the V1 events list). */
export type MatchChange =
  | { readonly kind: 'goal'; readonly goal: Goal; readonly at: number }
  | { readonly kind: 'phase'; readonly phase: Phase; readonly minute: number; readonly at: number };

export interface MatchView {
  readonly phase: Phase;
  /** Minute of play now (floor of the match time), 0 before kick-off, 90 once finished. */
  readonly minute: number;
  /** Match time played, in minutes (fractional), for pricing. */
  readonly played: number;
  readonly home: number;
  readonly away: number;
  readonly goals: readonly Goal[];
}

/** Goals per 90 minutes each side scores at, on average: what the timeline and the odds both use. */
export interface ScoringRates {
  readonly home: number;
  readonly away: number;
}

export interface LiveMatchStart {
  readonly phase: Phase;
  /** Minute of play reached (within the phase). */
  readonly minute: number;
  readonly home: number;
  readonly away: number;
}

export interface LiveMatchOptions {
  /** Seeds the timeline: the same seed, start and pace give the same match. */
  readonly seed: number;
  readonly start: LiveMatchStart;
  /** When the match stood at `start`, epoch ms on the injected clock. */
  readonly at: number;
  /** Real ms per minute of play; 0 stands the clock still. @default 0 */
  readonly minuteMs?: number;
  /** Half-time, in minutes of the same pace. @default 5 */
  readonly breakMinutes?: number;
  /** A scheduled match kicks off on its own at this wall time (while the clock runs). @default never */
  readonly kickOffAt?: number;
  readonly rates: ScoringRates;
}

const MINUTE = 60_000;
const HALF = 45 * MINUTE;
const FULL = 90 * MINUTE;

interface PlannedGoal {
  readonly side: Side;
  /** Match time, ms. */
  readonly at: number;
}

/** An event the match cannot have now (a goal at half-time, anything after full time): the control answers 409. */
export class ScriptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptError';
  }
}

export class LiveMatch {
  readonly rates: ScoringRates;
  readonly #minuteMs: number;
  readonly #breakMs: number;
  readonly #kickOffAt: number | undefined;
  #phase: Phase;
  /** Match time (ms) and wall time (ms) of the last change: the clock runs on from here. */
  #anchorMatch: number;
  #anchorWall: number;
  #home: number;
  #away: number;
  readonly #goals: Goal[] = [];
  #plan: PlannedGoal[];
  /** Bumped by every change, so a reader can tell whether it has seen this state. */
  version = 0;

  constructor(options: LiveMatchOptions) {
    const { start, at, rates } = options;
    this.rates = rates;
    this.#minuteMs = options.minuteMs ?? 0;
    if (!Number.isFinite(this.#minuteMs) || this.#minuteMs < 0)
      throw new TypeError('LiveMatch: minuteMs must be a non-negative number');
    this.#breakMs = (options.breakMinutes ?? 5) * this.#minuteMs;
    this.#kickOffAt = options.kickOffAt;
    this.#phase = start.phase;
    this.#anchorMatch = start.phase === 'finished' ? FULL : start.phase === 'half-time' ? HALF : start.minute * MINUTE;
    this.#anchorWall = at;
    this.#home = start.home;
    this.#away = start.away;
    this.#plan = planGoals(new Random(options.seed), this.#anchorMatch, rates);
  }

  /** Applies every change due by `now`, oldest first, and returns them. */
  advance(now: number): MatchChange[] {
    const changes: MatchChange[] = [];
    for (;;) {
      const due = this.#nextDue();
      if (due === undefined || due.wall > now) break;
      changes.push(...due.apply());
    }
    return changes;
  }

  /** Wall time of the next change on its own, or undefined when none will come (clock stopped, match over). */
  nextChangeAt(): number | undefined {
    return this.#nextDue()?.wall;
  }

  view(now: number): MatchView {
    this.advance(now);
    const played = this.#matchTime(now) / MINUTE;
    return {
      phase: this.#phase,
      minute: this.#phase === 'scheduled' ? 0 : Math.min(90, Math.floor(played)),
      played,
      home: this.#home,
      away: this.#away,
      goals: [...this.#goals],
    };
  }

  /** A scripted goal, now. */
  goal(side: Side, now: number): MatchChange[] {
    const changes = this.advance(now);
    if (this.#phase !== 'first-half' && this.#phase !== 'second-half')
      throw new ScriptError(`No goal while the match is ${this.#phase}`);
    this.#reanchor(this.#matchTime(now), now);
    changes.push(this.#score(side, true, now));
    return changes;
  }

  /** Scripted: the next phase now (kick-off, half-time, second half, full time). */
  nextPeriod(now: number): MatchChange[] {
    const changes = this.advance(now);
    switch (this.#phase) {
      case 'scheduled':
        changes.push(this.#enter('first-half', 0, now));
        break;
      case 'first-half':
        changes.push(this.#enter('half-time', HALF, now));
        break;
      case 'half-time':
        changes.push(this.#enter('second-half', HALF, now));
        break;
      case 'second-half':
        changes.push(this.#enter('finished', FULL, now));
        break;
      case 'finished':
        throw new ScriptError('The match is finished');
    }
    return changes;
  }

  /** Scripted: full time now, whatever the phase. */
  end(now: number): MatchChange[] {
    const changes = this.advance(now);
    if (this.#phase === 'finished') throw new ScriptError('The match is finished');
    changes.push(this.#enter('finished', Math.max(FULL, this.#matchTime(now)), now));
    return changes;
  }

  #running(): boolean {
    return this.#minuteMs > 0 && (this.#phase === 'first-half' || this.#phase === 'second-half');
  }

  #matchTime(now: number): number {
    if (!this.#running()) return this.#anchorMatch;
    return this.#anchorMatch + ((now - this.#anchorWall) * MINUTE) / this.#minuteMs;
  }

  #wallAt(matchTime: number): number {
    return this.#anchorWall + ((matchTime - this.#anchorMatch) * this.#minuteMs) / MINUTE;
  }

  #nextDue(): { wall: number; apply: () => MatchChange[] } | undefined {
    if (this.#minuteMs === 0) return undefined;
    if (this.#phase === 'scheduled') {
      const wall = this.#kickOffAt;
      return wall === undefined ? undefined : { wall, apply: () => [this.#enter('first-half', 0, wall)] };
    }
    if (this.#phase === 'half-time') {
      const wall = this.#anchorWall + this.#breakMs;
      return { wall, apply: () => [this.#enter('second-half', HALF, wall)] };
    }
    if (!this.#running()) return undefined;
    const end = this.#phase === 'first-half' ? HALF : FULL;
    const goal = this.#plan[0];
    if (goal !== undefined && goal.at < end) {
      const wall = this.#wallAt(goal.at);
      return {
        wall,
        apply: () => {
          this.#plan.shift();
          this.#reanchor(goal.at, wall);
          return [this.#score(goal.side, false, wall)];
        },
      };
    }
    const wall = this.#wallAt(end);
    return { wall, apply: () => [this.#enter(this.#phase === 'first-half' ? 'half-time' : 'finished', end, wall)] };
  }

  #reanchor(matchTime: number, wall: number): void {
    this.#anchorMatch = matchTime;
    this.#anchorWall = wall;
    // Planned goals in time already played (a scripted jump) never happen.
    this.#plan = this.#plan.filter((goal) => goal.at > matchTime);
  }

  #enter(phase: Phase, matchTime: number, wall: number): MatchChange {
    this.#phase = phase;
    this.#reanchor(matchTime, wall);
    this.version += 1;
    return { kind: 'phase', phase, minute: Math.floor(matchTime / MINUTE), at: wall };
  }

  #score(side: Side, scripted: boolean, wall: number): MatchChange {
    if (side === 'home') this.#home += 1;
    else this.#away += 1;
    const goal: Goal = { side, minute: Math.min(90, Math.max(1, Math.floor(this.#anchorMatch / MINUTE))), scripted };
    this.#goals.push(goal);
    this.version += 1;
    return { kind: 'goal', goal, at: wall };
  }
}

/** Goals as a Poisson process from `from` to full time, each side at its rate per 90 minutes. */
function planGoals(random: Random, from: number, rates: ScoringRates): PlannedGoal[] {
  const plan: PlannedGoal[] = [];
  for (const side of ['home', 'away'] as const) {
    const perMs = rates[side] / FULL;
    let at = from;
    for (;;) {
      at += -Math.log(1 - random.next()) / perMs;
      if (at >= FULL) break;
      plan.push({ side, at });
    }
  }
  return plan.sort((a, b) => a.at - b.at);
}
