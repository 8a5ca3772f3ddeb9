/**
 * Changes between consecutive odds snapshots (spec 3, 6.5), and the
 * reconnect backoff: pure functions, no servers.
 */
import { describe, expect, it } from 'vitest';
import { diffFrames } from '../src/live/diff.js';
import { backoffDelay } from '../src/live/match-feed.js';
import { parseFrame, parseServerMessage, type OddsFrame } from '../src/upstream/routes/odds-socket.js';

function frame(markets: unknown[], timestamp = 1): OddsFrame {
  const parsed = parseFrame({ eventId: 9, liveStreamUrl: null, timestamp, markets });
  if (parsed === undefined) throw new Error('bad test frame');
  return parsed;
}

const m = (id: string, prices: Record<string, number>, suspended = false): unknown => ({
  id,
  name: id,
  ...(suspended ? { suspended: true } : {}),
  outcomes: Object.entries(prices).map(([name, price]) => ({ name, price })),
});

describe('diffFrames', () => {
  it('an identical snapshot (as resent after a resubscribe) yields no change', () => {
    const a = frame([m('x', { Home: 2 })], 1);
    expect(diffFrames(a, frame([m('x', { Home: 2 })], 2))).toEqual([]);
  });

  it('opened, suspended, reopened, closed and price moved', () => {
    const before = frame([m('a', { Y: 2 }), m('b', { Y: 3 }), m('c', { Y: 4 }, true), m('d', { Y: 5 })]);
    const after = frame([m('a', { Y: 2.1 }), m('b', { Y: 3 }, true), m('c', { Y: 4 }), m('e', { Y: 6 })]);
    expect(diffFrames(before, after).map((c) => [c.kind, c.marketKey, c.previousPrice, c.price])).toEqual([
      ['PRICE_MOVED', 'a', 2, 2.1],
      ['SUSPENDED', 'b', null, null],
      ['REOPENED', 'c', null, null],
      ['OPENED', 'e', null, null],
      ['CLOSED', 'd', null, null],
    ]);
  });

  it('a gap shows its net effect: suspended then reopened while away is no change', () => {
    const before = frame([m('a', { Y: 2 })]);
    expect(diffFrames(before, frame([m('a', { Y: 2 })]))).toEqual([]);
    expect(diffFrames(before, frame([]))).toHaveLength(1);
  });
});

describe('protocol', () => {
  it('an unreadable frame is undefined, never a partial snapshot', () => {
    expect(parseServerMessage('{"type":"snapshot","channel":"match:1:odds","data":{"markets":[{"id":')).toBeUndefined();
    expect(parseServerMessage('{"type":"snapshot","channel":"match:1:odds","data":{"markets":[]}}')).toBeUndefined(); // no timestamp
    expect(
      parseServerMessage(
        '{"type":"snapshot","channel":"match:1:odds","data":{"timestamp":1,"markets":[{"id":"a"},{"id":"a"}]}}',
      ),
    ).toBeUndefined();
    expect(
      parseServerMessage('{"type":"snapshot","channel":"match:1:odds","data":{"timestamp":1,"markets":[]}}'),
    ).toMatchObject({ type: 'snapshot' });
  });
});

describe('backoffDelay', () => {
  it('doubles up to the cap, with equal jitter (between half and all of the step)', () => {
    const options = { initialMs: 500, maxMs: 30_000 };
    expect(backoffDelay(0, options, () => 0)).toBe(250);
    expect(backoffDelay(0, options, () => 1)).toBe(500);
    expect(backoffDelay(3, options, () => 1)).toBe(4_000);
    expect(backoffDelay(20, options, () => 0)).toBe(15_000);
    expect(backoffDelay(20, options, () => 1)).toBe(30_000);
  });
});
