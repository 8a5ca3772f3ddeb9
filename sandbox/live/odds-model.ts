/**
 * In-play prices from the state of a match, as one bookmaker would set them:
 * fair probabilities from a Poisson model of the goals still to come (each
 * side at its own rate over the time left), then a margin, so that each
 * market's implied probabilities (the sum of 1 / price) come to about
 * `MARGIN` (105 %), as a real book's do.
 *
 * A market whose outcome is already decided (three goals for Over 2.5, both
 * sides scored, full time) is `settled`: the book closes it (spec 3: removed
 * from `markets[]`).
 */
import type { MatchView, ScoringRates } from './live-match.js';

/** Sum of implied probabilities of every market: 1 + the bookmaker's margin. */
export const MARGIN = 1.05;

const MIN_PROBABILITY = 1e-9;
/** The shortest price the book quotes. */
const SHORTEST_PRICE = 1.02;
const MAX_GOALS = 12;

export type FairMarket = readonly number[] | 'settled';

/** The market templates the sandbox book offers, with their outcomes in order. */
export const MARKET_TEMPLATES: ReadonlyArray<{
  readonly id: string;
  readonly name: string;
  readonly outcomes: readonly string[];
}> = [
  { id: 'match-result', name: 'Match result', outcomes: ['Home', 'Draw', 'Away'] },
  { id: 'total-goals-2.5', name: 'Total goals 2.5', outcomes: ['Over', 'Under'] },
  { id: 'both-teams-score', name: 'Both teams to score', outcomes: ['Yes', 'No'] },
  { id: 'next-goal', name: 'Next goal', outcomes: ['Home', 'No goal', 'Away'] },
];

/** Fair probabilities of a template market for the match as it stands, or `settled`; undefined for a market the model does not know. */
export function fairMarket(id: string, view: MatchView, rates: ScoringRates): FairMarket | undefined {
  if (view.phase === 'finished') return 'settled';
  const left = view.phase === 'scheduled' ? 1 : Math.max(0, 90 - (view.phase === 'half-time' ? 45 : view.played)) / 90;
  const mu = { home: rates.home * left, away: rates.away * left };
  switch (id) {
    case 'match-result': {
      const home = poisson(mu.home);
      const away = poisson(mu.away);
      let win = 0;
      let draw = 0;
      for (const [i, ph] of home.entries()) {
        for (const [j, pa] of away.entries()) {
          const diff = view.home + i - (view.away + j);
          if (diff > 0) win += ph * pa;
          else if (diff === 0) draw += ph * pa;
        }
      }
      return [win, draw, Math.max(0, 1 - win - draw)];
    }
    case 'total-goals-2.5': {
      const need = 3 - view.home - view.away;
      if (need <= 0) return 'settled';
      const under = poisson(mu.home + mu.away)
        .slice(0, need)
        .reduce((sum, p) => sum + p, 0);
      return [1 - under, under];
    }
    case 'both-teams-score': {
      if (view.home > 0 && view.away > 0) return 'settled';
      const yes = (view.home > 0 ? 1 : 1 - Math.exp(-mu.home)) * (view.away > 0 ? 1 : 1 - Math.exp(-mu.away));
      return [yes, 1 - yes];
    }
    case 'next-goal': {
      const total = mu.home + mu.away;
      const none = Math.exp(-total);
      return total === 0 ? [0, 1, 0] : [((1 - none) * mu.home) / total, none, ((1 - none) * mu.away) / total];
    }
    default:
      return undefined;
  }
}

/**
 * Decimal prices for fair probabilities. The margin is added evenly: each
 * implied probability is `p + (MARGIN - 1) / n`, so an outcome that grows
 * likelier always gets a shorter price, and the long shots carry the most
 * margin, as real books do. A near-certain outcome would then imply 100 % or
 * more: its price stops at `SHORTEST_PRICE` and the others share the rest of
 * the margin in proportion (there, order between the long shots may not
 * follow the goals). Rounded to the cent.
 */
export function pricesFor(fair: readonly number[]): number[] {
  const p = normalise(fair);
  const extra = (MARGIN - 1) / p.length;
  const implied = p.map((pi) => pi + extra);
  const top = Math.max(...implied);
  const cap = 1 / SHORTEST_PRICE;
  if (top > cap) {
    const others = implied.reduce((sum, q) => sum + q, 0) - top;
    const share = (MARGIN - cap) / others;
    const favourite = implied.indexOf(top);
    for (const [i, q] of implied.entries()) implied[i] = i === favourite ? cap : q * share;
  }
  return implied.map((q) => round2(1 / q));
}

/** Whether `pricesFor` adds the margin evenly (no outcome near-certain): then prices follow the probabilities' order exactly. */
export function evenMargin(fair: readonly number[]): boolean {
  const p = normalise(fair);
  return Math.max(...p) + (MARGIN - 1) / p.length <= 1 / SHORTEST_PRICE;
}

/** Probabilities summing to 1; a zero or unreadable one counts as very unlikely, not impossible. */
export function normalise(values: readonly number[]): number[] {
  const positive = values.map((v) => (Number.isFinite(v) && v > MIN_PROBABILITY ? v : MIN_PROBABILITY));
  const total = positive.reduce((sum, v) => sum + v, 0);
  return positive.map((v) => v / total);
}

/** The book's implied probability of a market: the sum of 1 / price. */
export function overround(prices: readonly number[]): number {
  return prices.reduce((sum, price) => sum + 1 / price, 0);
}

/** P(X = k) for k = 0..MAX_GOALS; the tail goes to the last entry. */
function poisson(mean: number): number[] {
  const out: number[] = [];
  let p = Math.exp(-mean);
  let sum = 0;
  for (let k = 0; k < MAX_GOALS; k++) {
    out.push(p);
    sum += p;
    p = (p * mean) / (k + 1);
  }
  out.push(Math.max(0, 1 - sum));
  return out;
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
