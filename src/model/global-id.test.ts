/**
 * The global ID format (global-id.ts): every ID the gateway mints parses
 * back to what was minted, opaque V6 IDs and `via` parts included, and IDs
 * minted before `via` existed still parse.
 */
import { describe, expect, it } from 'vitest';
import { fromGlobalId, toGlobalId, type GlobalId } from './global-id.js';

const legacy = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

describe('global IDs', () => {
  it.each(['mx-2026_06.11.jp-ci', 'a:b:c', 'x?y=1:z', 'with space/and/slashes', '100%', 'Ünïcødé 東京', 'line\nbreak'])(
    'round-trips the opaque V6 ID %j',
    (nativeId) => {
      const id: GlobalId = { version: 'v6', sport: 'baseball', typeName: 'V6BaseballMatch', nativeId };
      expect(fromGlobalId(toGlobalId(id))).toEqual({ ...id, via: undefined });
      const team: GlobalId = {
        version: 'v6',
        sport: 'baseball',
        typeName: 'V6BaseballTeam',
        nativeId: `t:${nativeId}`,
        via: { match: nativeId },
      };
      expect(fromGlobalId(toGlobalId(team))).toEqual(team);
    },
  );

  it('round-trips a via part, whatever its values hold, in key order', () => {
    const id: GlobalId = {
      version: 'v1',
      sport: 'hockey',
      typeName: 'V1HockeyCompetitor',
      nativeId: '17',
      via: { season: '2025', competition: '11' },
    };
    const text = Buffer.from(toGlobalId(id), 'base64url').toString('utf8');
    expect(text).toBe('V1:hockey:V1HockeyCompetitor?competition=11&season=2025:17');
    expect(fromGlobalId(toGlobalId(id))).toEqual(id);
    const odd: GlobalId = {
      version: 'v3',
      sport: 'water-polo',
      typeName: 'V3Team',
      nativeId: '5',
      via: { event: 'a:b&c=d?e' },
    };
    expect(fromGlobalId(toGlobalId(odd))).toEqual(odd);
  });

  it('mints no via part when there is none to carry', () => {
    const id: GlobalId = { version: 'v3', sport: 'football', typeName: 'V3Event', nativeId: '30000001', via: {} };
    expect(Buffer.from(toGlobalId(id), 'base64url').toString('utf8')).toBe('V3:football:V3Event:30000001');
  });

  it('parses IDs minted before the via part existed', () => {
    expect(fromGlobalId(legacy('V1:hockey:V1HockeyCompetitor:3401'))).toEqual({
      version: 'v1',
      sport: 'hockey',
      typeName: 'V1HockeyCompetitor',
      nativeId: '3401',
      via: undefined,
    });
    expect(fromGlobalId(legacy('V6:baseball:V6BaseballMatch:bm_1:x'))).toMatchObject({ nativeId: 'bm_1:x' });
  });

  it.each([
    ['not base64 at all', '!!!'],
    ['an unknown version', legacy('V5:hockey:V1HockeyCompetitor:1')],
    ['a sport that could step out of a path', legacy('V2:../x:V2Team:1')],
    ['no native ID', legacy('V2:hockey:V2Team:')],
    ['a type name with punctuation', legacy('V2:hockey:V2-Team:1')],
  ])('refuses %s with BAD_USER_INPUT', (_, value) => {
    expect(() => fromGlobalId(value)).toThrow(expect.objectContaining({ code: 'BAD_USER_INPUT' }));
  });
  it('mints each ID from its own parts when it was minted before (the encoded IDs kept are keyed by the whole text)', () => {
    const competitor: GlobalId = {
      version: 'v1',
      sport: 'hockey',
      typeName: 'V1HockeyCompetitor',
      nativeId: '17',
      via: { competition: '11' },
    };
    const first = toGlobalId(competitor);
    expect(toGlobalId({ ...competitor })).toBe(first);
    // One part changed at a time: never the kept encoding of the first.
    const changed: GlobalId[] = [
      { ...competitor, nativeId: '18' },
      { ...competitor, via: { competition: '12' } },
      { ...competitor, via: undefined },
      { ...competitor, typeName: 'V1HockeyAthlete' },
      { ...competitor, sport: 'football' },
      { ...competitor, version: 'v2' },
    ];
    for (const id of changed) {
      expect(toGlobalId(id)).not.toBe(first);
      expect(fromGlobalId(toGlobalId(id))).toEqual({ ...id, via: id.via });
    }
  });

  it('still mints every ID right past the number of encoded IDs it keeps', () => {
    const ids = Array.from(
      { length: 10_000 },
      (_, i): GlobalId => ({ version: 'v6', sport: 'baseball', typeName: 'V6BaseballMatch', nativeId: `m${i}` }),
    );
    for (const id of ids) expect(toGlobalId(id)).toBe(legacy(`V6:baseball:V6BaseballMatch:m${id.nativeId.slice(1)}`));
    // Again, oldest first: the first ones were let go and are encoded anew.
    for (const id of ids) expect(fromGlobalId(toGlobalId(id)).nativeId).toBe(id.nativeId);
  });
});
