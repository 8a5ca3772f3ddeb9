/**
 * One entity across versions (issue 32): `counterparts` found through each
 * version's own search, costed like any field, kept once learned (so the
 * second ask, and the first after a restart, costs nothing), the operator's
 * link file winning over what was learned, and the ambiguous pair (one name,
 * two clubs, no country to tell them apart) offered as candidates, never as
 * a match. Data: sandbox/fixtures/counterparts.ts.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

interface Counterpart {
  version: string;
  nativeId: string;
  nodeId: string | null;
  name: string | null;
  confidence: number;
  evidence: string;
  status: string;
}

const gid = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
const v2Team = (id: number): string => gid(`V2:football:V2Team:${id}`);
const v1Competitor = (id: number): string => gid(`V1:football:V1FootballCompetitor:${id}`);

const FIELDS = 'version nativeId nodeId name confidence evidence status';
const byId = `query($id: ID!, $versions: [Version!]!) { counterparts(id: $id, versions: $versions) { ${FIELDS} } }`;

const withoutCatalogue = (byRoute: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(byRoute).filter(([route]) => route !== 'GET /reference/sports'));

/** Settings that leave the link store the only thing that can answer without a request. */
const ONLY_LINKS_REMEMBER = { RESULT_CACHE: 'false', CACHE_STORE: 'memory' };

async function allowanceRemaining(stack: TestStack, headers: Record<string, string> = {}): Promise<number> {
  const result = await gql<{ quota: { remaining: number } }>(stack.gateway.url, '{ quota { remaining } }', {}, headers);
  return result.data?.quota.remaining ?? Number.NaN;
}

async function ask(stack: TestStack, id: string, versions: string[], headers: Record<string, string> = {}) {
  await resetCounts(stack.sandbox.url);
  const result = await gql<{ counterparts: Counterpart[] }>(stack.gateway.url, byId, { id, versions }, headers);
  const cost = result.extensions?.['cost'] as
    | { estimated: number; upstreamRequests: number; allowanceRemaining: number }
    | undefined;
  return { result, cost, counts: await requestCounts(stack.sandbox.url) };
}

describe('counterparts', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: ONLY_LINKS_REMEMBER });
  });
  afterAll(() => stack.close());
  beforeEach(() => resetCounts(stack.sandbox.url));

  it('first ask spends what its estimate said; the second spends 0; after a restart on the same DATA_DIR, 0', async () => {
    const bayern = v2Team(970_001);
    const before = await allowanceRemaining(stack);
    const first = await ask(stack, bayern, ['V1', 'V3', 'V6']);
    expect(first.result.errors).toBeUndefined();
    // The team itself (its name and country), one search on V1 and one on V3; V6 has no search to ask.
    // The sport catalogue that names V1's and V3's slugs is free (not counted, not estimated).
    expect(first.cost?.estimated).toBe(3);
    expect(first.cost?.allowanceRemaining).toBe(before - 3);
    expect(first.counts.byRoute).toEqual({
      'GET /v2/football/api/teams/970001': 1,
      'GET /search': 1,
      'GET /v3/search': 1,
      'GET /reference/sports': 1,
    });
    expect(first.result.data?.counterparts).toEqual([
      // "Bayern Munchen" (Germany) and "FC Bayern München" (Germany): affix and diacritics aside, the same.
      {
        version: 'V1',
        nativeId: '91001',
        nodeId: v1Competitor(91_001),
        name: 'FC Bayern München',
        confidence: 0.95,
        evidence: 'NAME_AND_COUNTRY',
        status: 'MATCH',
      },
      // V3 gives no country: the name agrees, but that is a candidate, not a match.
      {
        version: 'V3',
        nativeId: '880001',
        nodeId: null,
        name: 'Bayern München',
        confidence: 0.6,
        evidence: 'NAME',
        status: 'CANDIDATE',
      },
    ]);

    const second = await ask(stack, bayern, ['V1', 'V3', 'V6']);
    expect(second.cost).toMatchObject({ estimated: 0, upstreamRequests: 0 });
    expect(second.counts.total).toBe(0);
    expect(second.result.data).toEqual(first.result.data);

    await stack.stopGateway();
    await stack.restartGateway(ONLY_LINKS_REMEMBER);
    const restarted = await ask(stack, bayern, ['V1', 'V3', 'V6']);
    expect(restarted.result.errors).toBeUndefined();
    expect(restarted.cost).toMatchObject({ estimated: 0, upstreamRequests: 0 });
    expect(restarted.counts.total).toBe(0);
    expect(restarted.result.data).toEqual(first.result.data);
  });

  it('the field on a team costs its searches, and the learned link answers the node ID asked from the other side only after its own search', async () => {
    const before = await allowanceRemaining(stack);
    const result = await gql<{ v2: { team: { name: string; counterparts: Counterpart[] } } }>(
      stack.gateway.url,
      `{ v2(sport: FOOTBALL) { team(id: "970005") { name counterparts(versions: [V1, V2]) { ${FIELDS} } } } }`,
    );
    expect(result.errors).toBeUndefined();
    const cost = result.extensions?.['cost'] as { estimated: number; allowanceRemaining: number };
    // The team and one V1 search; its own version is not searched.
    expect(cost.estimated).toBe(2);
    expect(cost.allowanceRemaining).toBe(before - 2);
    expect(result.data?.v2.team.counterparts).toEqual([
      expect.objectContaining({ version: 'V1', nativeId: '91005', name: 'Atlético Madrid', status: 'MATCH' }),
    ]);
  });

  it('the ambiguous pair (one name, two countries, V1 gives none) comes out as two candidates, not a match', async () => {
    const before = await allowanceRemaining(stack);
    const { result, cost } = await ask(stack, v2Team(970_006), ['V1']);
    expect(result.errors).toBeUndefined();
    expect(cost?.estimated).toBe(2);
    expect(cost?.allowanceRemaining).toBe(before - 2);
    const found = result.data?.counterparts ?? [];
    expect(found.map((c) => c.nativeId).sort()).toEqual(['91006', '91007']);
    expect(found.every((c) => c.status === 'CANDIDATE' && c.evidence === 'NAME' && c.confidence < 0.9)).toBe(true);
  });

  it("asked from V1's Rangers (no country), both V2 clubs named Rangers are candidates too", async () => {
    const { result } = await ask(stack, v1Competitor(91_006), ['V2']);
    expect(result.errors).toBeUndefined();
    const found = result.data?.counterparts ?? [];
    expect(found.map((c) => c.nativeId).sort()).toEqual(['970006', '970007']);
    expect(found.every((c) => c.status === 'CANDIDATE')).toBe(true);
  });

  it('a short name both payloads carry, with the country, is a match where the full names only partly agree', async () => {
    const before = await allowanceRemaining(stack);
    const there = await ask(stack, v1Competitor(91_008), ['V2', 'V3']);
    expect(there.result.errors).toBeUndefined();
    // The competitor (its names and country), one search on V2 and one on V3.
    expect(there.cost?.estimated).toBe(3);
    expect(there.cost?.allowanceRemaining).toBe(before - 3);
    expect(there.cost?.upstreamRequests).toBe(3);
    // The sport catalogue is free (not counted, not estimated), and may be cached by an earlier test.
    expect(withoutCatalogue(there.counts.byRoute)).toEqual({
      'GET /api/v1/competitor/91008': 1,
      'GET /v2/football/api/search': 1,
      'GET /v3/search': 1,
    });
    // "Internazionale Milano" / "FC Internazionale" only partly agree (0.665); "Inter" / "Inter" and Italy do.
    // V3's "Inter" is not found by the name's search term ("internazionale"): no counterpart rather than a wrong one.
    expect(there.result.data?.counterparts).toEqual([
      {
        version: 'V2',
        nativeId: '970008',
        nodeId: v2Team(970_008),
        name: 'FC Internazionale',
        confidence: 0.9,
        evidence: 'SHORT_NAME_AND_COUNTRY',
        status: 'MATCH',
      },
    ]);
    // From V2: V1's search hits carry no short name, so the partly agreeing full names alone decide: a candidate.
    const back = await ask(stack, v2Team(970_008), ['V1']);
    expect(back.result.errors).toBeUndefined();
    expect(back.cost?.estimated).toBe(2);
    expect(back.cost?.upstreamRequests).toBe(2);
    expect(withoutCatalogue(back.counts.byRoute)).toEqual({
      'GET /v2/football/api/teams/970008': 1,
      'GET /search': 1,
    });
    expect(back.result.data?.counterparts).toEqual([
      expect.objectContaining({
        nativeId: '91008',
        confidence: 0.665,
        evidence: 'NAME_AND_COUNTRY',
        status: 'CANDIDATE',
      }),
    ]);
  });

  it("the spec's known link (V2 tournament 16 is V1 competition 5930) is answered without a request", async () => {
    const { result, cost, counts } = await ask(stack, gid('V2:football:V2Tournament:16'), ['V1']);
    expect(result.errors).toBeUndefined();
    expect(cost).toMatchObject({ estimated: 0, upstreamRequests: 0 });
    expect(counts.total).toBe(0);
    expect(result.data?.counterparts).toEqual([
      {
        version: 'V1',
        nativeId: '5930',
        nodeId: null,
        name: null,
        confidence: 1,
        evidence: 'KNOWN_MAPPING',
        status: 'MATCH',
      },
    ]);
  });

  it('a renamed club is a candidate until the operator confirms it', async () => {
    const { result } = await ask(stack, v1Competitor(91_004), ['V2']);
    expect(result.errors).toBeUndefined();
    expect(result.data?.counterparts).toEqual([
      expect.objectContaining({
        nativeId: '970004',
        name: 'Athletic Club',
        evidence: 'NAME_AND_COUNTRY',
        status: 'CANDIDATE',
      }),
    ]);
  });

  it('a World Cup match is found in the V2 round listing by its two teams and kickoff, and back on V1', async () => {
    const match = stack.sandbox.fixtures.worldCup.matches.find((m) => m.round === 1 && m.home !== undefined);
    if (match === undefined) throw new Error('no group match in the fixtures');
    const before = await allowanceRemaining(stack);
    const there = await ask(stack, gid(`V1:football:V1WorldCupMatch:${match.v1Id}`), ['V2', 'V3']);
    expect(there.result.errors).toBeUndefined();
    // The game (its teams and kickoff) and V2's round 1; V3 lists no World Cup.
    expect(there.cost?.estimated).toBe(2);
    expect(there.cost?.allowanceRemaining).toBe(before - 2);
    expect(there.result.data?.counterparts).toEqual([
      {
        version: 'V2',
        nativeId: String(match.v2Id),
        nodeId: gid(`V2:football:V2Event:${match.v2Id}`),
        name: `${match.home?.name} - ${match.away?.name}`,
        confidence: 0.95,
        evidence: 'TEAMS_AND_KICKOFF',
        status: 'MATCH',
      },
    ]);
    const again = await ask(stack, gid(`V1:football:V1WorldCupMatch:${match.v1Id}`), ['V2', 'V3']);
    expect(again.cost).toMatchObject({ estimated: 0, upstreamRequests: 0 });

    const back = await ask(stack, gid(`V2:football:V2Event:${match.v2Id}`), ['V1']);
    expect(back.result.errors).toBeUndefined();
    expect(back.cost?.estimated).toBe(2);
    expect(back.result.data?.counterparts).toEqual([
      expect.objectContaining({
        version: 'V1',
        nativeId: String(match.v1Id),
        evidence: 'TEAMS_AND_KICKOFF',
        status: 'MATCH',
      }),
    ]);
  });

  it('every World Cup match at once: each V2 round listing is estimated and loaded once, not once per match', async () => {
    const before = await allowanceRemaining(stack);
    const result = await gql<{ v1: { worldCup: { matches: Array<{ counterparts: Counterpart[] }> } } }>(
      stack.gateway.url,
      `{ v1 { worldCup { matches { counterparts(versions: [V2]) { ${FIELDS} } } } } }`,
    );
    expect(result.errors).toBeUndefined();
    const cost = result.extensions?.['cost'] as { estimated: number; allowanceRemaining: number };
    const rounds = new Set(stack.sandbox.fixtures.worldCup.matches.map((m) => m.round)).size;
    // The matches list (probed by the estimate, then reused) and one listing per round; round 1 may be cached already.
    expect(cost.estimated).toBeLessThanOrEqual(1 + rounds);
    expect(cost.allowanceRemaining).toBe(before - cost.estimated);
    const matched = (result.data?.v1.worldCup.matches ?? []).filter((m) =>
      m.counterparts.some((c) => c.status === 'MATCH'),
    );
    // Every match has its V2 self, an undecided knockout slot too (the same slot names and kickoff on both).
    expect(matched.length).toBe(stack.sandbox.fixtures.worldCup.matches.length);
  });

  it("a V1 hockey athlete's V2 self is a match by name and nationality; a namesake elsewhere in the roster only a candidate", async () => {
    const before = await allowanceRemaining(stack);
    const { result, cost } = await ask(stack, gid('V1:hockey:V1HockeyAthlete:700001'), ['V2', 'V3']);
    expect(result.errors).toBeUndefined();
    // The athlete, and V2's search; V3's search finds no players.
    expect(cost?.estimated).toBe(2);
    expect(cost?.allowanceRemaining).toBe(before - 2);
    const found = result.data?.counterparts ?? [];
    expect(found[0]).toEqual({
      version: 'V2',
      nativeId: '990001',
      nodeId: gid('V2:hockey:V2Player:990001'),
      name: stack.sandbox.fixtures.hockeyV1.athletes[0]?.name,
      confidence: 0.95,
      evidence: 'NAME_AND_COUNTRY',
      status: 'MATCH',
    });
    expect(found.slice(1).every((c) => c.status === 'CANDIDATE')).toBe(true);
  });

  it('a V6 team (an opaque ID) is linked by its name through V2 search, a candidate since V6 gives no country', async () => {
    const matchId = stack.sandbox.fixtures.football.v6.matchIds[0];
    const before = await allowanceRemaining(stack);
    const result = await gql<{
      v6: { football: { teamStats: { teams: Array<{ name: string; counterparts: Counterpart[] }> } } };
    }>(
      stack.gateway.url,
      `query($m: ID!) { v6 { football { teamStats(matchId: $m) { teams { name counterparts(versions: [V2, V4]) { ${FIELDS} } } } } } }`,
      { m: matchId },
    );
    expect(result.errors).toBeUndefined();
    const cost = result.extensions?.['cost'] as { estimated: number; allowanceRemaining: number };
    // The statistics, and one V2 search per team (V4 has none).
    expect(cost.allowanceRemaining).toBe(before - 3);
    expect(cost.estimated).toBe(3);
    for (const team of result.data?.v6.football.teamStats.teams ?? []) {
      const exact = team.counterparts.filter((c) => c.name === team.name);
      expect(exact).toEqual([expect.objectContaining({ version: 'V2', evidence: 'NAME', status: 'CANDIDATE' })]);
    }
  });

  it('v3 search finds Anaheim (issue 32)', async () => {
    const result = await gql<{ v3: { search: Array<{ name: string; sport: string }> } }>(
      stack.gateway.url,
      '{ v3 { search(query: "Anaheim") { name sport } } }',
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.v3.search).toEqual([{ name: 'Anaheim Ducks', sport: 'hockey' }]);
  });
});

describe('counterparts: the operator file, a spent budget, a damaged store', () => {
  let stack: TestStack;
  let dir: string;
  const SMALL = 'small-key-0001';
  const OPS = { authorization: 'Bearer ops-key-0001' };
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'counterpart-links-'));
    const links = join(dir, 'links.json');
    await writeFile(
      links,
      JSON.stringify({
        links: [
          {
            a: { version: 'V1', sport: 'football', kind: 'team', id: '91004' },
            b: { version: 'V2', sport: 'football', kind: 'team', id: 970_004 },
            decision: 'confirm',
          },
          {
            a: { version: 'V2', sport: 'football', kind: 'team', id: '970005' },
            b: { version: 'V1', sport: 'football', kind: 'team', id: '91005' },
            decision: 'reject',
          },
        ],
      }),
    );
    stack = await startStack({
      env: {
        ...ONLY_LINKS_REMEMBER,
        COUNTERPART_LINKS_FILE: links,
        GATEWAY_CLIENT_KEYS: `small:${SMALL}:1,ops:ops-key-0001:100`,
      },
    });
  });
  afterAll(async () => {
    await stack.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a confirmed operator link spends 0 and is a match, both ways', async () => {
    const there = await ask(stack, v1Competitor(91_004), ['V2'], OPS);
    expect(there.result.errors).toBeUndefined();
    expect(there.cost).toMatchObject({ estimated: 0, upstreamRequests: 0 });
    expect(there.counts.total).toBe(0);
    expect(there.result.data?.counterparts).toEqual([
      {
        version: 'V2',
        nativeId: '970004',
        nodeId: v2Team(970_004),
        name: null,
        confidence: 1,
        evidence: 'OPERATOR',
        status: 'MATCH',
      },
    ]);
    const back = await ask(stack, v2Team(970_004), ['V1'], OPS);
    expect(back.cost).toMatchObject({ estimated: 0, upstreamRequests: 0 });
    expect(back.result.data?.counterparts).toEqual([
      expect.objectContaining({ nativeId: '91004', evidence: 'OPERATOR' }),
    ]);
  });

  it('a rejected link is never offered, even when the search finds it', async () => {
    const { result, counts } = await ask(stack, v2Team(970_005), ['V1'], OPS);
    expect(result.errors).toBeUndefined();
    expect(counts.byRoute['GET /search']).toBe(1);
    expect(result.data?.counterparts).toEqual([]);
  });

  it('a budget too small for the searches refuses before any request, like any field', async () => {
    const { result, counts } = await ask(stack, v2Team(970_002), ['V1', 'V3'], { authorization: `Bearer ${SMALL}` });
    expect(result.data ?? null).toBeNull();
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'QUOTA_EXHAUSTED', scope: 'client' });
    expect(counts.total).toBe(0);
  });

  it('a damaged store file is moved aside: the gateway starts, and the entity is searched for again', async () => {
    const learned = await ask(stack, v2Team(970_003), ['V1'], OPS);
    expect(learned.cost?.estimated).toBe(2);
    expect(learned.counts.byRoute['GET /search']).toBe(1);
    await stack.stopGateway();
    const file = join(stack.dataDir, 'counterparts.json');
    const whole = await readFile(file, 'utf8');
    await writeFile(file, whole.slice(0, whole.length / 2));
    await stack.restartGateway();
    expect((await readdir(stack.dataDir)).some((name) => name.startsWith('counterparts.json.damaged-'))).toBe(true);
    const again = await ask(stack, v2Team(970_003), ['V1'], OPS);
    expect(again.result.errors).toBeUndefined();
    expect(again.cost?.estimated).toBe(2);
    expect(again.counts.byRoute['GET /search']).toBe(1);
    expect(again.result.data?.counterparts).toEqual([
      expect.objectContaining({ nativeId: '91003', name: 'Manchester United', status: 'MATCH' }),
    ]);
  });
});

describe('counterparts on the alt data set', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: ONLY_LINKS_REMEMBER, sandbox: { dataset: 'alt' } });
  });
  afterAll(() => stack.close());

  it('its own variations: an affix (FC Porto / Porto), diacritics (Beşiktaş JK / Besiktas), a namesake pair (Nacional)', async () => {
    // From V1 (the competitor route gives a country): V2's "Porto" of Portugal is a match.
    const porto = await ask(stack, v1Competitor(93_102), ['V2', 'V3']);
    expect(porto.result.errors).toBeUndefined();
    expect(porto.result.data?.counterparts).toEqual([
      expect.objectContaining({ version: 'V2', nativeId: '975102', name: 'Porto', status: 'MATCH' }),
      expect.objectContaining({ version: 'V3', nativeId: '885102', name: 'FC Porto', status: 'CANDIDATE' }),
    ]);
    const besiktas = await ask(stack, v1Competitor(93_101), ['V2']);
    expect(besiktas.result.data?.counterparts).toEqual([
      expect.objectContaining({ nativeId: '975101', name: 'Besiktas', evidence: 'NAME_AND_COUNTRY', status: 'MATCH' }),
    ]);
    // The alt set's V2 team detail leaves `country` out: from V2 the same pair is only a candidate, never guessed.
    const fromV2 = await ask(stack, v2Team(975_102), ['V1']);
    expect(fromV2.result.data?.counterparts).toEqual([
      expect.objectContaining({ nativeId: '93102', evidence: 'NAME', status: 'CANDIDATE' }),
    ]);
    // V1 gives neither Nacional a country: both V2 clubs are candidates.
    const nacional = await ask(stack, v1Competitor(93_105), ['V2']);
    const found = nacional.result.data?.counterparts ?? [];
    expect(found.map((c) => c.nativeId).sort()).toEqual(['975104', '975105']);
    expect(found.every((c) => c.status === 'CANDIDATE')).toBe(true);
  });
});
