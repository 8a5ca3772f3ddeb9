/**
 * The Federation v2 subgraph on `/subgraph` (issue 17), asked directly as
 * a router asks it: `_service { sdl }` and `_entities(representations:)`.
 * Entities resolve through node(id:)'s sources, loaders, cache and ledger:
 * upstream requests are counted exactly, and each representation keeps its
 * version's identity. `/graphql` stays the stand-alone schema.
 */
import { Kind, parse, type ConstDirectiveNode, type DocumentNode, type ObjectTypeDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { nativeKeyTypes } from '../src/federation/subgraph-sdl.js';
import { toGlobalId } from '../src/model/global-id.js';
import { aussieRulesIds } from '../sandbox/fixtures/aussie-rules.js';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { hockeyV2Ids } from '../sandbox/fixtures/hockey-v2.js';
import { gql, gqlAt, requestCounts, resetCounts, type GraphQLResponse } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

type Json = Record<string, unknown>;

interface Cost {
  estimated: number;
  upstreamRequests: number;
}

const costOf = (response: GraphQLResponse<unknown>): Cost => (response.extensions as { cost: Cost }).cost;

const ENTITIES = `query ($r: [_Any!]!) { _entities(representations: $r) {
  __typename
  ... on Node { id }
  ... on Team { name ref { version nativeId sport } }
  ... on Person { name ref { version nativeId sport } }
  ... on Event { ref { version nativeId sport } }
  ... on Competition { name ref { version nativeId sport } }
} }`;

const ATHLETE_NAMES = `query ($r: [_Any!]!) { _entities(representations: $r) { ... on V1HockeyAthlete { ref { nativeId } name } } }`;
const athleteRef = (offset: number): Json => ({
  __typename: 'V1HockeyAthlete',
  ref: { version: 'V1', nativeId: String(hockeyV1Ids.firstAthleteId + offset), sport: 'hockey' },
});

/** The V1 hockey competitor 3401 and the V2 hockey team 3401: one native ID, one sport slug, two versions. */
const SHARED_NATIVE_ID = String(hockeyV1Ids.firstTopLeagueTeamId);
const v1CompetitorId = toGlobalId({
  version: 'v1',
  sport: 'hockey',
  typeName: 'V1HockeyCompetitor',
  nativeId: SHARED_NATIVE_ID,
  via: { competition: String(hockeyV1Ids.topLeague.standingsId), season: String(hockeyV1Ids.currentSeason) },
});
const v2TeamId = toGlobalId({ version: 'v2', sport: 'hockey', typeName: 'V2Team', nativeId: SHARED_NATIVE_ID });

const keysOf = (node: { directives?: readonly ConstDirectiveNode[] | undefined }): string[] =>
  (node.directives ?? [])
    .filter((d) => d.name.value === 'key')
    .map((d) => {
      const fields = d.arguments?.find((a) => a.name.value === 'fields')?.value;
      return fields?.kind === Kind.STRING ? fields.value : '';
    });

const directivesOf = (document: DocumentNode, typeName: string): string[] =>
  document.definitions.flatMap((d) =>
    'name' in d && d.name?.value === typeName && 'directives' in d ? (d.directives ?? []).map((x) => x.name.value) : [],
  );

describe('the federation subgraph on /subgraph', () => {
  let stack: TestStack;
  let subgraph: string;

  beforeAll(async () => {
    stack = await startStack({ env: { GATEWAY_MAX_OPERATION_COST: '100' } });
    subgraph = `${stack.gateway.url}/subgraph`;
  });
  afterAll(() => stack.close());

  it('prints Federation v2 SDL: @link, an id key on every Node type, the native key where the upstream ID finds the entity alone', async () => {
    const printed = await gqlAt<{ _service: { sdl: string } }>(subgraph, '{ _service { sdl } }');
    expect(printed.errors).toBeUndefined();
    const sdl = parse(printed.data!._service.sdl);
    expect(printed.data!._service.sdl).toContain('@link(url: "https://specs.apollo.dev/federation/v2.3"');

    const introspection = await gql<{ __type: { possibleTypes: Array<{ name: string }> } }>(
      stack.gateway.url,
      '{ __type(name: "Node") { possibleTypes { name } } }',
    );
    const nodeTypes = introspection.data!.__type.possibleTypes.map((t) => t.name).sort();
    expect(nodeTypes.length).toBeGreaterThanOrEqual(20);
    const objects = new Map(
      sdl.definitions
        .filter((d): d is ObjectTypeDefinitionNode => d.kind === Kind.OBJECT_TYPE_DEFINITION)
        .map((d) => [d.name.value, d]),
    );
    for (const type of nodeTypes) {
      const expected = nativeKeyTypes[type] === undefined ? ['id'] : ['id', 'ref { version nativeId sport }'];
      expect(keysOf(objects.get(type)!), type).toEqual(expected);
    }
    // Native keys only on Node types, and only on those with a route of their own.
    expect(Object.keys(nativeKeyTypes).every((type) => nodeTypes.includes(type))).toBe(true);
    expect(nativeKeyTypes['V1HockeyCompetitor']).toBeUndefined();
    for (const entityInterface of ['Node', 'Team', 'Person', 'Competition', 'Venue', 'Event']) {
      const definition = sdl.definitions.find(
        (d) => d.kind === Kind.INTERFACE_TYPE_DEFINITION && d.name.value === entityInterface,
      );
      expect(keysOf(definition as ObjectTypeDefinitionNode), entityInterface).toEqual(['id']);
    }
    expect(directivesOf(sdl, 'Ref')).toEqual(['shareable']);
    // Hidden by default: the allowance is the gateway's own business.
    expect(directivesOf(sdl, 'Quota')).toEqual(['tag', 'inaccessible']);
  });

  it('leaves /graphql the stand-alone schema: no _service, _entities or federation types there', async () => {
    const refused = await gql(stack.gateway.url, '{ _service { sdl } }');
    expect(refused.status).toBe(400);
    expect(refused.errors?.[0]?.extensions?.['code']).toBe('GRAPHQL_VALIDATION_FAILED');
    for (const name of ['_Any', '_Entity', '_Service']) {
      // One introspection field per operation: aliased ones are refused (src/plugins/use-introspection-bounds.ts).
      expect((await gql(stack.gateway.url, `{ __type(name: "${name}") { name } }`)).data, name).toEqual({
        __type: null,
      });
    }
  });

  it('resolves a mix of versions in one _entities call, in order, each keeping its own identity; one request per resource', async () => {
    const v3Match = [...stack.sandbox.fixtures.otherSports.v3.matches.values()][0]!;
    const v6Match = stack.sandbox.fixtures.otherSports.baseballV6.matches[0]!;
    const representations: Json[] = [
      { __typename: 'V2Team', ref: { version: 'V2', nativeId: SHARED_NATIVE_ID, sport: 'hockey' } },
      { __typename: 'Team', id: v1CompetitorId },
      { __typename: 'V1HockeyCompetitor', id: v1CompetitorId },
      { __typename: 'Team', id: v2TeamId },
      athleteRef(0),
      { __typename: 'V3Event', ref: { version: 'V3', nativeId: String(v3Match.id), sport: v3Match.sport } },
      { __typename: 'V6BaseballMatch', ref: { version: 'V6', nativeId: v6Match.id, sport: null } },
      {
        __typename: 'AussieRulesCoach',
        ref: { version: 'V2', nativeId: String(aussieRulesIds.firstCoach), sport: 'aussie-rules' },
      },
    ];
    await resetCounts(stack.sandbox.url);
    const result = await gqlAt<{ _entities: Json[] }>(subgraph, ENTITIES, { r: representations });
    expect(result.errors).toBeUndefined();
    const entities = result.data!._entities;
    expect(entities.map((e) => e['__typename'])).toEqual([
      'V2Team',
      'V1HockeyCompetitor',
      'V1HockeyCompetitor',
      'V2Team',
      'V1HockeyAthlete',
      'V3Event',
      'V6BaseballMatch',
      'AussieRulesCoach',
    ]);
    expect(entities.map((e) => (e['ref'] as Json)['version'])).toEqual([
      'V2',
      'V1',
      'V1',
      'V2',
      'V1',
      'V3',
      'V6',
      'V2',
    ]);
    expect(entities.map((e) => (e['ref'] as Json)['nativeId'])).toEqual([
      SHARED_NATIVE_ID,
      SHARED_NATIVE_ID,
      SHARED_NATIVE_ID,
      SHARED_NATIVE_ID,
      String(hockeyV1Ids.firstAthleteId),
      String(v3Match.id),
      v6Match.id,
      String(aussieRulesIds.firstCoach),
    ]);
    // One native ID, two versions: two entities, each fetched back by its own ID.
    expect(entities[1]!['id']).toBe(v1CompetitorId);
    expect(entities[3]!['id']).toBe(v2TeamId);
    expect(entities[0]!['id']).toBe(v2TeamId);
    expect(entities[0]!['name']).not.toBe(entities[1]!['name']);
    expect((await requestCounts(stack.sandbox.url)).byRoute).toEqual({
      [`GET /v2/hockey/api/teams/${SHARED_NATIVE_ID}`]: 1,
      'GET /v1/hockey/standings': 1,
      'GET /v1/hockey/athletes': 1,
      [`GET /v3/match/${v3Match.id}`]: 1,
      [`GET /v6/baseball/api/v1/match/${v6Match.id}`]: 1,
      [`GET /v2/aussie-rules/api/manager/${aussieRulesIds.firstCoach}`]: 1,
    });
    expect(costOf(result)).toMatchObject({ estimated: 6, upstreamRequests: 6 });
  });

  it('answers cached representations with 0 upstream requests, estimated 0, whichever door cached them', async () => {
    // Cached by /graphql: a V2 team and a hockey athlete.
    const viaGraphql = await gql(
      stack.gateway.url,
      `{ v2(sport: ICE_HOCKEY) { team(id: ${hockeyV2Ids.firstTeam + 1}) { id } } v1 { hockey { athlete(id: ${hockeyV1Ids.firstAthleteId + 1}) { id } } } }`,
    );
    expect(viaGraphql.errors).toBeUndefined();
    await resetCounts(stack.sandbox.url);
    const representations = [
      { __typename: 'V2Team', ref: { version: 'V2', nativeId: String(hockeyV2Ids.firstTeam + 1), sport: 'hockey' } },
      athleteRef(1),
      // Cached by the previous test.
      { __typename: 'Team', id: v1CompetitorId },
      athleteRef(0),
    ];
    const result = await gqlAt<{ _entities: Json[] }>(subgraph, ENTITIES, { r: representations });
    expect(result.errors).toBeUndefined();
    expect(result.data!._entities.map((e) => (e['ref'] as Json)['nativeId'])).toEqual([
      String(hockeyV2Ids.firstTeam + 1),
      String(hockeyV1Ids.firstAthleteId + 1),
      SHARED_NATIVE_ID,
      String(hockeyV1Ids.firstAthleteId),
    ]);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
    expect(costOf(result)).toMatchObject({ estimated: 0, upstreamRequests: 0 });
  });

  it('costs what nodes(ids:) of the same entities costs: 100 distinct uncached athletes are 100 requests, estimated 100; past the limit both are refused', async () => {
    const first = Array.from({ length: 100 }, (_, i) => athleteRef(100 + i));
    await resetCounts(stack.sandbox.url);
    const entities = await gqlAt<{ _entities: Json[] }>(subgraph, ATHLETE_NAMES, { r: first });
    expect(entities.errors).toBeUndefined();
    expect(entities.data!._entities.map((e) => (e['ref'] as Json)['nativeId'])).toEqual(
      first.map((r) => (r['ref'] as Json)['nativeId']),
    );
    expect((await requestCounts(stack.sandbox.url)).byRoute).toEqual({ 'GET /v1/hockey/athletes': 100 });
    expect(costOf(entities)).toMatchObject({ estimated: 100, upstreamRequests: 100 });

    const nodeIds = Array.from({ length: 100 }, (_, i) =>
      toGlobalId({
        version: 'v1',
        sport: 'hockey',
        typeName: 'V1HockeyAthlete',
        nativeId: String(hockeyV1Ids.firstAthleteId + 200 + i),
      }),
    );
    await resetCounts(stack.sandbox.url);
    const nodes = await gql<{ nodes: Json[] }>(
      stack.gateway.url,
      'query ($ids: [ID!]!) { nodes(ids: $ids) { ... on V1HockeyAthlete { name } } }',
      { ids: nodeIds },
    );
    expect(nodes.errors).toBeUndefined();
    expect((await requestCounts(stack.sandbox.url)).byRoute).toEqual({ 'GET /v1/hockey/athletes': 100 });
    expect(costOf(nodes)).toMatchObject({
      estimated: costOf(entities).estimated,
      upstreamRequests: costOf(entities).upstreamRequests,
    });

    // The same 100 again, each twice: cached, so free.
    await resetCounts(stack.sandbox.url);
    const again = await gqlAt<{ _entities: Json[] }>(subgraph, ATHLETE_NAMES, { r: [...first, ...first] });
    expect(again.errors).toBeUndefined();
    expect(again.data!._entities).toHaveLength(200);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
    expect(costOf(again)).toMatchObject({ estimated: 0, upstreamRequests: 0 });

    // 101 uncached: past GATEWAY_MAX_OPERATION_COST (100 here), refused before any request, as nodes(ids:) is.
    const tooMany = Array.from({ length: 101 }, (_, i) => athleteRef(300 + i));
    const refused = await gqlAt(subgraph, ATHLETE_NAMES, { r: tooMany });
    expect(refused.status).toBe(400);
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'COST_LIMIT_EXCEEDED' });
    const refusedNodes = await gql(stack.gateway.url, 'query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
      ids: Array.from({ length: 101 }, (_, i) =>
        toGlobalId({
          version: 'v1',
          sport: 'hockey',
          typeName: 'V1HockeyAthlete',
          nativeId: String(hockeyV1Ids.firstAthleteId + 300 + i),
        }),
      ),
    });
    expect(refusedNodes.errors?.[0]?.extensions).toMatchObject({ code: 'COST_LIMIT_EXCEEDED' });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('refuses a bad representation with a coded error in its own slot, before any request; its neighbours resolve', async () => {
    const bad: Array<[Json | string, string]> = [
      [
        { __typename: 'V2Team', ref: { version: 'V1', nativeId: SHARED_NATIVE_ID, sport: 'hockey' } },
        'its `ref.version` must be V2',
      ],
      [{ __typename: 'V2Team', ref: { version: 'V2', nativeId: SHARED_NATIVE_ID, sport: null } }, 'needs `ref.sport`'],
      [{ __typename: 'V2Team', ref: { version: 'V2', nativeId: '', sport: 'hockey' } }, 'non-empty string'],
      [{ __typename: 'V2Team', ref: { version: 'V2', nativeId: '1', sport: '../x' } }, 'Not a sports-graph global ID'],
      [
        { __typename: 'AussieRulesCoach', ref: { version: 'V2', nativeId: '1', sport: 'football' } },
        'served under the sport `aussie-rules` only',
      ],
      [
        { __typename: 'V1HockeyCompetitor', ref: { version: 'V1', nativeId: SHARED_NATIVE_ID, sport: 'hockey' } },
        'has no `ref` key',
      ],
      [{ __typename: 'V2Team' }, 'needs its `id` or its `ref'],
      [{ __typename: 'V2Team', id: v1CompetitorId }, 'This ID names a V1HockeyCompetitor, not a V2Team'],
      [{ __typename: 'Person', id: v1CompetitorId }, 'not a Person'],
      [{ __typename: 'V2Team', id: 'not-an-id' }, 'Not a sports-graph global ID'],
      [{ __typename: 'FanProfile', id: '1' }, 'FanProfile is not an entity of this subgraph'],
      [{ __typename: 'Ref', ref: {} }, 'Ref is not an entity of this subgraph'],
      [{ id: v2TeamId }, 'must be an object with a `__typename`'],
      ['V2Team', 'must be an object with a `__typename`'],
    ];
    const good = athleteRef(0);
    await resetCounts(stack.sandbox.url);
    const result = await gqlAt<{ _entities: Array<Json | null> }>(subgraph, ENTITIES, {
      r: [good, ...bad.map(([r]) => r), good],
    });
    expect(result.status).toBe(200);
    expect(result.data!._entities[0]).toMatchObject({ __typename: 'V1HockeyAthlete' });
    expect(result.data!._entities.at(-1)).toMatchObject({ __typename: 'V1HockeyAthlete' });
    expect(result.data!._entities.slice(1, -1)).toEqual(bad.map(() => null));
    const errors = [...(result.errors ?? [])].sort((a, b) => Number(a.path?.[1]) - Number(b.path?.[1]));
    expect(errors.map((e) => e.path)).toEqual(bad.map((_, i) => ['_entities', i + 1]));
    bad.forEach(([, message], i) => {
      expect(errors[i]?.message, JSON.stringify(bad[i]![0])).toContain(message);
      expect(errors[i]?.extensions?.['code'], JSON.stringify(bad[i]![0])).toBe('BAD_USER_INPUT');
    });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
    expect(costOf(result)).toMatchObject({ estimated: 0, upstreamRequests: 0 });
  });

  it('answers NOT_FOUND in its slot for a well-formed key that names nothing, charged as node(id:) would be', async () => {
    await resetCounts(stack.sandbox.url);
    const result = await gqlAt<{ _entities: Array<Json | null> }>(subgraph, ATHLETE_NAMES, {
      r: [{ __typename: 'V1HockeyAthlete', ref: { version: 'V1', nativeId: '1', sport: 'hockey' } }],
    });
    expect(result.data!._entities).toEqual([null]);
    expect(result.errors?.[0]).toMatchObject({ path: ['_entities', 0], extensions: { code: 'NOT_FOUND' } });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(1);
    expect(costOf(result)).toMatchObject({ estimated: 1, upstreamRequests: 1 });
  });

  it('is switched off by FEDERATION_SUBGRAPH=false: /subgraph answers a coded 404, /graphql is unchanged', async () => {
    await stack.stopGateway();
    await stack.restartGateway({ FEDERATION_SUBGRAPH: 'false' });
    try {
      const response = await fetch(`${stack.gateway.url}/subgraph`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query":"{ _service { sdl } }"}',
      });
      expect(response.status).toBe(404);
      const body = (await response.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
      expect(body.errors[0]).toMatchObject({ extensions: { code: 'NOT_FOUND' } });
      expect(body.errors[0]?.message).toContain('FEDERATION_SUBGRAPH');
      expect((await gql(stack.gateway.url, '{ __typename }')).data).toEqual({ __typename: 'Query' });
    } finally {
      await stack.stopGateway();
      await stack.restartGateway();
    }
  });
});

describe('federation configuration', () => {
  const base = { SPORTS_API_KEY: 'k', SPORTS_API_BASE_URL: 'http://127.0.0.1:1' };

  it('hides the operational group by default; takes a list of groups, or none', () => {
    expect(loadConfig(base).federation).toEqual({ subgraph: true, hidden: ['operational'] });
    expect(loadConfig({ ...base, FEDERATION_HIDDEN: 'raw, operational,raw' }).federation.hidden).toEqual([
      'raw',
      'operational',
    ]);
    expect(loadConfig({ ...base, FEDERATION_HIDDEN: 'none' }).federation.hidden).toEqual([]);
    expect(loadConfig({ ...base, FEDERATION_SUBGRAPH: 'false' }).federation.subgraph).toBe(false);
  });

  it('refuses an unknown group, naming the variable and what it takes', () => {
    expect(() => loadConfig({ ...base, FEDERATION_HIDDEN: 'operational,quota' })).toThrow(
      /FEDERATION_HIDDEN takes operational, raw \(comma separated\) or none, got "quota"/,
    );
    expect(() => loadConfig({ ...base, FEDERATION_SUBGRAPH: 'maybe' })).toThrow(
      /FEDERATION_SUBGRAPH must be true or false/,
    );
  });
});
