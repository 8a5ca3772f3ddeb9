/**
 * Cross-version root fields: `node`, `nodes`, `sports`, scalars, interfaces.
 */
import { DateTimeResolver, JSONResolver } from 'graphql-scalars';
import type { ResolverContext } from '../src/context.js';
import type { Resolvers, ResolversInterfaceTypes, Sport } from '../src/generated/resolvers-types.js';
import { fromGlobalId } from '../src/model/global-id.js';
import { locateNode } from '../src/model/node-sources.js';
import {
  catalogueEntries,
  findEntry,
  sportChoice,
  sportEnumValues,
  sportOfEntry,
} from '../src/model/sport-catalogue.js';
import { typeOf } from '../src/model/typename.js';

type AnyNode = ResolversInterfaceTypes<Record<string, unknown>>['Node'];

/** The located entity is tagged with its type (node-sources.ts), which `Node.__resolveType` reads. */
async function resolveNode(id: string, ctx: ResolverContext): Promise<AnyNode> {
  return (await locateNode(ctx, fromGlobalId(id))) as AnyNode;
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
    // Every entry, the ones the enum does not know too (`sport` null): a sport is never dropped.
    sports: async (_, __, ctx, info) => {
      const entries = await catalogueEntries(ctx);
      const enumValues = sportEnumValues(info.schema);
      return entries.map((entry) => ({ entry, sport: sportOfEntry(entries, entry, enumValues) }));
    },
    // A lookup: a sport the catalogue does not list is null here, not an error.
    sport: async (_, args, ctx, info) => {
      const choice = sportChoice(args);
      const entries = await catalogueEntries(ctx);
      const entry = findEntry(entries, choice);
      return entry === undefined ? null : { entry, sport: sportOfEntry(entries, entry, sportEnumValues(info.schema)) };
    },
  },
  SportInfo: {
    key: ({ entry }) => entry.sport,
    known: ({ sport }) => sport !== null,
    sport: ({ sport }) => sport as Sport | null,
    name: ({ entry }) => entry.name,
    slugs: ({ entry }) => entry.slugs,
  },
};
