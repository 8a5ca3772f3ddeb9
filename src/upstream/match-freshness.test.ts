import { describe, expect, it } from 'vitest';
import { defaultMatchStateTtls, IMMUTABLE_TTL_MS } from './cache-ttls.js';
import { MatchFreshness } from './match-freshness.js';
import type { MatchBinding, MatchPhase } from './routes/route.js';

const HOUR = 3600_000;
const T0 = Date.UTC(2026, 5, 20, 12);

interface Game {
  id: number;
  phase: MatchPhase;
  startsAt: number;
}
const detail: MatchBinding<{ id: number }, Game> = {
  match: (p) => `game ${p.id}`,
  sightings: (g) => [{ match: `game ${g.id}`, phase: g.phase, startsAt: g.startsAt }],
};
const list: MatchBinding<Record<string, never>, Game[]> = {
  sightings: (games) => games.map((g) => ({ match: `game ${g.id}`, phase: g.phase, startsAt: g.startsAt })),
};

describe('MatchFreshness', () => {
  it('gives a far match until its soon window opens, a soon one until kick-off, and an overdue one the postponed TTL', () => {
    const policy = new MatchFreshness(defaultMatchStateTtls);
    policy.bind('far', detail, { id: 1 });
    // Kick-off in 3 h 10 min: far, but its soon window opens in 10 minutes.
    const far = { id: 1, phase: 'scheduled' as const, startsAt: T0 + 3 * HOUR + 10 * 60_000 };
    expect(policy.storedTtlMs('far', far, T0, 1)).toBe(10 * 60_000);

    policy.bind('soon', detail, { id: 2 });
    const soon = { id: 2, phase: 'scheduled' as const, startsAt: T0 + 30_000 };
    expect(policy.storedTtlMs('soon', soon, T0, 1)).toBe(30_000);

    policy.bind('overdue', detail, { id: 3 });
    const overdue = { id: 3, phase: 'scheduled' as const, startsAt: T0 - 7 * HOUR };
    expect(policy.storedTtlMs('overdue', overdue, T0, 1)).toBe(defaultMatchStateTtls.postponed * 1000);
  });

  it('stores an ended match immutable and an unseen one with its class TTL', () => {
    const policy = new MatchFreshness(defaultMatchStateTtls);
    policy.bind('ended', detail, { id: 4 });
    expect(policy.storedTtlMs('ended', { id: 4, phase: 'ended', startsAt: T0 - 30 * 24 * HOUR }, T0, 1)).toBe(
      IMMUTABLE_TTL_MS,
    );
    policy.bind('lineups', { match: (p: { id: number }) => `game ${p.id}` }, { id: 5 });
    expect(policy.storedTtlMs('lineups', {}, T0, 30_000)).toBe(30_000);
  });

  it('re-classifies an answer fetched before its match changed phase, and a list holding it', () => {
    const policy = new MatchFreshness(defaultMatchStateTtls);
    const game = { id: 6, phase: 'scheduled' as const, startsAt: T0 + 10 * HOUR };
    policy.bind('detail', { match: detail.match! }, { id: 6 });
    policy.bind('list', list, {});
    policy.observe('list', [game], T0);
    const entry = { storedAt: T0, ttlMs: HOUR };
    expect(policy.ttlMs('detail', entry, T0 + 1_000)).toBe(HOUR);
    // A later list shows it in play: the detail fetched before is due at once.
    policy.bind('list2', list, {});
    policy.observe('list2', [{ ...game, phase: 'inPlay' }], T0 + 60_000);
    expect(policy.ttlMs('detail', entry, T0 + 61_000)).toBe(0);
    expect(policy.ttlMs('list', { storedAt: T0, ttlMs: HOUR, value: [game] }, T0 + 61_000)).toBe(0);
    // One fetched after the change lives for the in-play freshness.
    expect(policy.ttlMs('detail', { storedAt: T0 + 62_000, ttlMs: HOUR }, T0 + 63_000)).toBe(
      defaultMatchStateTtls.inPlay * 1000,
    );
    // An older payload read again does not move the state back.
    policy.observe('list', [game], T0);
    expect(policy.stateOf('game 6', T0 + 63_000)).toBe('inPlay');
  });
  it("tells what a payload taught it, and a state another replica heard re-classifies this one's answers", () => {
    const here = new MatchFreshness(defaultMatchStateTtls);
    const there = new MatchFreshness(defaultMatchStateTtls);
    const told: Array<{ matches: string[]; at: number }> = [];
    there.onLearnt((sightings, at) => told.push({ matches: sightings.map((s) => s.match), at }));
    const scheduled = { id: 1, phase: 'scheduled' as const, startsAt: T0 - 7 * HOUR };
    here.bind('detail', detail, { id: 1 });
    here.storedTtlMs('detail', scheduled, T0, 1);
    expect(here.notBefore('detail')).toBe(0);

    there.bind('list', list, {});
    there.storedTtlMs('list', [scheduled], T0, 1);
    there.storedTtlMs('list', [scheduled], T0 + 1_000, 1); // nothing new: not told again
    there.storedTtlMs('list', [{ ...scheduled, phase: 'inPlay' }], T0 + 60_000, 1);
    expect(told).toEqual([
      { matches: ['game 1'], at: T0 },
      { matches: ['game 1'], at: T0 + 60_000 },
    ]);

    here.heard([{ match: 'game 1', phase: 'inPlay', startsAt: scheduled.startsAt }], T0 + 60_000);
    expect(here.notBefore('detail')).toBe(T0 + 60_000);
    expect(here.ttlMs('detail', { storedAt: T0, ttlMs: HOUR }, T0 + 61_000)).toBe(0);
    // An older sighting heard late moves nothing back.
    here.heard([{ match: 'game 1', phase: 'scheduled', startsAt: scheduled.startsAt }], T0 + 30_000);
    expect(here.stateOf('game 1', T0 + 61_000)).toBe('inPlay');
  });
});
