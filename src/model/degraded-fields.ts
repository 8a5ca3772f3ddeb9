/**
 * Field resolvers made aware of dropped payload parts
 * (src/upstream/degraded-parts.ts): a field that answers null where its
 * upstream part was malformed and dropped raises the coded
 * UPSTREAM_INVALID_RESPONSE error at its own path instead of a silent null.
 *
 * The part is found by the field's name on the parent, or on the parent's
 * `value` (the `{ slug, value }` models of V2 and V6 entities). A field read
 * from a part of another name reads it with `readPart` in its resolver.
 */
import { defaultFieldResolver, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { degradationError, degradedPart } from '../upstream/degraded-parts.js';
import { isObject } from '../upstream/routes/route.js';

function raiseIfDegraded(source: unknown, fieldName: string): void {
  const part = degradedPart(source, fieldName) ?? (isObject(source) ? degradedPart(source['value'], fieldName) : undefined);
  if (part !== undefined) throw degradationError(part);
}

function degradationAware(resolve: GraphQLFieldResolver<unknown, unknown>): GraphQLFieldResolver<unknown, unknown> {
  return (source, args, context, info) => {
    const value: unknown = resolve(source, args, context, info);
    // Only a plain null: a promise is a load of its own, whose parts are checked where they are read.
    if (value === undefined || value === null) raiseIfDegraded(source, info.fieldName);
    return value;
  };
}

/** Wraps every object field's resolver (in place, as graphql-tools does), the default one included. */
export function withDegradedParts<S extends GraphQLSchema>(schema: S): S {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) field.resolve = degradationAware(field.resolve ?? defaultFieldResolver);
  }
  return schema;
}
