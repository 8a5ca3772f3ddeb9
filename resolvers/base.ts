/**
 * Cross-version root fields: `node`, `nodes`, `sports`, scalars, interfaces.
 */
import { DateTimeResolver, JSONResolver } from 'graphql-scalars';
import type { GraphQLSchema } from 'graphql';
import type { GatewayContext } from '../src/context.js';
import type { Resolvers, ResolversInterfaceTypes, Sport } from '../src/generated/resolvers-types.js';
import { fromGlobalId } from '../src/model/global-id.js';
import { locateNode } from '../src/model/node-sources.js';
import { typeOf } from '../src/model/typename.js';
import { referenceRoutes, type SportReference } from '../src/upstream/routes/reference.js';

type AnyNode = ResolversInterfaceTypes<Record<string, unknown>>['Node'];

/** The located entity is tagged with its type (node-sources.ts), which `Node.__resolveType` reads. */
async function resolveNode(id: string, ctx: GatewayContext): Promise<AnyNode> {
  return (await locateNode(ctx, fromGlobalId(id))) as AnyNode;
}

function sportEnumValue(schema: GraphQLSchema, reference: SportReference): Sport | null {
  const value = reference.sport.toUpperCase();
  const enumType = schema.getType('Sport');
  if (enumType === undefined || !('getValue' in enumType)) return null;
  return enumType.getValue(value) === undefined ? null : (value as Sport);
}

export const baseResolvers: Resolvers = {
  DateTime: DateTimeResolver,
  JSON: JSONResolver,
  Node: { __resolveType: (node) => typeOf(node) as never },
  Team: { __resolveType: (team) => typeOf(team) as never },
  Person: { __resolveType: (person) => typeOf(person) as never },
  Query: {
    node: (_, { id }, ctx) => resolveNode(id, ctx),
    nodes: (_, { ids }, ctx) => ids.map((id) => resolveNode(id, ctx)),
    sports: async (_, __, ctx, info) => {
      const payload = await ctx.upstream.load(referenceRoutes.sports, {});
      // A sport the upstream added after this schema was written is left out, not an error.
      return payload.sports.filter((entry) => sportEnumValue(info.schema, entry) !== null);
    },
    sport: async (_, { sport }, ctx) => {
      const payload = await ctx.upstream.load(referenceRoutes.sports, {});
      return payload.sports.find((entry) => entry.sport.toUpperCase() === sport) ?? null;
    },
  },
  SportInfo: {
    sport: (reference) => reference.sport.toUpperCase() as Sport,
    name: (reference) => reference.name,
    slugs: (reference) => reference.slugs,
  },
};
