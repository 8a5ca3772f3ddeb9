/**
 * The client key an operation came with, from whichever transport carried
 * it: graphql-ws `connectionParams` or the upgrade request's headers (the
 * same order as the 4403 check in src/transport/ws/graphql-ws-server.ts), or the HTTP request's headers.
 */
import { presentedKey } from './client-keys.js';

type Headers = { get(name: string): string | null };
type NodeHeaders = Readonly<Record<string, string | string[] | undefined>>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

export function presentedKeyInContext(context: Readonly<Record<string, unknown>>): string | undefined {
  const params = context['connectionParams'];
  if (isRecord(params)) {
    const fromParams = presentedKey((name) => {
      const value = params[name];
      return typeof value === 'string' ? value : undefined;
    });
    if (fromParams !== undefined) return fromParams;
  }
  // Over HTTP, yoga's fetch Request; a graphql-ws context has none, only the upgrade request's headers as `req`
  // (read whether or not connection_init carried a payload: the 4403 check accepted the key from there).
  const request = context['request'];
  if (
    isRecord(request) &&
    isRecord(request['headers']) &&
    typeof (request['headers'] as Partial<Headers>).get === 'function'
  ) {
    const headers = request['headers'] as Headers;
    return presentedKey((name) => headers.get(name));
  }
  const req = context['req'];
  if (isRecord(req) && isRecord(req['headers'])) {
    const headers = req['headers'] as NodeHeaders;
    return presentedKey((name) => {
      const value = headers[name];
      return Array.isArray(value) ? value[0] : value;
    });
  }
  return undefined;
}
