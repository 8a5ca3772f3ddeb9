/**
 * A wrong enum value is answered with the nearest valid one: `HOCKEY` gets
 * `Did you mean the enum value "ICE_HOCKEY"?` (and
 * `extensions.didYouMean: "ICE_HOCKEY"`), in a literal (validation) or a
 * variable (coercion, at execution), over HTTP and graphql-ws alike.
 * graphql-js suggests only names a few edits away from the whole input;
 * where it already suggests, its suggestion stays (src/model/nearest-name.ts
 * has the rules).
 */
import { GraphQLEnumType, GraphQLError, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { nearestName } from '../model/nearest-name.js';

/** graphql-js's wording, in both the validation and the coercion error. */
const unknownEnumValue = /Value "((?:[^"\\]|\\.)*)" does not exist in "(\w+)" enum\.(?! Did you mean)/;

export function withEnumSuggestion<E extends Error>(error: E, schema: GraphQLSchema): E | GraphQLError {
  const match = unknownEnumValue.exec(error.message);
  if (match === null || !(error instanceof GraphQLError)) return error;
  const [, value = '', enumName = ''] = match;
  const type = schema.getType(enumName);
  if (!(type instanceof GraphQLEnumType)) return error;
  const suggestion = nearestName(value, type.getValues().map((enumValue) => enumValue.name));
  if (suggestion === undefined) return error;
  const at = match.index + match[0].length;
  return new GraphQLError(`${error.message.slice(0, at)} Did you mean the enum value "${suggestion}"?${error.message.slice(at)}`, {
    nodes: error.nodes ?? null,
    source: error.source ?? null,
    positions: error.positions ?? null,
    path: error.path ?? null,
    originalError: error.originalError ?? null,
    extensions: { ...error.extensions, didYouMean: suggestion },
  });
}

const suggestAll = <E extends Error>(errors: readonly E[], schema: GraphQLSchema): Array<E | GraphQLError> | undefined =>
  errors.some((error) => unknownEnumValue.test(error.message)) ? errors.map((error) => withEnumSuggestion(error, schema)) : undefined;

export function useEnumSuggestions(): Plugin {
  return {
    onValidate({ params }) {
      return ({ result, setResult }) => {
        const suggested = suggestAll(result, params.schema);
        if (suggested !== undefined) setResult(suggested);
      };
    },
    onExecute({ args }) {
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result || result.errors === undefined) return;
          const suggested = suggestAll(result.errors, args.schema);
          if (suggested !== undefined) setResult({ ...result, errors: suggested });
        },
      };
    },
  };
}
