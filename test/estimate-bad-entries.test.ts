/**
 * A bad entry in a list (issue 35, item 1) is refused in its own slot and
 * costs its own share: it never makes the estimate of the rest fall to
 * zero. `nodes(ids:)`, `_entities(representations:)` and `athletes(ids:)`
 * with one refused entry beside many good ones are estimated as if it were
 * absent (so the per-operation limit still holds), and a type name that is
 * an Object.prototype member (`constructor`, `hasOwnProperty`) is a coded
 * refusal, not an internal error.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toGlobalId } from '../src/model/global-id.js';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { gql, gqlAt, requestCounts, resetCounts, type GraphQLResponse } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

type Json = Record<string, unknown>;

const athleteId = (offset: number): number => hockeyV1Ids.firstAthleteId + offset;
const athleteGlobalId = (offset: number): string =>
  toGlobalId({ version: 'v1', sport: 'hockey', typeName: 'V1HockeyAthlete', nativeId: String(athleteId(offset)) });
const prototypeTypedId = (typeName: string): string =>
  toGlobalId({ version: 'v1', sport: 'hockey', typeName, nativeId: '1' });
const athleteRef = (offset: number): Json => ({
  __typename: 'V1HockeyAthlete',
  ref: { version: 'V1', nativeId: String(athleteId(offset)), sport: 'hockey' },
});

const NODES = 'query ($ids: [ID!]!) { nodes(ids: $ids) { id } }';
const ENTITIES = 'query ($r: [_Any!]!) { _entities(representations: $r) { ... on V1HockeyAthlete { name } } }';
const ATHLETES = 'query ($ids: [ID!]!) { v1 { hockey { athletes(ids: $ids) { name } } } }';

const costOf = (response: GraphQLResponse<unknown>): { estimated: number; upstreamRequests: number } =>
  (response.extensions as { cost: { estimated: number; upstreamRequests: number } }).cost;
const codes = (response: GraphQLResponse<unknown>): unknown[] =>
  (response.errors ?? []).map((error) => error.extensions?.['code']);

describe('a bad entry in a list is refused in its own slot, and the rest is costed', () => {
  let stack: TestStack;
  let subgraph: string;
  // Each run uses athletes no earlier run loaded: the estimate then counts each one.
  let nextOffset = 0;
  const fresh = (n: number): number[] => Array.from({ length: n }, () => nextOffset++);

  beforeAll(async () => {
    stack = await startStack({ env: { GATEWAY_MAX_OPERATION_COST: '50' } });
    subgraph = `${stack.gateway.url}/subgraph`;
  });
  afterAll(() => stack.close());

  it('nodes(ids:) with one malformed ID beside 60 good ones is refused by the cost limit, nothing sent', async () => {
    await resetCounts(stack.sandbox.url);
    const ids = ['x', ...fresh(60).map(athleteGlobalId)];
    const response = await gql(stack.gateway.url, NODES, { ids });
    expect(codes(response)).toEqual(['COST_LIMIT_EXCEEDED']);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('_entities with one representation without a key beside 60 good ones is refused by the cost limit, nothing sent', async () => {
    await resetCounts(stack.sandbox.url);
    const representations = [{ __typename: 'V1HockeyAthlete' }, ...fresh(60).map(athleteRef)];
    const response = await gqlAt(subgraph, ENTITIES, { r: representations });
    expect(codes(response)).toEqual(['COST_LIMIT_EXCEEDED']);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('athletes(ids:) refuses a bad ID in its own slot; the others answer and are estimated exactly', async () => {
    await resetCounts(stack.sandbox.url);
    const [a, b] = fresh(2) as [number, number];
    const response = await gql<{ v1: { hockey: { athletes: Array<{ name: string } | null> } } }>(
      stack.gateway.url,
      ATHLETES,
      {
        ids: [String(athleteId(a)), 'not-a-number', String(athleteId(b))],
      },
    );
    expect(response.data?.v1.hockey.athletes.map((athlete) => athlete === null)).toEqual([false, true, false]);
    expect(response.errors?.map((error) => [error.path, error.extensions?.['code']])).toEqual([
      [['v1', 'hockey', 'athletes', 1], 'BAD_USER_INPUT'],
    ]);
    expect(costOf(response)).toMatchObject({ estimated: 2, upstreamRequests: 2 });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(2);
  });

  it.each(['constructor', 'hasOwnProperty', '__proto__', 'toString'])(
    'a type name of %s is a coded refusal in its slot, never an internal error',
    async (typeName) => {
      const before = stack.logs.length;
      const [good] = fresh(1) as [number];
      const nodes = await gql<{ nodes: Array<{ id: string } | null> }>(stack.gateway.url, NODES, {
        ids: [prototypeTypedId(typeName), athleteGlobalId(good)],
      });
      expect(nodes.data?.nodes.map((node) => node === null)).toEqual([true, false]);
      expect(nodes.errors?.map((error) => [error.path, error.extensions?.['code']])).toEqual([
        [['nodes', 0], 'BAD_USER_INPUT'],
      ]);

      const representations = [
        { __typename: typeName, id: athleteGlobalId(good) },
        { __typename: 'V1HockeyAthlete', id: prototypeTypedId(typeName) },
        { __typename: 'Node', id: prototypeTypedId(typeName) },
        { __typename: typeName, ref: { version: 'V1', nativeId: '1', sport: 'hockey' } },
        athleteRef(good),
      ];
      const entities = await gqlAt<{ _entities: unknown[] }>(subgraph, ENTITIES, { r: representations });
      expect(entities.data?._entities.map((entity) => entity === null)).toEqual([true, true, true, true, false]);
      expect(codes(entities)).toEqual(['BAD_USER_INPUT', 'BAD_USER_INPUT', 'BAD_USER_INPUT', 'BAD_USER_INPUT']);
      const internal = stack.logs
        .slice(before)
        .filter((line) => /INTERNAL_SERVER_ERROR|is not a function|"level":50/.test(line));
      expect(internal).toEqual([]);
    },
  );

  it('property: for any mix of good and bad entries, the estimate is at least what the operation spent', async () => {
    const badId = fc.constantFrom(
      'x',
      '',
      prototypeTypedId('constructor'),
      prototypeTypedId('hasOwnProperty'),
      prototypeTypedId('NotAType'),
    );
    const badRepresentation = fc.constantFrom<Json>(
      { __typename: 'V1HockeyAthlete' },
      { __typename: 'constructor', id: 'x' },
      { __typename: 'hasOwnProperty', ref: { version: 'V1', nativeId: '1', sport: 'hockey' } },
      { __typename: 'V2Team', ref: { version: 'V1', nativeId: '1', sport: 'hockey' } },
      { id: 'x' },
    );
    // true: a good entry (a fresh athlete, or one loaded before); false: a bad one.
    const entries = fc.array(
      fc.oneof(fc.constant<'fresh'>('fresh'), fc.constant<'repeat'>('repeat'), fc.constant<'bad'>('bad')),
      { minLength: 1, maxLength: 12 },
    );
    await fc.assert(
      fc.asyncProperty(
        entries,
        badId,
        badRepresentation,
        fc.constantFrom('nodes', 'entities', 'athletes'),
        async (kinds, bad, badRep, door) => {
          await resetCounts(stack.sandbox.url);
          const offsets = kinds.map((kind) => (kind === 'fresh' ? nextOffset++ : kind === 'repeat' ? 0 : -1));
          let response: GraphQLResponse<unknown>;
          if (door === 'nodes')
            response = await gql(stack.gateway.url, NODES, {
              ids: offsets.map((o) => (o < 0 ? bad : athleteGlobalId(o))),
            });
          else if (door === 'athletes')
            response = await gql(stack.gateway.url, ATHLETES, {
              ids: offsets.map((o) => (o < 0 ? 'bad' : String(athleteId(o)))),
            });
          else response = await gqlAt(subgraph, ENTITIES, { r: offsets.map((o) => (o < 0 ? badRep : athleteRef(o))) });
          const sent = (await requestCounts(stack.sandbox.url)).total;
          const cost = costOf(response);
          expect(cost.upstreamRequests).toBe(sent);
          expect(cost.estimated).toBeGreaterThanOrEqual(sent);
          // Every good entry answers; every bad one is refused in its own slot with a code.
          expect(codes(response).every((code) => code === 'BAD_USER_INPUT')).toBe(true);
          expect(codes(response)).toHaveLength(offsets.filter((o) => o < 0).length);
        },
      ),
      { numRuns: 40 },
    );
  });
});
