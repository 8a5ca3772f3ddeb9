/**
 * V6 football team statistics (spec 2.10, 2.11, 4.9): each reading rule,
 * and the mapping's cost: one free request per hour whatever the traffic,
 * one more as soon as the version changes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { V6TeamStatsEntry } from '../src/upstream/routes/v6-football.js';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';
import type { V6StatValue } from '../src/model/v6-team-stats.js';

const MAPPING = 'GET /v6/football/reference/team-stats';
const teamStatsRoute = (id: string) => `GET /v6/football/api/v1/match/${id}/team-stats`;

type Stat = V6StatValue;
interface PeriodStats {
  period: string;
  provided: boolean;
  stats: Stat[];
}
interface TeamStats {
  teamId: string;
  side: string;
  fullMatch: PeriodStats;
  firstHalf: PeriodStats;
  secondHalf: PeriodStats;
  raw: V6TeamStatsEntry;
}
interface Result {
  v6: {
    football: {
      teamStats: {
        ref: { version: string; nativeId: string };
        mappingVersion: string;
        namedWith: string;
        teams: TeamStats[];
      };
    };
  };
}

const STATS = 'stats { statId name unit value rawValue provided confirmed foldedFrom }';
const QUERY = /* GraphQL */ `
  query ($id: ID!) { v6 { football { teamStats(matchId: $id) {
    ref { version nativeId } mappingVersion namedWith
    teams { teamId side raw
      fullMatch { period provided ${STATS} }
      firstHalf { period provided ${STATS} }
      secondHalf { period provided ${STATS} }
    }
  } } } }`;

const byId = (period: PeriodStats, id: number): Stat => {
  const stat = period.stats.find((s) => s.statId === id);
  if (stat === undefined) throw new Error(`stat ${id} not listed`);
  return stat;
};

describe('V6 football team statistics', () => {
  let stack: TestStack;
  /** Opaque V6 IDs of a finished fixture with an even and an odd match number. */
  let even: string;
  let odd: string;
  let others: string[];
  beforeAll(async () => {
    stack = await startStack();
    const fixtures = [...stack.sandbox.fixtures.football.v6.statsByMatchId.values()].filter(
      (s) => s.match.state === 'finished',
    );
    even = fixtures.find((s) => s.match.number % 2 === 0)!.matchId;
    odd = fixtures.find((s) => s.match.number % 2 === 1)!.matchId;
    others = fixtures.map((s) => s.matchId).filter((id) => id !== even && id !== odd);
  });
  afterAll(() => stack.close());
  beforeEach(() => resetCounts(stack.sandbox.url));

  it('reads matchStats keys 0, 1, 2 as full match, first half, second half, ignoring the inner period (always 0)', async () => {
    const result = await gql<Result>(stack.gateway.url, QUERY, { id: even });
    expect(result.errors).toBeUndefined();
    const stats = result.data!.v6.football.teamStats;
    expect(stats.ref).toEqual({ version: 'V6', nativeId: even });
    for (const team of stats.teams) {
      expect([team.fullMatch.period, team.firstHalf.period, team.secondHalf.period]).toEqual([
        'FULL_MATCH',
        'FIRST_HALF',
        'SECOND_HALF',
      ]);
      for (const [key, period] of [
        ['0', team.fullMatch],
        ['1', team.firstHalf],
        ['2', team.secondHalf],
      ] as const) {
        const block = team.raw.matchStats[key]!;
        expect(block.period).toBe(0);
        expect(byId(period, 101).rawValue).toBe(block.stats['101']);
      }
      // The halves differ from the full match: the key, not the inner period, chose the block.
      expect(byId(team.firstHalf, 101).value).not.toBe(byId(team.fullMatch, 101).value);
    }
  });

  it('gives null for an absent statistic ID (not provided) and 0 for a present "0"', async () => {
    const result = await gql<Result>(stack.gateway.url, QUERY, { id: odd });
    const team = result.data!.v6.football.teamStats.teams[0]!;
    expect(team.raw.matchStats['0']!.stats['130']).toBeUndefined();
    expect(byId(team.fullMatch, 130)).toMatchObject({
      value: null,
      rawValue: null,
      provided: false,
      name: 'Expected goals',
      unit: 'xG',
    });
    expect(team.raw.matchStats['0']!.stats['109']).toBe('0');
    expect(byId(team.fullMatch, 109)).toMatchObject({ value: 0, rawValue: '0', provided: true, name: 'Red cards' });
  });

  it('folds 183 into 128 (total shots) and never lists 183', async () => {
    const oddResult = await gql<Result>(stack.gateway.url, QUERY, { id: odd });
    const oddTeam = oddResult.data!.v6.football.teamStats.teams[0]!;
    expect(oddTeam.raw.matchStats['0']!.stats['128']).toBeUndefined();
    const folded = byId(oddTeam.fullMatch, 128);
    expect(folded).toMatchObject({ provided: true, foldedFrom: 183, name: 'Total shots' });
    expect(folded.value).toBe(Number(oddTeam.raw.matchStats['0']!.stats['183']));
    expect(oddTeam.fullMatch.stats.some((s) => s.statId === 183)).toBe(false);

    const evenResult = await gql<Result>(stack.gateway.url, QUERY, { id: even });
    const evenTeam = evenResult.data!.v6.football.teamStats.teams[0]!;
    expect(byId(evenTeam.fullMatch, 128)).toMatchObject({
      foldedFrom: null,
      value: Number(evenTeam.raw.matchStats['0']!.stats['128']),
    });
    expect(evenTeam.fullMatch.stats.some((s) => s.statId === 183)).toBe(false);
  });

  it('marks 123 and 124 unconfirmed, and takes names and units from the mapping', async () => {
    const result = await gql<
      Result & {
        v6: {
          football: {
            statMapping: {
              version: string;
              stats: Array<{
                statId: number;
                name: string;
                unit: string;
                confirmed: boolean;
                duplicateOf: number | null;
              }>;
            };
          };
        };
      }
    >(
      stack.gateway.url,
      `query ($id: ID!) { v6 { football {
        statMapping { version stats { statId name unit confirmed duplicateOf } }
        teamStats(matchId: $id) { teams { fullMatch { ${STATS} } } }
      } } }`,
      { id: even },
    );
    expect(result.errors).toBeUndefined();
    const { statMapping, teamStats } = result.data!.v6.football;
    const full = teamStats.teams[0]!.fullMatch;
    expect(byId(full, 123).confirmed).toBe(false);
    expect(byId(full, 124).confirmed).toBe(false);
    expect(byId(full, 128).confirmed).toBe(true);
    expect(statMapping.stats.find((s) => s.statId === 183)!.duplicateOf).toBe(128);
    for (const definition of statMapping.stats.filter((s) => s.statId !== 183)) {
      expect(byId(full, definition.statId)).toMatchObject({ name: definition.name, unit: definition.unit });
    }
    expect(byId(full, 100)).toMatchObject({ name: 'Ball possession', unit: '%' });
  });

  it('fetches the mapping once (free, no key) whatever the traffic, and once more when the version changes', async () => {
    // Earlier tests loaded the mapping already: inside the hour, none of this traffic asks again.
    await Promise.all([
      ...others.slice(0, 6).map((id) => gql(stack.gateway.url, QUERY, { id })),
      gql(stack.gateway.url, '{ v6 { football { statMapping { version } } } }'),
    ]);
    let counts = await requestCounts(stack.sandbox.url);
    expect(counts.byRoute[MAPPING]).toBeUndefined();
    expect(counts.byRoute[teamStatsRoute(others[0]!)]).toBe(1);

    const bumped = (await (
      await fetch(`${stack.sandbox.url}/__sandbox/v6/mapping-version`, { method: 'POST' })
    ).json()) as { version: string };
    // A fixture fetched after the change names the new version: the pinned mapping is refreshed at once, once.
    const fresh = others.slice(6, 10);
    const results = await Promise.all(fresh.map((id) => gql<Result>(stack.gateway.url, QUERY, { id })));
    for (const result of results) {
      expect(result.data!.v6.football.teamStats.mappingVersion).toBe(bumped.version);
      expect(result.data!.v6.football.teamStats.namedWith).toBe(bumped.version);
      // The appended ID is named by the new mapping.
      expect(byId(result.data!.v6.football.teamStats.teams[0]!.fullMatch, 190)).toMatchObject({
        name: 'Expected goals on target',
        provided: false,
      });
    }
    const again = await gql<{ v6: { football: { statMapping: { version: string } } } }>(
      stack.gateway.url,
      '{ v6 { football { statMapping { version } } } }',
    );
    expect(again.data!.v6.football.statMapping.version).toBe(bumped.version);
    counts = await requestCounts(stack.sandbox.url);
    expect(counts.byRoute[MAPPING]).toBe(1);

    const log = (await (await fetch(`${stack.sandbox.url}/__sandbox/requests/log`)).json()) as Array<{
      path: string;
      key: string;
    }>;
    expect(
      log.filter((entry) => entry.path === '/v6/football/reference/team-stats').every((entry) => entry.key === 'none'),
    ).toBe(true);
  });

  it('does not spend the allowance on the mapping', async () => {
    const before = (await (await fetch(`${stack.sandbox.url}/__sandbox/quota`)).json()) as { used: number };
    const bump = await fetch(`${stack.sandbox.url}/__sandbox/v6/mapping-version`, { method: 'POST' });
    expect(bump.status).toBe(200);
    await gql(stack.gateway.url, QUERY, { id: others[10]! });
    const after = (await (await fetch(`${stack.sandbox.url}/__sandbox/quota`)).json()) as { used: number };
    const counts = await requestCounts(stack.sandbox.url);
    expect(counts.byRoute[MAPPING]).toBe(1);
    expect(after.used - before.used).toBe(1); // the team-stats request only
  });
});

describe('V6 stat mapping TTL', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: { CACHE_TTL_V6MAPPING: '1' } });
  });
  afterAll(() => stack.close());

  it('asks for the mapping again only once its hour (here: 1 second) is over', async () => {
    const query = '{ v6 { football { statMapping { version } } } }';
    await Promise.all(Array.from({ length: 5 }, () => gql(stack.gateway.url, query)));
    expect((await requestCounts(stack.sandbox.url)).byRoute[MAPPING]).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await Promise.all(Array.from({ length: 5 }, () => gql(stack.gateway.url, query)));
    expect((await requestCounts(stack.sandbox.url)).byRoute[MAPPING]).toBe(2);
  });
});
