/**
 * fast-check arbitraries for GraphQL operations, walked from a schema: random
 * selections of fields (inline fragments on abstract types), every argument
 * passed as a variable so that its value can be anything JSON can say: edge
 * cases of the right type (huge and negative ints, empty and unicode strings,
 * IDs that exist and IDs that do not), null where null is not allowed, and
 * values of the wrong type.
 */
import fc from 'fast-check';
import {
  getNamedType,
  getNullableType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';

export interface FuzzOperation {
  readonly query: string;
  readonly variables: Record<string, unknown>;
}

interface ArgValue {
  readonly name: string;
  /** The argument's declared type, as the variable is declared. */
  readonly type: string;
  readonly value: unknown;
}

type Selection =
  | {
      readonly kind: 'field';
      readonly name: string;
      readonly args: readonly ArgValue[];
      readonly sub: readonly Selection[];
    }
  | { readonly kind: 'fragment'; readonly on: string; readonly sub: readonly Selection[] };

export interface OperationArbitraryOptions {
  /** Composite levels below the root. */
  readonly maxDepth: number;
  /** Fields picked per selection set. */
  readonly maxFields: number;
  /** String/ID values worth trying besides random ones (IDs that exist upstream). */
  readonly knownIds: readonly string[];
  /** Root fields left out (e.g. ones that start long-lived work). */
  readonly skipRootFields?: readonly string[];
}

const edgeStrings = [
  '',
  ' ',
  '0',
  '-1',
  '1e309',
  '999999999999999999999',
  'null',
  'ü',
  '🏒🥅',
  '\u0000',
  'a:b',
  '../../x',
  '%2F',
  'x'.repeat(300),
];
const edgeInts = [
  0,
  -1,
  1,
  2_147_483_647,
  -2_147_483_648,
  2_147_483_648,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
];

const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant({}),
  fc.constant([]),
  fc.constant({ nested: [1, 'a'] }),
);

export function operationArbitrary(
  schema: GraphQLSchema,
  options: OperationArbitraryOptions,
): fc.Arbitrary<FuzzOperation> {
  const query = schema.getQueryType();
  if (query === undefined || query === null) throw new TypeError('operationArbitrary: the schema has no Query type');
  const strings = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...options.knownIds) },
    { weight: 2, arbitrary: fc.constantFrom(...edgeStrings) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: 10_000_000 }).map(String) },
  );

  function scalarValue(name: string): fc.Arbitrary<unknown> {
    switch (name) {
      case 'Int':
        return fc.oneof(fc.integer({ min: -3, max: 60 }), fc.constantFrom(...edgeInts));
      case 'Float':
        return fc.oneof(fc.double(), fc.constantFrom(0, -0.5, 1e308));
      case 'Boolean':
        return fc.boolean();
      case 'DateTime':
        return fc.oneof(
          fc
            .date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
            .map((d) => d.toISOString()),
          fc.constantFrom('2026-13-45T99:99:99Z', 'yesterday'),
        );
      case 'JSON':
        return fc.jsonValue({ maxDepth: 2 });
      default:
        // String, ID and custom string-like scalars.
        return strings;
    }
  }

  function value(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
    if (isNonNullType(type)) {
      return fc.oneof(
        { weight: 40, arbitrary: value(type.ofType, depth) },
        { weight: 1, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: wrongType },
      );
    }
    const inner = (): fc.Arbitrary<unknown> => {
      if (isListType(type)) return fc.array(value(type.ofType, depth + 1), { maxLength: depth > 1 ? 1 : 4 });
      if (isEnumType(type)) return fc.constantFrom(...type.getValues().map((v) => v.name));
      if (isScalarType(type)) return scalarValue(type.name);
      if (isInputObjectType(type)) {
        if (depth > 2) return fc.constant({});
        const fields = Object.values(type.getFields());
        return fc.record(Object.fromEntries(fields.map((f) => [f.name, value(f.type, depth + 1)])), {
          requiredKeys: fields.filter((f) => isNonNullType(f.type)).map((f) => f.name),
        });
      }
      return fc.constant(null);
    };
    return fc.oneof(
      { weight: 30, arbitrary: inner() },
      { weight: 3, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: wrongType },
    );
  }

  function args(field: GraphQLField<unknown, unknown>): fc.Arbitrary<ArgValue[]> {
    const parts = field.args.map((arg) => {
      const one = value(arg.type).map((v): ArgValue => ({ name: arg.name, type: String(arg.type), value: v }));
      // Optional arguments are left out half the time, so defaults are exercised too.
      return isNonNullType(arg.type) && arg.defaultValue === undefined
        ? one.map((a): ArgValue | undefined => a)
        : fc.option(one, { nil: undefined });
    });
    return fc.tuple(...parts).map((all) => all.filter((a): a is ArgValue => a !== undefined));
  }

  function selectionsOf(type: GraphQLNamedType, depth: number): fc.Arbitrary<Selection[]> {
    if (isAbstractType(type)) {
      const possible = schema.getPossibleTypes(type);
      if (possible.length === 0 || depth >= options.maxDepth) return fc.constant([typename]);
      return fc
        .constantFrom(...possible)
        .chain((on) =>
          selectionsOf(on, depth).map((sub): Selection[] => [typename, { kind: 'fragment', on: on.name, sub }]),
        );
    }
    if (!isObjectType(type)) return fc.constant([]);
    const fields = fieldsOf(type, depth);
    if (fields.length === 0) return fc.constant([typename]);
    return fc
      .subarray(fields, { minLength: 1, maxLength: Math.min(options.maxFields, fields.length) })
      .chain((picked) => fc.tuple(...picked.map((field) => fieldSelection(field, depth))));
  }

  function fieldsOf(type: GraphQLObjectType, depth: number): Array<GraphQLField<unknown, unknown>> {
    const all = Object.values(type.getFields()).filter(
      (f) => depth > 0 || !(options.skipRootFields ?? []).includes(f.name),
    );
    // Past the depth bound only leaves are picked, so every selection set closes.
    return depth >= options.maxDepth ? all.filter((f) => isLeafType(getNamedType(f.type))) : all;
  }

  function fieldSelection(field: GraphQLField<unknown, unknown>, depth: number): fc.Arbitrary<Selection> {
    const named = getNamedType(getNullableType(field.type));
    const sub = isLeafType(named) ? fc.constant<Selection[]>([]) : selectionsOf(named, depth + 1);
    return fc
      .tuple(args(field), sub)
      .map(([a, s]): Selection => ({ kind: 'field', name: field.name, args: a, sub: s }));
  }

  return selectionsOf(query, 0).map((selections) => render(selections));
}

const typename: Selection = { kind: 'field', name: '__typename', args: [], sub: [] };

function render(selections: readonly Selection[]): FuzzOperation {
  const declarations: string[] = [];
  const variables: Record<string, unknown> = {};
  let aliasCount = 0;
  const set = (items: readonly Selection[]): string => {
    const parts = items.map((item) => {
      if (item.kind === 'fragment') return `... on ${item.on} ${set(item.sub)}`;
      const argText = item.args
        .map((arg) => {
          const name = `v${declarations.length}`;
          declarations.push(`$${name}: ${arg.type}`);
          variables[name] = arg.value;
          return `${arg.name}: $${name}`;
        })
        .join(', ');
      // Aliased: the same field may be picked twice in one set with different arguments.
      const alias = item.args.length > 0 ? `a${aliasCount++}: ` : '';
      const head = `${alias}${item.name}${argText === '' ? '' : `(${argText})`}`;
      return item.sub.length === 0 ? head : `${head} ${set(item.sub)}`;
    });
    return `{ ${parts.join(' ')} }`;
  };
  const body = set(selections);
  const header = declarations.length === 0 ? 'query Fuzz' : `query Fuzz(${declarations.join(', ')})`;
  return { query: `${header} ${body}`, variables };
}
