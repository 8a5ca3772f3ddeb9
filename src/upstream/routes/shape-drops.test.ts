/**
 * Which optional parts a payload check drops, and at which JSON paths: the
 * combinators pass a value's owner and key as plain arguments and keep a
 * trial's drops as the tail of one shared list (cut off when the trial
 * fails), so these pin down that a drop deep in a record, a drop inside a
 * failed optional part, and a drop inside a failed `oneOf` branch are each
 * reported exactly as before.
 */
import { describe, expect, it } from 'vitest';
import { checkPayload } from '../payload-check.js';
import { allOf, arrayOf, int, obj, oneOf, opt, recordOf, shape, str } from './shape.js';

const player = obj({ id: int, name: str, nickname: opt(str), stats: opt(obj({ goals: int, note: opt(str) })) });
const payload = shape<unknown>(
  obj({
    teams: recordOf(
      obj({ id: int, players: arrayOf(player), coach: opt(obj({ id: int, name: str, alias: opt(str) })) }),
    ),
    extra: opt(oneOf(obj({ kind: str, detail: opt(int) }), obj({ code: int }))),
    venue: allOf(obj({ id: int }), obj({ city: opt(str) })),
  }),
);

describe('payload check drops', () => {
  it('reports a drop deep in a record and an array by its JSON path, and removes it', () => {
    const body = {
      teams: {
        a: {
          id: 1,
          players: [
            { id: 10, name: 'A', nickname: 5 },
            { id: 11, name: 'B', stats: { goals: 2, note: 7 } },
          ],
        },
        b: { id: 2, players: [{ id: 20, name: 'C' }], coach: { id: 3, name: 'Z', alias: false } },
      },
      venue: { id: 4, city: 9 },
    };
    const checked = checkPayload(payload, body);
    expect(checked?.dropped).toEqual([
      ['teams', 'a', 'players', 0, 'nickname'],
      ['teams', 'a', 'players', 1, 'stats', 'note'],
      ['teams', 'b', 'coach', 'alias'],
      // allOf looks at the venue once per branch: reported once.
      ['venue', 'city'],
    ]);
    expect(body.teams.a.players[0]).toEqual({ id: 10, name: 'A' });
    expect(body.teams.a.players[1]).toEqual({ id: 11, name: 'B', stats: { goals: 2 } });
    expect(body.teams.b.coach).toEqual({ id: 3, name: 'Z' });
  });

  it('a failed optional part is dropped whole, without the drops found inside it', () => {
    const body = {
      teams: { a: { id: 1, players: [{ id: 10, name: 'A', stats: { goals: 'x', note: 7 } }] } },
      venue: { id: 4 },
    };
    expect(checkPayload(payload, body)?.dropped).toEqual([['teams', 'a', 'players', 0, 'stats']]);
  });

  it('a failed oneOf branch leaves none of its drops; the branch that passes keeps its own', () => {
    // The first branch fails on `kind` after recording `detail`; the second passes with no drops.
    const second = { teams: {}, extra: { code: 3, detail: 'no' }, venue: { id: 4 } };
    expect(checkPayload(payload, second)?.dropped).toEqual([]);
    const first = { teams: {}, extra: { kind: 'k', detail: 'no' }, venue: { id: 4 } };
    expect(checkPayload(payload, first)?.dropped).toEqual([['extra', 'detail']]);
    // Neither branch holds: the optional part itself goes.
    const neither = { teams: {}, extra: { detail: 'no' }, venue: { id: 4 } };
    expect(checkPayload(payload, neither)?.dropped).toEqual([['extra']]);
  });

  it('a strict failure refuses the payload, whatever was dropped before it', () => {
    const body = {
      teams: {
        a: {
          id: 1,
          players: [
            { id: 10, name: 'A', nickname: 5 },
            { id: 'x', name: 'B' },
          ],
        },
      },
      venue: { id: 4 },
    };
    expect(checkPayload(payload, body)).toBeUndefined();
  });
});
