/**
 * Composition in CI (issue 17): the SDL the subgraph prints on
 * `_service { sdl }` composes, with The Guild's composition library, with a
 * second subgraph that holds sports-graph's entities by both keys
 * (test/support/fan-subgraph.ts). That library reports errors only, never
 * hints (its README: "does not support Hints"), so "without hints" cannot
 * be checked with it; every error it knows fails here.
 *
 * The schema is built in process, as the gateway builds it, for each
 * FEDERATION_HIDDEN setting; no server is needed.
 */
import { composeServices, type CompositionResult } from '@theguild/federation-composition';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { buildSchema, execute, isInterfaceType, isObjectType, parse, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { resolvers } from '../resolvers/index.js';
import { fieldGroups, nativeKeyTypes, shareableTypes, type FieldGroup } from '../src/federation/subgraph-sdl.js';
import { buildGatewaySubgraphSchema } from '../src/federation/subgraph-schema.js';
import { loadTypeDefs } from '../src/gateway/schema.js';
import { FAN_SDL } from './support/fan-subgraph.js';

const printed = new Map<string, Promise<string>>();

/** Built once per setting: building and printing takes a second or two. */
function printedSdl(hidden: readonly FieldGroup[]): Promise<string> {
  const key = hidden.join(',');
  let sdl = printed.get(key);
  if (sdl === undefined) {
    sdl = print(hidden);
    printed.set(key, sdl);
  }
  return sdl;
}

async function print(hidden: readonly FieldGroup[]): Promise<string> {
  const schema = buildGatewaySubgraphSchema(loadTypeDefs(), resolvers, { hidden });
  const result = await execute({ schema, document: parse('{ _service { sdl } }') });
  expect(result.errors).toBeUndefined();
  return (result.data as { _service: { sdl: string } })._service.sdl;
}

async function compose(hidden: readonly FieldGroup[]): Promise<CompositionResult> {
  return composeServices([
    { name: 'sports', typeDefs: parse(await printedSdl(hidden)), url: 'http://127.0.0.1:4000/subgraph' },
    { name: 'fans', typeDefs: parse(FAN_SDL), url: 'http://127.0.0.1:4100/graphql' },
  ]);
}

/** The supergraph's API schema: what a router's clients see. */
function publicSchema(result: CompositionResult): GraphQLSchema {
  expect(result.errors).toBeUndefined();
  return buildSchema(result.publicSdl!);
}

/** Every `Type.field` of object and interface types named `name`. */
function fieldsNamed(schema: GraphQLSchema, name: string): string[] {
  return Object.values(schema.getTypeMap())
    .filter((type) => (isObjectType(type) || isInterfaceType(type)) && !type.name.startsWith('__'))
    .flatMap((type) =>
      name in (type as { getFields(): Record<string, unknown> }).getFields() ? [`${type.name}.${name}`] : [],
    );
}

describe('the federation tables', () => {
  it('name only real types and fields of the schema', () => {
    const schema = makeExecutableSchema({ typeDefs: loadTypeDefs() });
    const node = schema.getType('Node');
    if (!isInterfaceType(node)) throw new Error('no Node interface');
    const nodeTypes = new Set(schema.getPossibleTypes(node).map((type) => type.name));
    expect(Object.keys(nativeKeyTypes).filter((name) => !nodeTypes.has(name))).toEqual([]);
    expect(shareableTypes.filter((name) => !isObjectType(schema.getType(name)))).toEqual([]);
    for (const members of Object.values(fieldGroups)) {
      expect((members.types ?? []).filter((name) => schema.getType(name) === undefined)).toEqual([]);
      const missing = (members.fields ?? []).filter((path) => {
        const [typeName = '', fieldName = ''] = path.split('.');
        const type = schema.getType(typeName);
        return !((isObjectType(type) || isInterfaceType(type)) && type.getFields()[fieldName] !== undefined);
      });
      expect(missing).toEqual([]);
      if (members.fieldNamed !== undefined) expect(fieldsNamed(schema, members.fieldNamed).length).toBeGreaterThan(0);
    }
  });
});

describe('composition with a second subgraph', () => {
  it('composes without errors; the fan subgraph reaches our entities by global ID (Team) and by native key', async () => {
    const result = await compose(['operational']);
    expect(result.errors?.map((e) => e.message)).toBeUndefined();
    const api = publicSchema(result);
    const fan = api.getType('FanProfile');
    if (!isObjectType(fan)) throw new Error('FanProfile is not in the supergraph');
    expect(String(fan.getFields()['favouriteTeam']?.type)).toBe('Team');
    expect(String(fan.getFields()['followedAthletes']?.type)).toBe('[V1HockeyAthlete!]!');
    // The composed types are ours, whole: the fan subgraph's stubs add nothing but their keys.
    const athlete = api.getType('V1HockeyAthlete');
    expect(isObjectType(athlete) && Object.keys(athlete.getFields())).toEqual(
      expect.arrayContaining(['id', 'ref', 'name', 'position']),
    );
    // The router's machinery stays out of the API; both keys are in the supergraph for the router.
    expect(api.getQueryType()?.getFields()['_entities']).toBeUndefined();
    const v2Team = /type V2Team implements Node & Team ([^\n]*)\n/.exec(result.supergraphSdl ?? '')?.[1] ?? '';
    expect(v2Team).toContain('@join__type(graph: SPORTS, key: "id")');
    expect(v2Team).toContain('@join__type(graph: SPORTS, key: "ref { version nativeId sport }")');
    expect(v2Team).toContain('@join__type(graph: FANS, key: "ref { version nativeId sport }", resolvable: false)');
    expect(result.supergraphSdl).toContain(
      'interface Team @join__type(graph: FANS, key: "id", isInterfaceObject: true) @join__type(graph: SPORTS, key: "id")',
    );
  });

  it('keeps the operational fields (the allowance, cost previews) out of the API by default, tagged either way', async () => {
    const api = publicSchema(await compose(['operational']));
    expect(api.getQueryType()?.getFields()['quota']).toBeUndefined();
    expect(api.getSubscriptionType()?.getFields()['quotaUpdates']).toBeUndefined();
    expect(api.getType('Quota')).toBeUndefined();
    expect(fieldsNamed(api, 'seasonAggregatesCost')).toEqual([]);
    // Everything else of ours is there, subscriptions included.
    expect(api.getSubscriptionType()?.getFields()['oddsSnapshots']).toBeDefined();
    expect(fieldsNamed(api, 'raw').length).toBeGreaterThan(30);

    const shown = publicSchema(await compose([]));
    expect(shown.getQueryType()?.getFields()['quota']).toBeDefined();
    expect(fieldsNamed(shown, 'seasonAggregatesCost')).toEqual(['HockeyV2Team.seasonAggregatesCost']);
    expect(await printedSdl([])).toContain('quota: Quota! @tag(name: "operational")\n');
  });

  it('hides every raw upstream payload with FEDERATION_HIDDEN=operational,raw', async () => {
    const api = publicSchema(await compose(['operational', 'raw']));
    expect(fieldsNamed(api, 'raw')).toEqual([]);
    expect(api.getQueryType()?.getFields()['quota']).toBeUndefined();
    expect(fieldsNamed(api, 'name').length).toBeGreaterThan(30);
  });

  it('fails composition when the other subgraph disagrees on a shared value type (the check can fail)', async () => {
    const broken = FAN_SDL.replace('nativeId: String!', 'nativeId: Int!');
    expect(broken).not.toBe(FAN_SDL);
    const result = composeServices([
      { name: 'sports', typeDefs: parse(await printedSdl(['operational'])), url: 'http://127.0.0.1:4000/subgraph' },
      { name: 'fans', typeDefs: parse(broken), url: 'http://127.0.0.1:4100/graphql' },
    ]);
    expect(result.errors?.map((e) => e.message)).toEqual([
      'Type of field "Ref.nativeId" is incompatible across subgraphs: it has type "Int!" in subgraph "fans" but type "String!" in subgraph "sports"',
    ]);
  });
});
