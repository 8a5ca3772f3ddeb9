/**
 * Every error a client sees carries `extensions.code`: parse errors get
 * GRAPHQL_PARSE_FAILED, limit refusals OPERATION_LIMIT_EXCEEDED, other
 * validation errors GRAPHQL_VALIDATION_FAILED, bad variables BAD_USER_INPUT,
 * anything else that reached a field INTERNAL_SERVER_ERROR. Our own coded
 * errors pass through as they are. The same mapping serves HTTP (here) and
 * graphql-ws (src/transport/ws/graphql-ws-server.ts, for errors returned before execution).
 *
 * Over HTTP, a request refused before execution (no `data`) answers the
 * status of its code in `refusalStatus`, whatever the `accept` header: yoga
 * would answer 400 to `application/graphql-response+json` and 200 to
 * `application/json` for validation errors, and 200 to either for a limit
 * that throws, so the same refusal had two statuses and the same kind of
 * refusal had different ones.
 */
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { Code } from '../codes/error-codes.js';

/** Prefix of every limit refusal (use-operation-limits.ts). */
export const LIMIT_REFUSAL = 'Operation refused:';

/**
 * The HTTP status of an answer without `data` (a request refused before
 * execution, or abandoned: OPERATION_TIMEOUT), by code (the
 * docs/errors.md's table). Codes not listed keep yoga's status (QUOTA_EXHAUSTED
 * is 200, as the same code is when a field meets it).
 */
export const refusalStatus: Readonly<Record<string, number>> = {
  [Code.BAD_REQUEST]: 400,
  [Code.METHOD_NOT_ALLOWED]: 405,
  [Code.GRAPHQL_PARSE_FAILED]: 400,
  [Code.GRAPHQL_VALIDATION_FAILED]: 400,
  [Code.OPERATION_LIMIT_EXCEEDED]: 400,
  [Code.COST_LIMIT_EXCEEDED]: 400,
  [Code.BAD_USER_INPUT]: 400,
  [Code.VARIABLES_TOO_DEEP]: 400,
  [Code.VARIABLES_TOO_LARGE]: 400,
  [Code.EXTENSIONS_TOO_DEEP]: 400,
  [Code.EXTENSIONS_TOO_LARGE]: 400,
  [Code.CSRF_REFUSED]: 403,
  // An execution that never settled, answered by the safety net (use-operation-timeout.ts): no `data` to give.
  [Code.OPERATION_TIMEOUT]: 504,
};

function codeFor(error: GraphQLError): Code {
  if (error.message.includes(LIMIT_REFUSAL)) return Code.OPERATION_LIMIT_EXCEEDED;
  if (error.message.startsWith('Syntax Error')) return Code.GRAPHQL_PARSE_FAILED;
  if (/^Variable "\$/.test(error.message)) return Code.BAD_USER_INPUT;
  if (error.path === undefined) return Code.GRAPHQL_VALIDATION_FAILED;
  return Code.INTERNAL_SERVER_ERROR;
}

/** GraphQL Armor's limits (use-operation-limits.ts) throw their refusals as if the parser had failed. */
const armorPrefix = 'Syntax Error: ';

interface HttpExtension {
  status?: number;
  spec?: boolean;
}

const httpOf = (error: GraphQLError): HttpExtension | undefined =>
  error.extensions?.['http'] as HttpExtension | undefined;

/**
 * yoga codes every refusal of a request's form BAD_REQUEST, the wrong method
 * (PUT, a mutation over GET) included; that one has a code of its own.
 */
const isMethodRefusal = (error: GraphQLError): boolean =>
  error.extensions?.['code'] === Code.BAD_REQUEST && httpOf(error)?.status === 405;

export function withCode(
  error: GraphQLError,
  code: Code = isMethodRefusal(error) ? Code.METHOD_NOT_ALLOWED : codeFor(error),
): GraphQLError {
  // graphql-jit (use-jit.ts) reports a null in a non-null field with its own GraphQLError, which has no `extensions`.
  if (typeof error.extensions?.['code'] === 'string' && !isMethodRefusal(error)) return error;
  const message =
    code === Code.OPERATION_LIMIT_EXCEEDED && error.message.startsWith(armorPrefix)
      ? error.message.slice(armorPrefix.length)
      : error.message;
  return new GraphQLError(message, {
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

type ResultLike = { data?: unknown; errors?: readonly GraphQLError[] | undefined };

/**
 * `error` with `extensions.http.status` set to its refusal status; not
 * `spec`, so yoga applies it to `application/json` too. A status a refusal
 * chose for itself (405, 403) stays.
 */
function withRefusalStatus(error: GraphQLError): GraphQLError {
  const code = error.extensions['code'];
  const status = typeof code === 'string' ? refusalStatus[code] : undefined;
  const own = httpOf(error);
  if (status === undefined || (own?.status !== undefined && own.spec !== true)) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes ?? null,
    source: error.source ?? null,
    positions: error.positions ?? null,
    path: error.path ?? null,
    originalError: error.originalError ?? null,
    extensions: { ...error.extensions, http: { ...own, status, spec: false } },
  });
}

function codeResult<T extends ResultLike>(result: T): T {
  if (result.errors === undefined) return result;
  const coded = withCodes(result.errors);
  return { ...result, errors: result.data === undefined ? coded.map(withRefusalStatus) : coded };
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
          setResult(
            result.map((error) =>
              error instanceof GraphQLError
                ? withCode(
                    error,
                    codeFor(error) === Code.INTERNAL_SERVER_ERROR ? Code.GRAPHQL_VALIDATION_FAILED : codeFor(error),
                  )
                : error,
            ),
          );
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
