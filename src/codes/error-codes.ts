/**
 * Every code the gateway gives a client: each GraphQL `extensions.code`, each
 * coded refusal body (`{"errors": [...]}`, or `{"error": {...}}` under
 * `/images`) and each code a start-up failure exits with. Match on the code,
 * never on the message.
 *
 * A code is raised only through `Code`, so a misspelt one does not compile.
 * docs/errors.md's "Every code" table is checked against this one, both ways
 * and status for status (test/docs-errors.test.ts).
 */

export interface CodeEntry {
  /**
   * The HTTP status of an answer refused with this code; 200 for a code met
   * in a field. Absent where no HTTP answer carries it: an exit at start, a
   * graphql-ws `error` message.
   */
  readonly status?: number;
  /** One line: when a client gets it. */
  readonly meaning: string;
  /** The library that raises it in the gateway's answers, where the gateway's own code does not. */
  readonly raisedBy?: string;
}

const table = {
  BAD_HTTP_REQUEST: {
    status: 400,
    meaning: 'not valid HTTP: a malformed request line or header, a lying content-length',
  },
  BAD_REQUEST: { status: 400, meaning: 'a body that is not one GraphQL request', raisedBy: 'graphql-yoga' },
  BAD_USER_INPUT: {
    status: 400,
    meaning: "a variable or argument the gateway refuses (200 in a field); the upstream's 400",
  },
  BAD_WEBSOCKET_UPGRADE: { status: 400, meaning: 'a malformed WebSocket upgrade: key, version or subprotocol header' },
  COST_LIMIT_EXCEEDED: { status: 400, meaning: 'estimated above GATEWAY_MAX_OPERATION_COST counted upstream requests' },
  CORS_ORIGIN_REFUSED: { status: 403, meaning: 'a CORS preflight from an origin GATEWAY_CORS_ORIGINS does not allow' },
  CSRF_REFUSED: { status: 403, meaning: "a cross-site browser request from a page neither the gateway's nor allowed" },
  DATA_DIR_IN_USE: { meaning: 'at start (exit code 2): another sports-graph process holds DATA_DIR' },
  DATA_DIR_UNUSABLE: { meaning: 'at start (exit code 2): DATA_DIR is read-only, unwritable or full' },
  EXTENSIONS_TOO_DEEP: { status: 400, meaning: '`extensions` nested deeper than LIMIT_MAX_VARIABLES_DEPTH' },
  EXTENSIONS_TOO_LARGE: { status: 400, meaning: '`extensions` holding more than LIMIT_MAX_VARIABLES_VALUES values' },
  FORBIDDEN: { status: 403, meaning: 'a client key that is not valid (keys on)' },
  GRAPHQL_PARSE_FAILED: { status: 400, meaning: 'a GraphQL syntax error' },
  GRAPHQL_VALIDATION_FAILED: { status: 400, meaning: 'an unknown field or argument, a wrong enum value, a mutation' },
  HOST_NOT_ALLOWED: { status: 421, meaning: '`Host` is not a name GATEWAY_ALLOWED_HOSTS allows' },
  INTERNAL_SERVER_ERROR: {
    status: 500,
    meaning: "an exception in the gateway's own code (200 in a field): a bug, logged",
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    meaning: 'a method the path does not answer (PUT, a mutation over GET, POST /healthz)',
  },
  NOT_ACCEPTABLE: { status: 406, meaning: 'no media type in `accept` can carry the answer (or its @defer/@stream)' },
  NOT_FOUND: {
    status: 404,
    meaning: "a path not served, an image that does not exist; the upstream's 404 (200 in a field)",
  },
  NOT_SUPPORTED: { status: 200, meaning: "in a field: a route the spec documents as missing, or the upstream's 501" },
  ODDS_FEED_LIMIT: {
    meaning: 'an odds subscription past ODDS_MAX_FEEDS_PER_CLIENT or ODDS_MAX_FEEDS (graphql-ws, SSE)',
  },
  OPERATION_LIMIT_EXCEEDED: {
    status: 400,
    meaning: 'past a LIMIT_* bound: depth, aliases, directives, tokens, introspection',
  },
  OPERATION_RESOLUTION_FAILURE: { status: 400, meaning: '`operationName` names no operation of the document' },
  OPERATION_TIMEOUT: {
    status: 504,
    meaning: 'an execution still running OPERATION_TIMEOUT_MS + 1 s after its start: a bug',
  },
  ORIGIN_NOT_ALLOWED: { status: 403, meaning: 'a WebSocket upgrade or an MCP request from a page of another origin' },
  PAYLOAD_TOO_LARGE: { status: 413, meaning: 'a request body over LIMIT_MAX_BODY_BYTES' },
  PERSISTED_QUERY_ID_REQUIRED: { status: 400, meaning: 'trusted documents: neither a document ID nor a document text' },
  PERSISTED_QUERY_MISMATCH: {
    status: 400,
    meaning: 'APQ: a text whose SHA-256 is not the hash sent with it',
    raisedBy: '@graphql-yoga/plugin-apq',
  },
  PERSISTED_QUERY_NOT_FOUND: { status: 404, meaning: 'APQ: a hash the gateway does not hold' },
  QUOTA_EXHAUSTED: { status: 200, meaning: 'not enough plan allowance or client budget left (429 on /images)' },
  REQUEST_HEADERS_TOO_LARGE: { status: 431, meaning: "request headers over Node's bound (16 KiB, the URL included)" },
  REQUEST_TIMEOUT: { status: 408, meaning: 'headers or body did not arrive within HTTP_*_TIMEOUT_MS' },
  STATE_FILE_INVALID: { meaning: 'at start (exit code 2): a state file that cannot be trusted' },
  TOO_MANY_CONNECTIONS: { status: 503, meaning: 'the gateway already holds GATEWAY_MAX_CONNECTIONS connections' },
  TOO_MANY_SUBSCRIPTIONS: {
    meaning: 'graphql-ws: past LIMIT_MAX_SUBSCRIPTIONS_PER_SOCKET subscriptions on one socket',
  },
  TRUSTED_DOCUMENT_NOT_FOUND: { status: 400, meaning: 'trusted documents: an unknown document ID' },
  TRUSTED_DOCUMENTS_ONLY: { status: 403, meaning: "trusted documents: a text that is not one of the manifest's" },
  UNAUTHENTICATED: { status: 401, meaning: 'no client key (keys on)' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'a body content type the gateway cannot read' },
  UPSTREAM_AUTH: { status: 200, meaning: "in a field: the upstream answered 401 or 403 to the gateway's key" },
  UPSTREAM_INVALID_RESPONSE: { status: 200, meaning: 'in a field: a 2xx that is not the documented JSON' },
  UPSTREAM_TIMEOUT: { status: 200, meaning: 'in a field: the upstream answered 504' },
  UPSTREAM_UNAVAILABLE: { status: 200, meaning: 'in a field: the upstream answered 502 or another 5xx' },
  UPSTREAM_UNREACHABLE: {
    status: 200,
    meaning: 'in a field: connect or response timeout, connection reset or refused',
  },
  VARIABLES_TOO_DEEP: { status: 400, meaning: '`variables` nested deeper than LIMIT_MAX_VARIABLES_DEPTH' },
  VARIABLES_TOO_LARGE: { status: 400, meaning: '`variables` holding more than LIMIT_MAX_VARIABLES_VALUES values' },
} as const satisfies Record<string, CodeEntry>;

/** A code the gateway gives: nothing else type-checks where a code goes. */
export type Code = keyof typeof table;

export const errorCodes: Readonly<Record<Code, CodeEntry>> = table;

function namesOf<T extends object>(entries: T): { readonly [K in keyof T]: K } {
  return Object.fromEntries(Object.keys(entries).map((key) => [key, key])) as { readonly [K in keyof T]: K };
}

/** Each code as a constant (`Code.NOT_FOUND` is `'NOT_FOUND'`). */
export const Code = namesOf(table);
