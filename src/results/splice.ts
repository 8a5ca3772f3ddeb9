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

/** `{"data":…,"extensions":…}` around the stored JSON: the bytes yoga writes for a hit (also the fast path's, src/transport/http/result-cache-hits.ts). */
export function splicedBody(stored: StoredResult, extensions: ExecutionResult['extensions']): string {
  const tail = extensions === undefined ? '' : `,"extensions":${JSON.stringify(extensions)}`;
  return `{"data":${stored.json}${tail}}`;
}
