/**
 * Matching catalogue keys to the `Sport` enum (sport-catalogue.ts): case and
 * separators do not matter, other words do, and one enum value is claimed
 * by one entry only, so `sports` never shows two entries as the same sport.
 */
import { describe, expect, it } from 'vitest';
import type { SportReference } from '../upstream/routes/reference.js';
import { entryOfSport, enumSpelling, findEntry, sportChoice, sportOfEntry } from './sport-catalogue.js';

const entry = (sport: string): SportReference => ({
  sport,
  name: sport,
  slugs: { v1: null, v2: sport, v3: null, v4: null, v6: null },
});
const ENUM = new Set(['ICE_HOCKEY', 'WATER_POLO', 'BEACH_VOLLEYBALL']);

describe('catalogue keys and the Sport enum', () => {
  it.each([
    ['ice_hockey', 'ICE_HOCKEY'],
    ['ice-hockey', 'ICE_HOCKEY'],
    ['Ice Hockey', 'ICE_HOCKEY'],
    [' water--polo ', 'WATER_POLO'],
    ['icehockey', 'ICEHOCKEY'],
  ])('spells %j as %s', (key, spelled) => {
    expect(enumSpelling(key)).toBe(spelled);
  });

  it('finds an enum value under its own key first, then under another spelling of the same words', () => {
    const own = entry('ice_hockey');
    const other = entry('Ice-Hockey');
    expect(entryOfSport([other, own], 'ICE_HOCKEY')).toBe(own);
    expect(entryOfSport([other], 'ICE_HOCKEY')).toBe(other);
    expect(entryOfSport([entry('icehockey')], 'ICE_HOCKEY')).toBeUndefined();
  });

  it('gives an enum value to one entry only; a key in other words stands for none', () => {
    const entries = [entry('ice-hockey'), entry('ice_hockey'), entry('beachvolley'), entry('padel')];
    expect(entries.map((e) => sportOfEntry(entries, e, ENUM))).toEqual([null, 'ICE_HOCKEY', null, null]);
  });

  it('finds a key exactly, never by another spelling', () => {
    const entries = [entry('ice-hockey'), entry('padel')];
    expect(findEntry(entries, { key: 'padel' })).toBe(entries[1]);
    expect(findEntry(entries, { key: 'ice_hockey' })).toBeUndefined();
    expect(findEntry(entries, { sport: 'ICE_HOCKEY' })).toBe(entries[0]);
  });

  it('takes exactly one of sport and sportKey', () => {
    expect(sportChoice({ sport: 'ICE_HOCKEY' })).toEqual({ sport: 'ICE_HOCKEY' });
    expect(sportChoice({ sportKey: 'padel', sport: null })).toEqual({ key: 'padel' });
    for (const args of [{}, { sport: 'ICE_HOCKEY', sportKey: 'ice_hockey' }, { sportKey: '  ' }]) {
      expect(() => sportChoice(args)).toThrow(
        expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) }),
      );
    }
  });
});
