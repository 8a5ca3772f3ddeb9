/**
 * The executable subgraph schema served on `/subgraph`.
 *
 * `@apollo/subgraph`'s `buildSubgraphSchema` assembles it from the SDL of
 * subgraph-sdl.ts: the federation definitions the `@link` imports,
 * `_Any`, `_Entity`, `_service { sdl }` and `_entities(representations:)`.
 * The gateway's own resolvers are then added by @graphql-tools/schema, the
 * same function (and so the same rules for scalars, enums, subscriptions
 * and `__resolveType`) that makeExecutableSchema uses for `/graphql`: every
 * field resolves here exactly as it does there.
 *
 * Each entity type and entity interface resolves a reference through
 * `locateNode`, the function `node(id:)` uses: the same sources, request
 * loader, cache, single flight and ledger; a representation costs what a
 * `node` fetch of the same ID costs (src/federation/entity-cost.ts).
 */
import { buildSubgraphSchema } from '@apollo/subgraph';
// The 2.14 line (the last whose engines accept Node 20) exports these types from its dist files only.
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import type { GraphQLReferenceResolver } from '@apollo/subgraph/dist/schemaExtensions.js';
import { mergeResolvers } from '@graphql-tools/merge';
import { addResolversToSchema } from '@graphql-tools/schema';
import { Kind, type GraphQLFieldResolver, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import type { ResolverContext } from '../context.js';
import type { Resolvers } from '../generated/resolvers-types.js';
import { locateNode } from '../model/node-sources.js';
import { ErrorCode, GatewayError } from '../upstream/errors.js';
import { possibleInSchema, representedId, representedType } from './representation.js';
import { subgraphDocument, type SubgraphSdlOptions } from './subgraph-sdl.js';

/**
 * The entity a representation names, found as `node(id:)` finds it (tagged
 * with the ID's type, which `__resolveType` reads). Async, so that a refusal
 * is a rejection in the representation's own slot: the library calls it
 * inside its map over the representations, where a throw would fail them all.
 */
async function resolveReference(reference: object, ctx: ResolverContext, info: GraphQLResolveInfo): Promise<object> {
  return locateNode(ctx, representedId(reference, possibleInSchema(info.schema)));
}

/**
 * `_entities` answers each representation in its own slot: one that names
 * no entity type of this subgraph is a BAD_USER_INPUT error there, its
 * neighbours still resolve (the library would fail the whole list with an
 * uncoded error).
 */
function withCodedRepresentations(schema: GraphQLSchema, entityNames: ReadonlySet<string>): void {
  const field = schema.getQueryType()?.getFields()['_entities'];
  const resolve = field?.resolve;
  if (field === undefined || resolve === undefined) return;
  const guarded: GraphQLFieldResolver<unknown, ResolverContext, { representations: unknown[] }> = (
    source,
    args,
    ctx,
    info,
  ) => {
    const refused = new Map<number, GatewayError>();
    const valid: unknown[] = [];
    args.representations.forEach((representation, index) => {
      try {
        const typeName = representedType(representation);
        if (!entityNames.has(typeName))
          throw new GatewayError(ErrorCode.BadUserInput, `${typeName} is not an entity of this subgraph.`);
        valid.push(representation);
      } catch (error) {
        refused.set(index, error as GatewayError);
      }
    });
    const resolved = resolve(source, { ...args, representations: valid }, ctx, info) as unknown[];
    let next = 0;
    // A rejected slot is that item's field error, as a failed reference is. Not an Error value:
    // graphql-jit returns a list of the wrong length when Error values and promises mix in it.
    return args.representations.map((_, index) => {
      const refusal = refused.get(index);
      return refusal === undefined ? resolved[next++] : Promise.reject(refusal);
    });
  };
  field.resolve = guarded as GraphQLFieldResolver<unknown, unknown>;
}

/** The `__resolveReference` of every entity type and entity interface of the document. */
function referenceResolvers(entityNames: readonly string[]): GraphQLResolverMap<ResolverContext> {
  const resolveAny: GraphQLReferenceResolver<ResolverContext> = resolveReference;
  const map: Record<string, { __resolveReference: GraphQLReferenceResolver<ResolverContext> }> = Object.fromEntries(
    entityNames.map((name) => [name, { __resolveReference: resolveAny }]),
  );
  // The map type has no slot for `__resolveReference`, which buildSubgraphSchema reads all the same.
  return map as unknown as GraphQLResolverMap<ResolverContext>;
}

export function buildGatewaySubgraphSchema(
  typeDefs: readonly string[],
  resolvers: readonly Resolvers[],
  options: SubgraphSdlOptions,
): GraphQLSchema {
  const document = subgraphDocument(typeDefs, options);
  const entityNames = document.definitions.flatMap((definition) =>
    (definition.kind === Kind.OBJECT_TYPE_DEFINITION || definition.kind === Kind.INTERFACE_TYPE_DEFINITION) &&
    definition.directives?.some((d) => d.name.value === 'key') === true
      ? [definition.name.value]
      : [],
  );
  const federated = buildSubgraphSchema([{ typeDefs: document, resolvers: referenceResolvers(entityNames) }]);
  const schema = addResolversToSchema({ schema: federated, resolvers: mergeResolvers([...resolvers]) });
  withCodedRepresentations(schema, new Set(entityNames));
  return schema;
}
