import { ErrorCode, GatewayError } from '../upstream/errors.js';

/**
 * True for the text of a V1 or V2 ID: a non-negative integer that a
 * JavaScript number holds exactly. The spec says "integer" and nothing
 * about a size, so any safe integer is one (past 2^31 and 2^32 included);
 * past 2^53 the digits could not be passed back to the upstream unchanged.
 */
export function isIntegerIdText(text: string): boolean {
  return /^\d{1,16}$/.test(text) && Number.isSafeInteger(Number(text));
}

/**
 * V1 and V2 IDs are integers. A wrong one is refused here, before any
 * upstream request is spent on it.
 */
export function integerId(value: string | number, what: string): number {
  const text = String(value).trim();
  if (!isIntegerIdText(text)) {
    throw new GatewayError(
      ErrorCode.BadUserInput,
      `${what} must be a non-negative integer of at most ${Number.MAX_SAFE_INTEGER}.`,
    );
  }
  return Number(text);
}
