/**
 * A hit's HTTP body without serializing its `data` again: yoga calls a
 * result's own `stringify` when it has one (graphql-yoga's
 * result-processor/stringify.js), and the stored result already holds its
 * `data` as JSON. Anything else about the result (errors, a `data` that is
 * not the stored one) falls back to JSON.stringify.
 */
import type { ExecutionResult } from 'graphql';
import type { StoredResult } from './result-cache.js';

export interface SplicedResult extends ExecutionResult {
  stringify(result: ExecutionResult): string;
}

export function splicedResult(stored: StoredResult): SplicedResult {
  return {
    data: stored.data,
    stringify: (result) => {
      if (result.data !== stored.data || result.errors !== undefined) return JSON.stringify(result);
      return splicedBody(stored, result.extensions);
    },
  };
}

/** `{"data":…,"extensions":…}` around the stored JSON: the bytes yoga writes for a hit. */
export function splicedBody(stored: StoredResult, extensions: ExecutionResult['extensions']): string {
  return `${splicedHead(stored)}${splicedTail(extensions)}`;
}

/** The part of a hit's body that never changes: `{"data":` and the stored JSON. */
function splicedHead(stored: StoredResult): string {
  return `{"data":${stored.json}`;
}

/** The part that changes with every hit (`extensions.cost` reads the allowance now), and the closing brace. */
export function splicedTail(extensions: ExecutionResult['extensions']): string {
  return extensions === undefined ? '}' : `,"extensions":${JSON.stringify(extensions)}}`;
}

/**
 * The head's UTF-8 bytes, encoded on a result's first hit and kept beside
 * it (a hit is written as these bytes and the tail: the fast path,
 * src/transport/http/result-cache-hits.ts), so that a repeated hit neither
 * counts nor encodes the stored JSON again. Weak: an evicted result takes
 * its bytes with it.
 */
const encodedHeads = new WeakMap<StoredResult, Buffer>();

export function encodedHead(stored: StoredResult): Buffer {
  let head = encodedHeads.get(stored);
  if (head === undefined) {
    head = Buffer.from(splicedHead(stored), 'utf8');
    encodedHeads.set(stored, head);
  }
  return head;
}

/** Past this, a hit's stored part is written beside its tail rather than copied into one buffer with it. */
const WHOLE_BODY_MAX_BYTES = 16 * 1024;

/**
 * A hit's whole body as one buffer, for a stored result small enough to
 * copy: kept beside the result while its tail stays the same string
 * (`recordHitTail` hands back the kept one), so a repeated hit is one
 * `end(bytes)` like any plain answer, not a write of the head and another of
 * the tail. Undefined for a larger result, whose head is written as it is
 * (a tail that changes on every hit would copy it each time).
 */
const wholeBodies = new WeakMap<StoredResult, { readonly tail: string; readonly bytes: Buffer }>();

export function encodedBody(stored: StoredResult, tail: string): Buffer | undefined {
  const kept = wholeBodies.get(stored);
  if (kept !== undefined && kept.tail === tail) return kept.bytes;
  // Measured in characters, a bound on bytes within a factor of three; the head's bytes are not kept beside the whole.
  if (stored.json.length > WHOLE_BODY_MAX_BYTES) return undefined;
  const bytes = Buffer.from(splicedHead(stored) + tail, 'utf8');
  wholeBodies.set(stored, { tail, bytes });
  return bytes;
}
