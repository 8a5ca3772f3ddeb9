import { ErrorCode, GatewayError } from '../upstream/errors.js';

/**
 * Spec 2.15: V6 entity IDs are opaque strings, so any text is passed on
 * (percent-encoded by the route modules) and the upstream's 404 decides
 * whether it names something. The bound only keeps an argument from
 * becoming a path no upstream would take.
 */
export const V6_ID_MAX_LENGTH = 256;

/** In `u` mode a paired surrogate is one code point, so only a lone one matches. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * A V6 ID argument as given, or BAD_USER_INPUT before any request when it is
 * empty, longer than {@link V6_ID_MAX_LENGTH} characters, not well-formed
 * UTF-16 (a lone surrogate has no percent-encoding), or a bare `.`/`..`,
 * which URL parsers treat as a path step, even percent-encoded, so it
 * would address another route instead of an entity.
 */
export function opaqueV6Id(value: string, what: string): string {
  if (value.length === 0) throw new GatewayError(ErrorCode.BadUserInput, `${what} must not be empty.`);
  if (value.length > V6_ID_MAX_LENGTH) {
    throw new GatewayError(ErrorCode.BadUserInput, `${what} must be at most ${V6_ID_MAX_LENGTH} characters.`);
  }
  if (LONE_SURROGATE.test(value)) throw new GatewayError(ErrorCode.BadUserInput, `${what} is not well-formed Unicode.`);
  if (value === '.' || value === '..')
    throw new GatewayError(ErrorCode.BadUserInput, `${what} cannot be "${value}": it is a path step in a URL.`);
  return value;
}
