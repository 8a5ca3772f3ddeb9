/**
 * `search_schema`: the types and fields whose name or description holds
 * every given word, as SDL snippets with their descriptions and a cost hint
 * per field from the cost table (src/spend/estimate/cost-table.ts). It
 * reads the schema only: free.
 */
import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  printType,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import type { FieldCost } from '../../spend/estimate/cost-rule.js';
import { listSizes } from '../../spend/estimate/cost-table.js';

/** Snippets returned at most: an agent's context is small, and a word as common as `id` matches most of the schema. */
export const MAX_SNIPPETS = 25;

export interface SchemaSearch {
  readonly snippets: readonly string[];
  /** Matches past MAX_SNIPPETS, left out. */
  readonly leftOut: number;
}

const description = (text: string | null | undefined, indent: string): string =>
  text === null || text === undefined || text === '' ? '' : `${indent}"""${text.replace(/"""/g, '\\"""')}"""\n`;

function costHint(costs: Readonly<Record<string, FieldCost>>, key: string): string {
  if (costs[key] === undefined) return 'free: no upstream request of its own';
  const size = listSizes[key];
  return size === undefined
    ? 'may spend counted upstream requests unless cached (estimate it first)'
    : `may spend counted upstream requests unless cached; lists up to ${size} items`;
}

type AnyField = GraphQLField<unknown, unknown> | GraphQLInputField;

function printField(field: AnyField, typeName: string, costs: Readonly<Record<string, FieldCost>>): string {
  const args =
    'args' in field && field.args.length > 0
      ? `(${field.args.map((arg) => `${arg.name}: ${String(arg.type)}`).join(', ')})`
      : '';
  const hint = isInputField(field) ? '' : `  # cost: ${costHint(costs, `${typeName}.${field.name}`)}`;
  return `${description(field.description, '  ')}  ${field.name}${args}: ${String(field.type)}${hint}\n`;
}

const isInputField = (field: AnyField): field is GraphQLInputField => !('args' in field);

const matches = (words: readonly string[], ...texts: Array<string | null | undefined>): boolean => {
  const haystack = texts
    .filter((text) => typeof text === 'string')
    .join(' ')
    .toLowerCase();
  return words.every((word) => haystack.includes(word));
};

function snippetOf(
  type: GraphQLNamedType,
  words: readonly string[],
  costs: Readonly<Record<string, FieldCost>>,
): string | undefined {
  if (!(isObjectType(type) || isInterfaceType(type) || isInputObjectType(type))) {
    return matches(words, type.name, type.description) ? printType(type) : undefined;
  }
  const all = Object.values(type.getFields()) as AnyField[];
  const whole = matches(words, type.name, type.description);
  const fields = whole ? all : all.filter((field) => matches(words, field.name, field.description));
  if (fields.length === 0) return undefined;
  const keyword = isInputObjectType(type) ? 'input' : isInterfaceType(type) ? 'interface' : 'type';
  const shown = fields.map((field) => printField(field, type.name, costs)).join('');
  const more = fields.length < all.length ? `  # ${all.length - fields.length} other fields not shown\n` : '';
  return `${description(type.description, '')}${keyword} ${type.name} {\n${shown}${more}}`;
}

export function searchSchema(
  schema: GraphQLSchema,
  costs: Readonly<Record<string, FieldCost>>,
  text: string,
): SchemaSearch {
  const words = text
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');
  const found: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (isIntrospectionType(type) || type.name.startsWith('__')) continue;
    // Enums match by their values too: a word like "hockey" names a Sport value.
    const enumValues = isEnumType(type) ? type.getValues().map((value) => value.name) : [];
    if (isEnumType(type) && !matches(words, type.name, type.description, ...enumValues)) continue;
    const snippet = isEnumType(type) ? printType(type) : snippetOf(type, words, costs);
    if (snippet !== undefined) found.push(snippet);
  }
  return { snippets: found.slice(0, MAX_SNIPPETS), leftOut: Math.max(0, found.length - MAX_SNIPPETS) };
}
