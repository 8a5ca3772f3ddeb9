import { describe, expect, it } from 'vitest';
import { byPosition } from './by-position.js';

describe('byPosition', () => {
  it('returns rows already in order as they are, ties kept in their order', () => {
    const rows = [
      { position: 1, id: 'a' },
      { position: 2, id: 'b' },
      { position: 2, id: 'c' },
    ];
    expect(byPosition(rows)).toBe(rows);
  });

  it('sorts a copy of rows out of order (stable), leaving the payload as it was', () => {
    const rows = [
      { position: 3, id: 'a' },
      { position: 1, id: 'b' },
      { position: 3, id: 'c' },
      { position: 2, id: 'd' },
    ];
    expect(byPosition(rows).map((row) => row.id)).toEqual(['b', 'd', 'a', 'c']);
    expect(rows.map((row) => row.id)).toEqual(['a', 'b', 'c', 'd']);
  });
});
