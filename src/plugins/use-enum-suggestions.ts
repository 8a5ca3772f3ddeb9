/**
 * A wrong enum value is answered with the nearest valid one: `HOCKEY`,
 * `hokey` or the string `"hockey"` get `Did you mean the enum value
 * "ICE_HOCKEY"?` and `extensions.didYouMean: "ICE_HOCKEY"`, in a literal
 * (validation) or a variable (coercion, at execution), over HTTP and
 * graphql-ws alike. graphql-js suggests only names a few edits away from the
 * whole input; where it already suggests, its message stays and
 * `didYouMean` names its first (nearest) suggestion, so a client reads one
 * field whoever suggested (src/model/nearest-name.ts has the rules).
 */
import { GraphQLEnumType, GraphQLError, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { nearestName } from '../model/nearest-name.js';

/**
 * graphql-js's wordings of a value an enum does not have: an unknown name
 * (validation and variable coercion), and a string literal where the enum
 * name goes. A literal of another kind (`5`) has nothing to suggest from.
 */
const unknownEnumValue = [
  /Value "(?<value>(?:[^"\\]|\\.)*)" does not exist in "(?<enum>\w+)" enum\./,
  /Enum "(?<enum>\w+)" cannot represent non-enum value: "(?<value>(?:[^"\\]|\\.)*)"\./,
];
/** graphql-js's own suggestion right after its message, first (nearest) name first. */
const ownSuggestion = /^ Did you mean the enum value "(\w+)"/;

/** The value as the client wrote it: the message quotes it with GraphQL (JSON-compatible) string escapes. */
function unquoted(escaped: string): string {
  try {
    return JSON.parse(`"${escaped}"`) as string;
  } catch {
    return escaped;
  }
}

function findUnknownEnumValue(message: string): RegExpExecArray | undefined {
  for (const pattern of unknownEnumValue) {
    const match = pattern.exec(message);
    if (match !== null) return match;
  }
  return undefined;
}

export function withEnumSuggestion<E extends Error>(error: E, schema: GraphQLSchema): E | GraphQLError {
  if (!(error instanceof GraphQLError) || error.extensions['didYouMean'] !== undefined) return error;
  const match = findUnknownEnumValue(error.message);
  if (match === undefined) return error;
  const at = match.index + match[0].length;
  const own = ownSuggestion.exec(error.message.slice(at))?.[1];
  let message = error.message;
  let suggestion = own;
  if (suggestion === undefined) {
    const type = schema.getType(match.groups?.['enum'] ?? '');
    if (!(type instanceof GraphQLEnumType)) return error;
    suggestion = nearestName(
      unquoted(match.groups?.['value'] ?? ''),
      type.getValues().map((enumValue) => enumValue.name),
    );
    if (suggestion === undefined) return error;
    message = `${message.slice(0, at)} Did you mean the enum value "${suggestion}"?${message.slice(at)}`;
  }
  return new GraphQLError(message, {
    nodes: error.nodes ?? null,
    source: error.source ?? null,
    positions: error.positions ?? null,
    path: error.path ?? null,
    originalError: error.originalError ?? null,
    extensions: { ...error.extensions, didYouMean: suggestion },
  });
}

const suggestAll = <E extends Error>(
  errors: readonly E[],
  schema: GraphQLSchema,
): Array<E | GraphQLError> | undefined =>
  errors.some((error) => findUnknownEnumValue(error.message) !== undefined)
    ? errors.map((error) => withEnumSuggestion(error, schema))
    : undefined;

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
