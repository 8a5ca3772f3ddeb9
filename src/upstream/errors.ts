/**
 * Every failure the gateway reports, as one class with a stable code.
 *
 * `GatewayError` extends GraphQLError so that yoga's error masking lets it
 * through untouched while every other error is masked. Match on `code`, never
 * on the message. The upstream's own text is never copied into a message:
 * it may hold anything, including what a client must not see.
 */
import { GraphQLError } from 'graphql';
import { Code } from '../codes/error-codes.js';

/** The codes a `GatewayError` carries, by name: a few of the registry's (src/codes/error-codes.ts). */
export const ErrorCode = {
  NotFound: Code.NOT_FOUND,
  BadUserInput: Code.BAD_USER_INPUT,
  NotSupported: Code.NOT_SUPPORTED,
  UpstreamUnavailable: Code.UPSTREAM_UNAVAILABLE,
  UpstreamTimeout: Code.UPSTREAM_TIMEOUT,
  UpstreamAuth: Code.UPSTREAM_AUTH,
  QuotaExhausted: Code.QUOTA_EXHAUSTED,
  UpstreamUnreachable: Code.UPSTREAM_UNREACHABLE,
  /** The upstream answered 2xx with a body the gateway cannot read. */
  UpstreamInvalidResponse: Code.UPSTREAM_INVALID_RESPONSE,
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface GatewayErrorDetails {
  /** Upstream version of the route that failed. */
  version?: string;
  /** Route template as the spec writes it; never a URL with parameters or secrets. */
  route?: string;
  /** Upstream HTTP status, when there was one. */
  status?: number;
  /** Seconds until a retry may succeed (502 `Retry-After`). */
  retryAfter?: number;
  /** ISO time the allowance resets. */
  resetsAt?: string;
  /** QUOTA_EXHAUSTED only: what ran out, the plan's allowance or the client's budget. */
  scope?: 'plan' | 'client';
  /** What to use instead, for routes documented as missing. */
  alternative?: string;
  /** NOT_SUPPORTED for a sport: the `/reference/sports` entry looked for, whether it is listed, and the slug field that was empty. */
  catalogueEntry?: { key: string; listed: boolean; slugField?: string };
  /** UPSTREAM_INVALID_RESPONSE for one part: where the malformed part sat in the upstream's answer (`events[3].season`). */
  jsonPath?: string;
}

export class GatewayError extends GraphQLError {
  readonly code: ErrorCode;
  readonly details: GatewayErrorDetails;

  constructor(code: ErrorCode, message: string, details: GatewayErrorDetails = {}) {
    // name stays "GraphQLError": yoga recognises errors to pass unmasked by it.
    super(message, { extensions: { code, ...details } });
    this.code = code;
    this.details = details;
  }
}

export function isGatewayError(error: unknown): error is GatewayError {
  return error instanceof GatewayError;
}

/** Failures that stale cache data may answer instead (issue: "stale rather than nothing"). */
export const staleEligible: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  ErrorCode.UpstreamUnavailable,
  ErrorCode.UpstreamTimeout,
  ErrorCode.UpstreamUnreachable,
  ErrorCode.QuotaExhausted,
]);

/**
 * The DESIGN.md error table: upstream status -> code. `retryAfter` comes from
 * the response's `Retry-After` header; `alternative` from a 501 body.
 */
export function errorForStatus(
  status: number,
  context: {
    version: string;
    route: string;
    retryAfter?: number | undefined;
    resetsAt?: string | undefined;
    alternative?: string | undefined;
  },
): GatewayError {
  const where = { version: context.version, route: context.route, status };
  switch (true) {
    case status === 404:
      return new GatewayError(ErrorCode.NotFound, `Not found upstream (${context.version} ${context.route}).`, where);
    case status === 400:
      return new GatewayError(
        ErrorCode.BadUserInput,
        `The upstream rejected the request as invalid (${context.route}).`,
        where,
      );
    case status === 501:
      return new GatewayError(ErrorCode.NotSupported, `Not supported by the upstream (${context.route}).`, {
        ...where,
        ...(context.alternative === undefined ? {} : { alternative: context.alternative }),
      });
    case status === 401 || status === 403:
      return new GatewayError(ErrorCode.UpstreamAuth, "The upstream refused the gateway's API key.", where);
    case status === 429:
      return new GatewayError(ErrorCode.QuotaExhausted, 'The daily upstream allowance is spent.', {
        ...where,
        ...(context.resetsAt === undefined ? {} : { resetsAt: context.resetsAt }),
      });
    case status === 504:
      return new GatewayError(ErrorCode.UpstreamTimeout, `The upstream timed out (${context.route}).`, where);
    default:
      return new GatewayError(ErrorCode.UpstreamUnavailable, `The upstream is unavailable (${context.route}).`, {
        ...where,
        ...(context.retryAfter === undefined ? {} : { retryAfter: context.retryAfter }),
      });
  }
}
