/**
 * V6 baseball: match, team stats and odds; the six sub-resources the
 * upstream answers 501 are NOT_SUPPORTED with the alternative, never requested.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

describe('V6 baseball', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());
  beforeEach(() => resetCounts(stack.sandbox.url));

  it('serves match, team stats and odds under opaque V6 IDs', async () => {
    const match = stack.sandbox.fixtures.otherSports.baseballV6.matches[0];
    const result = await gql<{
      v6: {
        baseball: {
          match: {
            ref: { version: string; nativeId: string };
            homeTeam: { name: string; image: { url: string } };
            homeScore: number;
            status: { finished: boolean };
          };
          teamStats: { home: Array<{ name: string; value: number }> };
          odds: Array<{ name: string; outcomes: Array<{ odds: number }> }>;
        };
      };
    }>(
      stack.gateway.url,
      `query($id: ID!) { v6 { baseball {
        match(id: $id) { id ref { version nativeId sport } startTime status { finished } homeTeam { name image { url } } awayTeam { name } homeScore awayScore inning league }
        teamStats(matchId: $id) { matchId home { name value } away { name value } }
        odds(matchId: $id) { name suspended outcomes { name odds line } }
      } } }`,
      { id: match?.id },
    );
    expect(result.errors).toBeUndefined();
    const v6 = result.data?.v6.baseball;
    expect(v6?.match.ref).toEqual({ version: 'V6', nativeId: match?.id, sport: 'baseball' });
    expect(v6?.match.ref.nativeId).toMatch(/^bm_/);
    expect(v6?.match.homeTeam.image.url).toBe(
      `/images/v6/baseball/teams/${encodeURIComponent(match?.home.logo ?? '')}`,
    );
    expect(v6?.match.homeScore).toBe(match?.home.runs);
    expect(v6?.teamStats.home.find((s) => s.name === 'hits')?.value).toBe(
      stack.sandbox.fixtures.otherSports.baseballV6.teamStats.get(match?.id ?? '')?.home['hits'],
    );
    expect(v6?.odds.map((m) => m.name)).toEqual(['Moneyline', 'Run line', 'Total runs']);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(3);
  });

  it('answers lineups, stats, incidents, h2h, commentary and tables NOT_SUPPORTED without a request', async () => {
    const id = stack.sandbox.fixtures.otherSports.baseballV6.matches[0]?.id ?? '';
    const subs = ['lineups', 'stats', 'incidents', 'h2h', 'commentary', 'tables'];
    const result = await gql(
      stack.gateway.url,
      `query($id: ID!) { v6 { baseball { ${subs.map((s) => `${s}(matchId: $id)`).join(' ')} } } }`,
      { id },
    );
    expect(result.errors).toHaveLength(6);
    for (const error of result.errors ?? []) {
      expect(error.extensions?.['code']).toBe('NOT_SUPPORTED');
      expect(String(error.extensions?.['alternative'])).toContain('v2(sport: BASEBALL)');
    }
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
    // The sandbox does answer 501, as the spec says the upstream does.
    const direct = await fetch(`${stack.sandbox.url}/v6/baseball/api/v1/match/${id}/lineups`, {
      headers: { 'x-api-key': stack.apiKey },
    });
    expect(direct.status).toBe(501);
    expect(((await direct.json()) as { alternative: string }).alternative).toBeTruthy();
  });
});
