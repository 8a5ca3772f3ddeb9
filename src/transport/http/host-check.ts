/**
 * The `Host` and `Origin` checks of the front door (src/access/allowed-hosts.ts):
 * an HTTP request for a name the gateway does not answer for is refused
 * with 421 `HOST_NOT_ALLOWED` before anything reads it; a WebSocket upgrade
 * is refused the same way, or with 403 `ORIGIN_NOT_ALLOWED` when a browser
 * page of another origin opens it.
 *
 * `/healthz` answers for any name: it reveals nothing and spends nothing,
 * and a load balancer that probes by an address or an internal name the
 * configuration forgot should see a refusal on real traffic, not a dead
 * replica.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Code } from '../../codes/error-codes.js';
import type { HostPolicy } from '../../access/allowed-hosts.js';
import { writeRefusal, refusalBody, type Refusal } from './refusal.js';

export const hostNotAllowed: Refusal = {
  status: 421,
  code: Code.HOST_NOT_ALLOWED,
  message: 'This gateway does not answer for that host name.',
};

export const originNotAllowed: Refusal = {
  status: 403,
  code: Code.ORIGIN_NOT_ALLOWED,
  message: 'Pages of this origin may not open a WebSocket to the gateway.',
};

/** RFC 9112: an HTTP/1.1 request without `Host` is a bad request (Node's own check answers it with no body, so it is off and done here). */
export const hostRequired: Refusal = {
  status: 400,
  code: Code.BAD_HTTP_REQUEST,
  message: 'An HTTP/1.1 request needs a Host header.',
};

const firstHeader = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

export function refuseForeignHosts(
  policy: HostPolicy,
  next: RequestListener,
  { open = ['/healthz'] }: { open?: readonly string[] } = {},
): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const host = req.headers.host;
    if (host === undefined && req.httpVersion === '1.1') {
      req.resume();
      writeRefusal(req, res, hostRequired);
      return;
    }
    if (policy.allowsHost(host) || open.includes((req.url ?? '').split('?')[0] ?? '')) {
      next(req, res);
      return;
    }
    req.resume();
    writeRefusal(req, res, hostNotAllowed);
  };
}

/** The refusal of a WebSocket upgrade, or undefined when it may proceed. */
export function upgradeRefusal(policy: HostPolicy, req: IncomingMessage): Refusal | undefined {
  if (!policy.allowsHost(req.headers.host)) return hostNotAllowed;
  if (!policy.allowsOrigin(firstHeader(req.headers.origin), req.headers.host)) return originNotAllowed;
  return undefined;
}

/** What ws's `verifyClient` callback needs to answer a refused upgrade with a coded JSON body. */
export function upgradeAnswer(
  req: IncomingMessage,
  refusal: Refusal,
): { status: number; body: string; headers: Record<string, string> } {
  return {
    status: refusal.status,
    body: refusalBody(req.url, refusal),
    headers: { 'content-type': 'application/json; charset=utf-8' },
  };
}
