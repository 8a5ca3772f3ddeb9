import { describe, expect, it } from 'vitest';
import type { DescribedEntity } from './entity-ref.js';
import { nameAgreement, normaliseName, searchTerm } from './normalise.js';
import { type Hit, scoreHits } from './score.js';

const source: DescribedEntity = {
  version: 'v2',
  sport: 'football',
  kind: 'team',
  nativeId: '1',
  name: 'Rangers FC',
  country: 'Scotland',
};
const hit = (nativeId: string, name: string, country?: string): Hit => ({
  version: 'v1',
  sport: 'football',
  kind: 'team',
  nativeId,
  name,
  country,
});

describe('normalised names', () => {
  it('drop diacritics, affixes and punctuation, and nothing else', () => {
    expect(normaliseName('FC Bayern München')).toBe('bayern munchen');
    expect(normaliseName('SC Freiburg')).toBe('freiburg');
    expect(normaliseName('St. Louis Blues')).toBe(normaliseName('St Louis Blues'));
    expect(normaliseName('FC')).toBe('fc');
    expect(nameAgreement('Man Utd', 'Manchester United')).toBe(0);
    expect(nameAgreement('Athletic Bilbao', 'Athletic Club')).toBe(0.7);
    expect(searchTerm('FC Bayern München')).toBe('munchen');
  });
});

describe('scoring', () => {
  it('the same name in another country, both given, is no counterpart', () => {
    expect(scoreHits(source, 'team', [hit('2', 'Rangers', 'Chile')])).toEqual([]);
    expect(scoreHits(source, 'team', [hit('3', 'Rangers', 'Scotland')])).toEqual([
      expect.objectContaining({ nativeId: '3', status: 'MATCH', evidence: 'NAME_AND_COUNTRY', confidence: 0.95 }),
    ]);
  });

  it('two matches for one entity are both demoted to candidates', () => {
    const found = scoreHits(source, 'team', [hit('3', 'Rangers', 'Scotland'), hit('4', 'Rangers', 'Scotland')]);
    expect(found.map((c) => [c.nativeId, c.status, c.confidence])).toEqual([
      ['3', 'CANDIDATE', 0.5],
      ['4', 'CANDIDATE', 0.5],
    ]);
  });

  it("a short name equal to the other side's name or short name: a match only with the same country", () => {
    const inter: DescribedEntity = { ...source, name: 'Internazionale Milano', shortName: 'Inter', country: 'Italy' };
    const other = (country?: string, shortName?: string): Hit => ({
      ...hit('8', 'FC Internazionale', country),
      shortName,
    });
    // The full names only partly agree (0.665); the short names, and the country, do.
    expect(scoreHits(inter, 'team', [other('Italy', 'Inter')])).toEqual([
      expect.objectContaining({ status: 'MATCH', evidence: 'SHORT_NAME_AND_COUNTRY', confidence: 0.9 }),
    ]);
    // No country on one side: a candidate, below a full name's 0.6.
    expect(scoreHits(inter, 'team', [other(undefined, 'Inter')])).toEqual([
      expect.objectContaining({ status: 'CANDIDATE', evidence: 'SHORT_NAME', confidence: 0.55 }),
    ]);
    // "Man Utd" (a V3 name) is V2's short name of "Manchester United FC": a candidate without a country.
    const manUtd: DescribedEntity = { ...source, version: 'v3', name: 'Man Utd', country: undefined };
    expect(
      scoreHits(manUtd, 'team', [{ ...hit('3', 'Manchester United FC', 'England'), shortName: 'Man Utd' }]),
    ).toEqual([expect.objectContaining({ status: 'CANDIDATE', evidence: 'SHORT_NAME', confidence: 0.55 })]);
    // Equal full names stay the stronger evidence.
    expect(scoreHits(inter, 'team', [{ ...hit('9', 'Internazionale Milano', 'Italy'), shortName: 'Inter' }])).toEqual([
      expect.objectContaining({ evidence: 'NAME_AND_COUNTRY', confidence: 0.95 }),
    ]);
  });

  it('a short name is never a silent wrong match: another country rules it out, two of one country are both candidates', () => {
    const united: DescribedEntity = { ...source, name: 'Manchester United', shortName: 'United', country: 'England' };
    const short = (nativeId: string, name: string, country: string): Hit => ({
      ...hit(nativeId, name, country),
      shortName: 'United',
    });
    expect(scoreHits(united, 'team', [short('5', 'DC United', 'USA')])).toEqual([]);
    const found = scoreHits(united, 'team', [
      short('6', 'Newcastle United', 'England'),
      short('7', 'West Ham United', 'England'),
    ]);
    expect(found.map((c) => [c.nativeId, c.status, c.confidence])).toEqual([
      ['6', 'CANDIDATE', 0.5],
      ['7', 'CANDIDATE', 0.5],
    ]);
  });

  it('another kind is never a counterpart', () => {
    expect(scoreHits(source, 'competition', [hit('3', 'Rangers', 'Scotland')])).toEqual([]);
  });
});
