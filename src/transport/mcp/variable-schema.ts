/**
 * An operation's variables as an MCP tool's input schema (zod, which the
 * SDK turns into JSON Schema and checks calls against): GraphQL's input
 * types mapped one to one, a nullable or defaulted variable optional, and
 * the example's own value named as the default an omitted one takes.
 */
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { z } from 'zod';

function schemaOf(type: GraphQLInputType, depth = 0): z.ZodType {
  if (isNonNullType(type)) return schemaOf(type.ofType, depth);
  if (isListType(type)) return z.array(nullable(type.ofType, depth));
  if (isEnumType(type)) {
    const [first, ...rest] = type.getValues().map((value) => value.name);
    return first === undefined ? z.never() : z.enum([first, ...rest]);
  }
  // Input types nest without end only through a cycle; past a few levels anything the gateway's own checks accept.
  if (isInputObjectType(type) && depth < 4) {
    const shape: Record<string, z.ZodType> = {};
    for (const field of Object.values(type.getFields())) {
      const inner = nullable(field.type, depth + 1);
      shape[field.name] = field.description ? inner.describe(field.description) : inner;
    }
    return z.object(shape);
  }
  switch (getNamedType(type).name) {
    case 'Int':
      return z.number().int();
    case 'Float':
      return z.number();
    case 'Boolean':
      return z.boolean();
    case 'String':
      return z.string();
    case 'ID':
      return z.union([z.string(), z.number().int()]);
    default:
      return z.unknown();
  }
}

/** A nullable type may be left out or null; a non-null one is required. */
function nullable(type: GraphQLInputType, depth: number): z.ZodType {
  return isNonNullType(type) ? schemaOf(type, depth) : schemaOf(type, depth).nullable().optional();
}

/** The input shape of a tool that runs `operation`, defaulting to `defaults` (the example's own values). */
export function variablesShape(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  defaults: Readonly<Record<string, unknown>>,
): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (type === undefined) continue;
    const example = defaults[name];
    const optional = example !== undefined || definition.defaultValue !== undefined || !isNonNullType(type);
    const base = schemaOf(type);
    const described =
      example === undefined
        ? base.describe(String(type))
        : base.describe(`${String(type)}; default ${JSON.stringify(example)}`);
    shape[name] = optional ? described.optional() : described;
  }
  return shape;
}
