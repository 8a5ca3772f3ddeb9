/**
 * Spec 2.15: V6 entity IDs are opaque strings. Any non-empty text within the
 * bound goes to the upstream percent-encoded, and the upstream's 404 (one
 * counted request) decides whether it names something; only an empty ID,
 * one past the bound, or one no URL can carry is refused, before any request.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fromGlobalId, toGlobalId } from '../src/model/global-id.js';
import { V6_ID_MAX_LENGTH } from '../src/model/v6-id.js';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const unknownIds = {
  dots: 'mx-2026_06.11.jp-ci',
  spaces: 'match 42 home',
  slashes: 'a/b/../c',
  percent: '100%25 sure %',
  unicode: 'partido-ñandú-東京-⚾-😀',
  query: 'x?y=1#frag',
  longest: 'z'.repeat(V6_ID_MAX_LENGTH),
} as const;

describe('V6 IDs are opaque (spec 2.15)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());
  beforeEach(() => resetCounts(stack.sandbox.url));

  it('answers a V6 baseball match whose ID has dots, with one request under the percent-encoded path', async () => {
    const match = stack.sandbox.fixtures.otherSports.baseballV6.matches.find((m) => m.id.includes('.'));
    expect(match).toBeDefined();
    const id = match?.id ?? '';
    const result = await gql<{
      v6: { baseball: { match: { id: string; ref: { nativeId: string }; league: string } } };
    }>(stack.gateway.url, 'query($id: ID!) { v6 { baseball { match(id: $id) { id ref { nativeId } league } } } }', {
      id,
    });
    expect(result.errors).toBeUndefined();
    expect(result.data?.v6.baseball.match.ref.nativeId).toBe(id);
    expect(result.data?.v6.baseball.match.league).toBe(match?.league.name);
    // The global ID the gateway minted carries the dotted ID back unchanged.
    expect(fromGlobalId(result.data?.v6.baseball.match.id ?? '')).toEqual({
      version: 'v6',
      sport: 'baseball',
      typeName: 'V6BaseballMatch',
      nativeId: id,
    });
    expect((await requestCounts(stack.sandbox.url)).byRoute).toEqual({
      [`GET /v6/baseball/api/v1/match/${encodeURIComponent(id)}`]: 1,
    });
  });

  for (const [kind, id] of Object.entries(unknownIds)) {
    it(`sends an unknown ID with ${kind} percent-encoded and answers the upstream's 404 as NOT_FOUND`, async () => {
      const baseball = await gql(
        stack.gateway.url,
        'query($id: ID!) { v6 { baseball { odds(matchId: $id) { name } } } }',
        { id },
      );
      expect(baseball.errors?.map((e) => e.extensions?.['code'])).toEqual(['NOT_FOUND']);
      const football = await gql(
        stack.gateway.url,
        'query($id: ID!) { v6 { football { teamStats(matchId: $id) { mappingVersion } } } }',
        { id },
      );
      expect(football.errors?.map((e) => e.extensions?.['code'])).toEqual(['NOT_FOUND']);
      const encoded = encodeURIComponent(id);
      expect((await requestCounts(stack.sandbox.url)).byRoute).toEqual({
        [`GET /v6/baseball/api/v1/match/${encoded}/odds`]: 1,
        [`GET /v6/football/api/v1/match/${encoded}/team-stats`]: 1,
      });
    });
  }

  const refused = {
    empty: '',
    'past the bound': 'z'.repeat(V6_ID_MAX_LENGTH + 1),
    'a lone surrogate': 'bm_\uD800',
    'a bare dot segment': '..',
  };
  for (const [kind, id] of Object.entries(refused)) {
    it(`refuses an ID that is ${kind} with BAD_USER_INPUT and no request`, async () => {
      const result = await gql(
        stack.gateway.url,
        'query($id: ID!) { v6 { baseball { match(id: $id) { league } } football { teamStats(matchId: $id) { mappingVersion } } } }',
        { id },
      );
      expect(result.errors?.map((e) => e.extensions?.['code'])).toEqual(['BAD_USER_INPUT', 'BAD_USER_INPUT']);
      expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
    });
  }

  it('round-trips any V6 native ID through a global ID, line breaks and colons included', () => {
    for (const nativeId of [...Object.values(unknownIds), 'a\nb', 'x:y:z', '\r\n']) {
      const id = { version: 'v6', sport: 'baseball', typeName: 'V6BaseballMatch', nativeId } as const;
      expect(fromGlobalId(toGlobalId(id))).toEqual(id);
    }
  });
});
