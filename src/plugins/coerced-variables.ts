/**
 * An operation's variables coerced once: the cost plugin (to estimate) and
 * the graphql-jit switch (to keep operations whose variables do not coerce
 * on graphql-js) both need them, for the same `variableValues` object of
 * one execution.
 */
import { getVariableValues, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';

type Coerced = ReturnType<typeof getVariableValues>;

const byValues = new WeakMap<object, { schema: GraphQLSchema; operation: OperationDefinitionNode; coerced: Coerced }>();

export function coercedVariables(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  values: Readonly<Record<string, unknown>> | null | undefined,
): Coerced {
  const definitions = operation.variableDefinitions ?? [];
  if (values === null || values === undefined) return getVariableValues(schema, definitions, {});
  const known = byValues.get(values);
  if (known !== undefined && known.schema === schema && known.operation === operation) return known.coerced;
  const coerced = getVariableValues(schema, definitions, values);
  byValues.set(values, { schema, operation, coerced });
  return coerced;
}
