/**
 * Variables coerced once per execution (coerced-variables.ts): the memo is
 * keyed by the execution's variables object, and must never hand another
 * operation or schema the coercion of the first.
 */
import { buildSchema, getOperationAST, parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { coercedVariables } from './coerced-variables.js';

const schema = buildSchema('type Query { byNumber(n: Int!): Int byText(n: String!): String }');
const operationOf = (text: string): OperationDefinitionNode => getOperationAST(parse(text))!;

describe('coercedVariables', () => {
  it('coerces once for one execution, and again for another operation or schema on the same values', () => {
    const values = { n: 'seven' };
    const asNumber = operationOf('query ($n: Int!) { byNumber(n: $n) }');
    const first = coercedVariables(schema, asNumber, values);
    expect(first.errors).toHaveLength(1);
    expect(coercedVariables(schema, asNumber, values)).toBe(first);

    // Another document with the same values object: its own coercion.
    const asText = operationOf('query ($n: String!) { byText(n: $n) }');
    const other = coercedVariables(schema, asText, values);
    expect(other.errors).toBeUndefined();
    expect(other.coerced).toEqual({ n: 'seven' });

    // The same operation on another schema whose `Mode` lacks the value: its own coercion too.
    const modes = { m: 'FAST' };
    const byMode = operationOf('query ($m: Mode!) { byMode(m: $m) }');
    const withFast = buildSchema('enum Mode { FAST SLOW } type Query { byMode(m: Mode!): Int }');
    const withoutFast = buildSchema('enum Mode { SLOW } type Query { byMode(m: Mode!): Int }');
    expect(coercedVariables(withFast, byMode, modes).errors).toBeUndefined();
    expect(coercedVariables(withoutFast, byMode, modes).errors).toHaveLength(1);
    // And the first is still right when asked again.
    expect(coercedVariables(schema, asNumber, values).errors).toHaveLength(1);
  });

  it('coerces no variables object as an empty one, every time', () => {
    const operation = operationOf('query ($n: Int = 3) { byNumber(n: $n) }');
    expect(coercedVariables(schema, operation, undefined).coerced).toEqual({ n: 3 });
    expect(coercedVariables(schema, operation, null).coerced).toEqual({ n: 3 });
  });
});
