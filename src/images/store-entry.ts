/**
 * What the image index holds per key, and the check every entry passes
 * before the store believes it: a line of the journal or of a legacy index
 * may be damaged, hand-edited or written by another version.
 */

export type StoreEntry =
  | {
      readonly kind: 'image';
      /** sha256 of the bytes, hex: file name and ETag. */
      readonly hash: string;
      readonly contentType: string;
      readonly size: number;
      readonly storedAt: number;
      /** Epoch ms; absent for logos, which are kept for good. */
      readonly expiresAt?: number;
    }
  | { readonly kind: 'placeholder' | 'missing'; readonly storedAt: number; readonly expiresAt: number };

export type ImageEntry = Extract<StoreEntry, { kind: 'image' }>;

/** The image types the store keeps, with the extension of their files. */
export const imageExtensions: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/svg+xml': 'svg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/bmp': 'bmp',
  'image/x-icon': 'ico',
  'image/vnd.microsoft.icon': 'ico',
  'image/tiff': 'tiff',
};

export function isKnownImageType(contentType: string): boolean {
  return Object.hasOwn(imageExtensions, contentType);
}

/** Store keys come from image paths (at most 512 characters, paths.ts); twice that is already not one of ours. */
export const MAX_KEY_LENGTH = 1_024;

export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const refused = (problem: string): Checked<never> => ({ ok: false, problem });

const HASH = /^[0-9a-f]{64}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what a stored name may not hold
const CONTROL = /[\u0000-\u001f\u007f]/;

const isEpochMs = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

export function checkKey(key: unknown): Checked<string> {
  if (typeof key !== 'string' || key === '') return refused('key is not a non-empty string');
  if (key.length > MAX_KEY_LENGTH) return refused(`key is longer than ${MAX_KEY_LENGTH} characters`);
  if (CONTROL.test(key)) return refused('key holds control characters');
  return ok(key);
}

/** A clean copy of `raw` when it is a valid entry (fields it does not know are left out). */
export function checkEntry(raw: unknown): Checked<StoreEntry> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return refused('entry is not an object');
  const { kind, hash, contentType, size, storedAt, expiresAt } = raw as Record<string, unknown>;
  if (!isEpochMs(storedAt)) return refused('storedAt is not a whole epoch-ms number');
  if (expiresAt !== undefined && !(isEpochMs(expiresAt) && expiresAt >= storedAt))
    return refused('expiresAt is not a whole epoch-ms number from storedAt on');
  switch (kind) {
    case 'image':
      if (typeof hash !== 'string' || !HASH.test(hash)) return refused('hash is not 64 lowercase hex digits');
      if (typeof contentType !== 'string' || !isKnownImageType(contentType))
        return refused('contentType is not an image type the store keeps');
      if (!Number.isSafeInteger(size) || (size as number) < 0) return refused('size is not a whole number >= 0');
      return ok({
        kind,
        hash,
        contentType,
        size: size as number,
        storedAt,
        ...(expiresAt === undefined ? {} : { expiresAt }),
      });
    case 'placeholder':
    case 'missing':
      if (expiresAt === undefined) return refused(`a ${kind} entry has no expiresAt`);
      return ok({ kind, storedAt, expiresAt });
    default:
      return refused('kind is not one of image, placeholder, missing');
  }
}
