import { ErrorCode, GatewayError } from '../upstream/errors.js';

/**
 * V1 and V2 IDs are integers. A wrong one is refused here, before any
 * upstream request is spent on it.
 */
export function integerId(value: string | number, what: string): number {
  const text = String(value).trim();
  if (!/^\d{1,15}$/.test(text)) {
    throw new GatewayError(ErrorCode.BadUserInput, `${what} must be a positive integer.`);
  }
  return Number(text);
}
