/**
 * The V1 grey placeholder (spec 2.5, 4.2.6): the same 1,466-byte PNG for
 * every missing competitor, sent with 200. It is told by its size or its
 * checksum, never by its status, and is never stored as a logo.
 */
import { createHash } from 'node:crypto';

export const PLACEHOLDER_BYTES = 1_466;

/**
 * sha256 checksums of placeholders seen in the wild. The spec does not give
 * the real one's checksum, so size is the rule; add checksums here when known.
 */
const knownChecksums = new Set<string>();

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

export function isPlaceholder(body: Buffer): boolean {
  if (body.length === PLACEHOLDER_BYTES && body.subarray(0, 4).equals(PNG_SIGNATURE)) return true;
  return knownChecksums.size > 0 && knownChecksums.has(createHash('sha256').update(body).digest('hex'));
}
