/**
 * The match simulation and its prices, on a manual clock: the same seed
 * plays the same match; the odds model keeps a bookmaker's margin in every
 * state and a goal shortens the scorer's price.
 */
import { describe, expect, it } from 'vitest';
import { LiveMatch, ScriptError, type MatchView } from './live-match.js';
import { evenMargin, fairMarket, MARKET_TEMPLATES, overround, pricesFor } from './odds-model.js';

const rates = { home: 1.5, away: 1.1 };

function play(seed: number): string[] {
  const match = new LiveMatch({
    seed,
    start: { phase: 'first-half', minute: 10, home: 0, away: 0 },
    at: 0,
    minuteMs: 1_000,
    rates,
  });
  const seen: string[] = [];
  for (let now = 0; now <= 100_000; now += 500) {
    for (const change of match.advance(now))
      seen.push(
        change.kind === 'goal'
          ? `${change.at} goal ${change.goal.side} ${change.goal.minute}'`
          : `${change.at} ${change.phase}`,
      );
  }
  return seen;
}

const view = (minute: number, home: number, away: number): MatchView => ({
  phase: minute < 45 ? 'first-half' : 'second-half',
  minute,
  played: minute,
  home,
  away,
  goals: [],
});

describe('LiveMatch', () => {
  it('plays the same match from the same seed, whatever the reading times, through half-time to full time', () => {
    expect(play(7)).toEqual(play(7));
    expect(play(7)).not.toEqual(play(8));
    const phases = play(7).filter((line) => !line.includes('goal'));
    // 35 minutes to half-time, 5 of break, 45 to full time, at a second a minute.
    expect(phases).toEqual(['35000 half-time', '40000 second-half', '85000 finished']);
    // Read once at the end, the match is the same as read every half second.
    const once = new LiveMatch({
      seed: 7,
      start: { phase: 'first-half', minute: 10, home: 0, away: 0 },
      at: 0,
      minuteMs: 1_000,
      rates,
    });
    expect(once.advance(100_000).length).toBe(play(7).length);
  });

  it('stands still at minuteMs 0, and scripted events still apply', () => {
    const match = new LiveMatch({
      seed: 1,
      start: { phase: 'second-half', minute: 60, home: 1, away: 0 },
      at: 0,
      rates,
    });
    expect(match.advance(10 ** 9)).toEqual([]);
    expect(match.nextChangeAt()).toBeUndefined();
    match.goal('away', 5);
    expect(match.view(6)).toMatchObject({ phase: 'second-half', minute: 60, home: 1, away: 1 });
    match.nextPeriod(7);
    expect(match.view(8)).toMatchObject({ phase: 'finished', minute: 90 });
    expect(() => match.goal('home', 9)).toThrow(ScriptError);
  });
});

describe('odds model', () => {
  it("every market of every state carries a margin of 3 to 8 %, and a goal shortens the scorer's match-result price", () => {
    let checked = 0;
    for (let minute = 0; minute < 90; minute += 6) {
      for (let home = 0; home <= 3; home++) {
        for (let away = 0; away <= 3; away++) {
          for (const template of MARKET_TEMPLATES) {
            const fair = fairMarket(template.id, view(minute, home, away), rates);
            if (fair === undefined || fair === 'settled') continue;
            const total = overround(pricesFor(fair));
            expect(total, `${template.id} at ${minute}' ${home}-${away}`).toBeGreaterThanOrEqual(1.03);
            expect(total, `${template.id} at ${minute}' ${home}-${away}`).toBeLessThanOrEqual(1.08);
          }
          const fair = (h: number, a: number): number[] =>
            fairMarket('match-result', view(minute, h, a), rates) as number[];
          const [homeBefore, , awayBefore] = pricesFor(fair(home, away));
          // Wherever no outcome is near-certain before or after the goal (then the favourite sits at the shortest price).
          if (!evenMargin(fair(home, away))) continue;
          if (evenMargin(fair(home + 1, away))) {
            expect(pricesFor(fair(home + 1, away))[0]!).toBeLessThan(homeBefore!);
            checked += 1;
          }
          if (evenMargin(fair(home, away + 1))) {
            expect(pricesFor(fair(home, away + 1))[2]!).toBeLessThan(awayBefore!);
            checked += 1;
          }
        }
      }
    }
    // Most states: 15 minutes x 16 scores x 2 sides.
    expect(checked).toBeGreaterThan(300);
  });

  it('settles the markets a score decides, and every market at full time', () => {
    expect(fairMarket('total-goals-2.5', view(50, 2, 1), rates)).toBe('settled');
    expect(fairMarket('both-teams-score', view(50, 1, 1), rates)).toBe('settled');
    expect(fairMarket('match-result', { ...view(90, 1, 0), phase: 'finished' }, rates)).toBe('settled');
    expect(fairMarket('something-else', view(50, 0, 0), rates)).toBeUndefined();
  });
});
