/**
 * A selection set of every field of a type that needs no argument, down to a
 * depth: the widest reading of a payload, for tests that must make every
 * resolver under a route run.
 */
import {
  getNamedType,
  isAbstractType,
  isLeafType,
  isNonNullType,
  isObjectType,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';

export function fullSelection(schema: GraphQLSchema, typeName: string, depth: number): string {
  const type = schema.getType(typeName);
  if (type === undefined || type === null) throw new TypeError(`fullSelection: no type ${typeName}`);
  return selectionOf(schema, type, depth, '');
}

function selectionOf(schema: GraphQLSchema, type: GraphQLNamedType, depth: number, prefix: string): string {
  if (isAbstractType(type)) {
    // Fields of different possible types may differ in nullability: aliased per type so they never clash.
    const fragments = schema
      .getPossibleTypes(type)
      .map((on) => `... on ${on.name} ${selectionOf(schema, on, depth, `${on.name}_`)}`);
    return `{ __typename ${depth > 0 ? fragments.join(' ') : ''} }`;
  }
  if (!isObjectType(type)) return '';
  const parts: string[] = [];
  for (const field of Object.values(type.getFields())) {
    if (field.args.some((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined)) continue;
    const named = getNamedType(field.type);
    const alias = prefix === '' ? '' : `${prefix}${field.name}: `;
    if (isLeafType(named)) parts.push(`${alias}${field.name}`);
    else if (depth > 0) parts.push(`${alias}${field.name} ${selectionOf(schema, named, depth - 1, '')}`);
  }
  return `{ __typename ${parts.join(' ')} }`;
}
