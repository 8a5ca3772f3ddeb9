/**
 * Every error a client sees carries `extensions.code`: parse and validation
 * errors get GRAPHQL_PARSE_FAILED / GRAPHQL_VALIDATION_FAILED, bad variables
 * BAD_USER_INPUT, and anything masked INTERNAL_SERVER_ERROR. Our own coded
 * errors pass through as they are.
 */
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

function withCode(error: GraphQLError, code: string): GraphQLError {
  if (typeof error.extensions['code'] === 'string') return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes ?? null,
    source: error.source ?? null,
    positions: error.positions ?? null,
    path: error.path ?? null,
    originalError: error.originalError ?? null,
    extensions: { ...error.extensions, code },
  });
}

export function useErrorCodes(): Plugin {
  return {
    onParse() {
      return ({ result, replaceParseResult }) => {
        if (result instanceof GraphQLError) replaceParseResult(withCode(result, 'GRAPHQL_PARSE_FAILED'));
      };
    },
    onValidate() {
      return ({ result, setResult }) => {
        if (result.length > 0) setResult(result.map((error) => withCode(error, 'GRAPHQL_VALIDATION_FAILED')));
      };
    },
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result || result.errors === undefined) return;
          setResult({
            ...result,
            errors: result.errors.map((error) =>
              withCode(error, /^Variable "\$/.test(error.message) ? 'BAD_USER_INPUT' : 'INTERNAL_SERVER_ERROR'),
            ),
          });
        },
      };
    },
  };
}
