/**
 * What happens to one request, in the order the fixed interface needs:
 *
 *   control route? -> answered at once (no count, no delay, no key)
 *   count it -> pick a fault -> wait the latency
 *   -> fault? acted out (no key, no allowance)
 *   -> unknown route? 404 -> key -> allowance -> handler -> rate-limit headers
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { upstreamAssumptions } from '../src/upstream/assumptions.js';
import { handleControl, isControlPath, type ControlState } from './control.js';
import { actOutFault } from './fault-responses.js';
import type { Fixtures } from './fixtures/build.js';
import type { KeyClass } from './requests.js';
import { varyPayload } from './payload-variation.js';
import { encode, mergeHeaders, send } from './respond.js';
import { errorResult, HttpError, type RouteContext, type RouteMatch, type RouteResult, type Router } from './router.js';

export interface PipelineDeps {
  readonly router: Router;
  readonly fixtures: Fixtures;
  readonly control: ControlState;
  readonly apiKey: string;
  readonly latencyMs: number;
  /** Aborted when the sandbox closes: waits end, streams stop. */
  readonly closing: AbortSignal;
  /** The live matches (sandbox/live/simulation.ts): brought up to the request's time before it is answered. */
  readonly live?: { advance(now: number): void };
}

/** Connections that have carried an upstream request before: `close-reused` acts only on those. */
const usedSockets = new WeakSet<Socket>();

export function createRequestHandler(deps: PipelineDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const url = splitUrl(req.url ?? '/');
    const { pathname, query } = url;
    try {
      if (isControlPath(pathname)) {
        send(
          res,
          encode(
            await handleControl(req, pathname, query, deps.control, { router: deps.router, fixtures: deps.fixtures }),
          ),
        );
        return;
      }
      await serveUpstream(deps, req, res, url);
    } catch (error) {
      // Half an answer cannot be turned into an error answer: cut it so the client notices.
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof HttpError) {
        send(res, encode(errorResult(error.status, error.message)));
        return;
      }
      process.stderr.write(
        `sandbox: ${req.method ?? 'GET'} ${pathname} failed: ${String(error instanceof Error ? error.stack : error)}\n`,
      );
      send(res, encode(errorResult(500, 'Internal sandbox error')));
    }
  };
}

async function serveUpstream(
  deps: PipelineDeps,
  req: IncomingMessage,
  res: ServerResponse,
  { pathname, query, rawQuery }: SplitUrl,
): Promise<void> {
  const { control, router, closing } = deps;
  const method = req.method ?? 'GET';
  const routeKey = `${method} ${pathname}`;
  control.requests.record({
    at: new Date(control.clock()).toISOString(),
    method,
    path: pathname,
    query: rawQuery,
    key: classifyKey(req, deps.apiKey),
  });
  const reused = usedSockets.has(req.socket);
  usedSockets.add(req.socket);
  const fault = control.faults.take(routeKey, (f) => f.kind !== 'close-reused' || reused);
  if (!(await pause(deps.latencyMs + (fault?.latencyMs ?? 0), closing))) return;
  if (fault?.kind === 'close-reused') {
    // No status, no byte: to the client the request met a socket already closed.
    req.socket.destroy();
    return;
  }

  const now = control.clock();
  deps.live?.advance(now);
  const match = router.match(method, pathname);
  const answer = async (): Promise<RouteResult> =>
    match === undefined
      ? notFound()
      : vary(
          deps.fixtures,
          match,
          await runHandler(match, { params: match.params, query, fixtures: deps.fixtures, now }),
        );

  if (fault !== undefined && fault.kind !== 'delay') {
    await actOutFault(fault, { res, realResponse: async () => encode(await answer()), closing });
    return;
  }
  if (match === undefined) return send(res, encode(notFound()));

  const { route } = match;
  if (route.auth) {
    const refusal = checkKey(req, deps.apiKey);
    if (refusal !== undefined) return send(res, encode(refusal));
  }
  if (!route.counted) return send(res, encode(await answer()));

  const { allowance } = control;
  if (!allowance.reserve(now)) {
    const exhausted = errorResult(upstreamAssumptions.quotaExhaustedStatus, 'Daily request allowance exhausted');
    const headers = mergeHeaders(allowance.headers(now), { 'retry-after': String(allowance.secondsToReset(now)) });
    return send(res, encode({ ...exhausted, headers }));
  }
  const result = await answer();
  // Spec 8 counts answers that carry data or say "no such thing"; client errors and failures are free.
  const spends = (result.status >= 200 && result.status < 300) || result.status === 404;
  if (!spends) allowance.release();
  send(res, encode({ ...result, headers: mergeHeaders(result.headers, allowance.headers(now)) }));
}

function classifyKey(req: IncomingMessage, apiKey: string): KeyClass {
  const sent = req.headers[upstreamAssumptions.apiKeyHeader];
  if (sent === undefined || sent === '') return 'none';
  return sent === apiKey ? 'valid' : 'other';
}

/** The refusal for a request without the right key; the key is never repeated back. */
function checkKey(req: IncomingMessage, apiKey: string): RouteResult | undefined {
  switch (classifyKey(req, apiKey)) {
    case 'none':
      return errorResult(upstreamAssumptions.missingKeyStatus, 'Missing API key');
    case 'other':
      return errorResult(upstreamAssumptions.invalidKeyStatus, 'Invalid API key');
    case 'valid':
      return undefined;
  }
}

async function runHandler(match: RouteMatch, ctx: RouteContext): Promise<RouteResult> {
  try {
    return await match.route.handler(ctx);
  } catch (error) {
    if (error instanceof HttpError) return errorResult(error.status, error.message);
    throw error;
  }
}

/** The data set's dress on a JSON answer (payload-variation.ts); bytes go out as they are. */
function vary(fixtures: Fixtures, match: RouteMatch, result: RouteResult): RouteResult {
  const variation = fixtures.dataset.payload;
  if (variation === undefined || Buffer.isBuffer(result.body)) return result;
  return { ...result, body: varyPayload(variation, match.route.template, result.body) };
}

function notFound(): RouteResult {
  return errorResult(404, 'Route not found');
}

/** Waits `ms`; false when the sandbox closed meanwhile and the request should be dropped. */
async function pause(ms: number, closing: AbortSignal): Promise<boolean> {
  if (closing.aborted) return false;
  if (ms <= 0) return true;
  try {
    await sleep(ms, undefined, { signal: closing });
    return true;
  } catch {
    return false;
  }
}

interface SplitUrl {
  readonly pathname: string;
  readonly query: URLSearchParams;
  /** As sent, without `?`. */
  readonly rawQuery: string;
}

/** Split by hand: `new URL` would read a path like `//x` as a host. */
function splitUrl(raw: string): SplitUrl {
  const q = raw.indexOf('?');
  const rawQuery = q < 0 ? '' : raw.slice(q + 1);
  return { pathname: q < 0 ? raw : raw.slice(0, q), query: new URLSearchParams(rawQuery), rawQuery };
}
