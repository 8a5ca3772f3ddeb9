/**
 * One cache entry as bytes in the durable store (disk-entries.ts), and back.
 *
 * MessagePack (msgpackr, which lmdb uses too) rather than JSON: encoding a
 * parsed upstream body is faster, and it happens for every answer written.
 * Decoding is strict: bytes that are not an entry this code wrote give
 * `undefined`, never a half-believed value; the store then drops the entry.
 */
import { Packr } from 'msgpackr';
import { ErrorCode, GatewayError, type GatewayErrorDetails } from './errors.js';
import type { Stored } from './cache-entries.js';

/** Bumped when the layout below changes: older entries then read as foreign and are dropped. */
const ENTRY_FORMAT = 1;

// Plain maps and arrays only: no shared record structures to keep in step with the file.
const packr = new Packr({ useRecords: false, moreTypes: false });

type Encoded =
  | [format: number, kind: 'v', storedAt: number, ttlMs: number, size: number, value: unknown]
  | [
      format: number,
      kind: 'e',
      storedAt: number,
      ttlMs: number,
      size: number,
      error: [message: string, version: string | null, route: string | null, status: number | null],
    ];

export function encodeEntry(entry: Stored): Buffer {
  const encoded: Encoded =
    entry.kind === 'value'
      ? [ENTRY_FORMAT, 'v', entry.storedAt, entry.ttlMs, entry.size, entry.value]
      : [
          ENTRY_FORMAT,
          'e',
          entry.storedAt,
          entry.ttlMs,
          entry.size,
          [
            entry.error.message,
            entry.error.details.version ?? null,
            entry.error.details.route ?? null,
            entry.error.details.status ?? null,
          ],
        ];
  return packr.pack(encoded);
}

/** The entry `bytes` hold, or undefined when they are not one this code wrote. */
export function decodeEntry(bytes: Uint8Array): Stored | undefined {
  let decoded: unknown;
  try {
    decoded = packr.unpack(bytes);
  } catch {
    return undefined;
  }
  if (!Array.isArray(decoded) || decoded.length !== 6 || decoded[0] !== ENTRY_FORMAT) return undefined;
  const [, kind, storedAt, ttlMs, size, payload] = decoded as unknown[];
  if (!isCount(storedAt) || !isCount(ttlMs) || !isCount(size)) return undefined;
  if (kind === 'v') return { kind: 'value', value: payload, storedAt, ttlMs, size };
  if (kind !== 'e' || !Array.isArray(payload) || payload.length !== 4) return undefined;
  const [message, version, route, status] = payload as unknown[];
  if (
    typeof message !== 'string' ||
    !isOptionalText(version) ||
    !isOptionalText(route) ||
    !(status === null || isCount(status))
  )
    return undefined;
  const details: GatewayErrorDetails = {
    ...(version === null ? {} : { version }),
    ...(route === null ? {} : { route }),
    ...(status === null ? {} : { status }),
  };
  // Only 404s are cached as negative entries (cache.ts): any other code is not an entry this code wrote.
  return { kind: 'error', error: new GatewayError(ErrorCode.NotFound, message, details), storedAt, ttlMs, size };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function isOptionalText(value: unknown): value is string | null {
  return value === null || typeof value === 'string';
}
