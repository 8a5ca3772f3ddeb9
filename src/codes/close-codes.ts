/**
 * Every WebSocket close code a gateway socket can end with: those the
 * gateway's own code sends, and those its libraries send for it (graphql-ws's
 * protocol codes, ws's for a frame that breaks WebSocket). Names follow
 * graphql-ws's `CloseCode` where it has one (src/codes/close-codes.test.ts
 * pins them to it). docs/errors.md lists every one (test/docs-errors.test.ts).
 */

export interface CloseCodeEntry {
  readonly code: number;
  /** One line: when a socket is closed with it. */
  readonly meaning: string;
  /** The library that sends it, where the gateway's own code does not. */
  readonly sentBy?: string;
}

const table = {
  NormalClosure: {
    code: 1000,
    meaning: "no operation for WS_IDLE_TIMEOUT_MS (`Idle timeout`); the gateway's upstream odds socket once unused",
  },
  GoingAway: { code: 1001, meaning: 'the gateway is shutting down' },
  ProtocolError: { code: 1002, meaning: 'a frame that breaks the WebSocket protocol', sentBy: 'ws' },
  InvalidFramePayloadData: { code: 1007, meaning: 'a text frame that is not UTF-8', sentBy: 'ws' },
  MessageTooBig: { code: 1009, meaning: 'a message over LIMIT_MAX_WS_MESSAGE_BYTES', sentBy: 'ws' },
  TryAgainLater: {
    code: 1013,
    meaning: 'a reader too slow: over LIMIT_MAX_WS_BUFFERED_BYTES waiting (`Slow consumer`)',
  },
  BadRequest: { code: 4400, meaning: 'a malformed message, a server-only message type, a payload past the bounds' },
  Unauthorized: { code: 4401, meaning: 'a subscribe before the connection was acknowledged', sentBy: 'graphql-ws' },
  Forbidden: { code: 4403, meaning: 'no or a wrong client key in `connection_init`' },
  SubprotocolNotAcceptable: {
    code: 4406,
    meaning: 'a subprotocol other than graphql-transport-ws',
    sentBy: 'graphql-ws',
  },
  ConnectionInitialisationTimeout: {
    code: 4408,
    meaning: 'no `connection_init` within 3 s of the upgrade',
    sentBy: 'graphql-ws',
  },
  SubscriberAlreadyExists: { code: 4409, meaning: 'a subscribe whose id is already running', sentBy: 'graphql-ws' },
  TooManyInitialisationRequests: { code: 4429, meaning: 'a second `connection_init`', sentBy: 'graphql-ws' },
  InternalServerError: {
    code: 4500,
    meaning: 'an internal error on the socket or in a message handler: a bug, logged',
  },
} as const satisfies Record<string, CloseCodeEntry>;

export type CloseCodeName = keyof typeof table;

export const closeCodes: Readonly<Record<CloseCodeName, CloseCodeEntry>> = table;

function codesOf<T extends Record<string, { readonly code: number }>>(
  entries: T,
): { readonly [K in keyof T]: T[K]['code'] } {
  return Object.fromEntries(Object.entries(entries).map(([name, entry]) => [name, entry.code])) as {
    readonly [K in keyof T]: T[K]['code'];
  };
}

/** Each close code as a constant (`CloseCode.BadRequest` is 4400). */
export const CloseCode = codesOf(table);
export type CloseCode = (typeof CloseCode)[CloseCodeName];
