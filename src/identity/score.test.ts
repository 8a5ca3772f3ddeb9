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

  it('another kind is never a counterpart', () => {
    expect(scoreHits(source, 'competition', [hit('3', 'Rangers', 'Scotland')])).toEqual([]);
  });
});
