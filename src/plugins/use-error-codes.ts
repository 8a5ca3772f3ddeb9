/**
 * Every error a client sees carries `extensions.code`: parse errors get
 * GRAPHQL_PARSE_FAILED, validation and limit refusals
 * GRAPHQL_VALIDATION_FAILED, bad variables BAD_USER_INPUT, anything else
 * that reached a field INTERNAL_SERVER_ERROR. Our own coded errors pass
 * through as they are. The same mapping serves HTTP (here) and graphql-ws
 * (server.ts, for errors returned before execution).
 */
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** Prefix of every limit refusal (use-operation-limits.ts). */
export const LIMIT_REFUSAL = 'Operation refused:';

function codeFor(error: GraphQLError): string {
  if (error.message.includes(LIMIT_REFUSAL)) return 'OPERATION_LIMIT_EXCEEDED';
  if (error.message.startsWith('Syntax Error')) return 'GRAPHQL_PARSE_FAILED';
  if (/^Variable "\$/.test(error.message)) return 'BAD_USER_INPUT';
  if (error.path === undefined) return 'GRAPHQL_VALIDATION_FAILED';
  return 'INTERNAL_SERVER_ERROR';
}

export function withCode(error: GraphQLError, code: string = codeFor(error)): GraphQLError {
  // graphql-jit (use-jit.ts) reports a null in a non-null field with its own GraphQLError, which has no `extensions`.
  if (typeof error.extensions?.['code'] === 'string') return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes ?? null,
    source: error.source ?? null,
    positions: error.positions ?? null,
    path: error.path ?? null,
    originalError: error.originalError ?? null,
    extensions: { ...(error.extensions ?? {}), code },
  });
}

export function withCodes(errors: readonly GraphQLError[]): GraphQLError[] {
  return errors.map((error) => withCode(error));
}

type ResultLike = { errors?: readonly GraphQLError[] | undefined };

function codeResult<T extends ResultLike>(result: T): T {
  return result.errors === undefined ? result : { ...result, errors: withCodes(result.errors) };
}

export function useErrorCodes(): Plugin {
  return {
    onParse() {
      return ({ result, replaceParseResult }) => {
        if (result instanceof GraphQLError) replaceParseResult(withCode(result));
      };
    },
    onValidate() {
      return ({ result, setResult }) => {
        if (result.length > 0) {
          setResult(result.map((error) => (error instanceof GraphQLError ? withCode(error, codeFor(error) === 'INTERNAL_SERVER_ERROR' ? 'GRAPHQL_VALIDATION_FAILED' : codeFor(error)) : error)));
        }
      };
    },
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result)) {
        setResult(result.map((item: ResultLike) => codeResult(item)) as never);
        return;
      }
      if (Symbol.asyncIterator in result) return;
      setResult(codeResult(result as ResultLike) as never);
    },
  };
}
