/**
 * Turning a route result into bytes on the wire. Faults need the bytes of the
 * real answer (to truncate, trickle or pad them), so encoding is separate
 * from sending.
 */
import type { ServerResponse } from 'node:http';
import type { RouteResult } from './router.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export interface EncodedResponse {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export function encode(result: RouteResult): EncodedResponse {
  const isBytes = Buffer.isBuffer(result.body);
  const body = isBytes ? (result.body as Buffer) : Buffer.from(JSON.stringify(result.body ?? null), 'utf8');
  const contentType = isBytes ? (result.contentType ?? 'application/octet-stream') : JSON_CONTENT_TYPE;
  return { status: result.status, headers: mergeHeaders({ 'content-type': contentType }, result.headers), body };
}

/** Later sets win; names are lower-cased so `Retry-After` and `retry-after` do not both go out. */
export function mergeHeaders(
  ...sets: ReadonlyArray<Readonly<Record<string, string>> | undefined>
): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const set of sets) {
    if (set === undefined) continue;
    for (const [name, value] of Object.entries(set)) merged[name.toLowerCase()] = value;
  }
  return merged;
}

/** Sends a whole response unless the client has already gone. */
export function send(res: ServerResponse, response: EncodedResponse): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(response.status, { ...response.headers, 'content-length': String(response.body.length) });
  res.end(response.body);
}
