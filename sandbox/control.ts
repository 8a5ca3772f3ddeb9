/**
 * Control routes under `/__sandbox/` (DESIGN.md, "Fixed interface points").
 * They belong to the test harness, not to the upstream: never counted, never
 * delayed, never faulted, no key, no allowance.
 */
import type { IncomingMessage } from 'node:http';
import type { Allowance } from './allowance.js';
import { parseFaultSpec, type FaultStore } from './faults.js';
import type { RequestLog } from './requests.js';
import type { Fixtures } from './fixtures/build.js';
import { errorResult, HttpError, json, type RouteResult, type Router } from './router.js';

export const CONTROL_PREFIX = '/__sandbox/';

/** Control bodies are tiny; anything bigger is a mistake. */
const MAX_BODY_BYTES = 64 * 1024;

export interface ControlState {
  readonly requests: RequestLog;
  readonly faults: FaultStore;
  readonly allowance: Allowance;
  readonly clock: () => number;
}

export function isControlPath(pathname: string): boolean {
  return pathname.startsWith(CONTROL_PREFIX) || pathname === CONTROL_PREFIX.slice(0, -1);
}

export async function handleControl(
  req: IncomingMessage,
  pathname: string,
  query: URLSearchParams,
  state: ControlState,
  /** Control routes a route group registered in the router (`/__sandbox/v6/mapping-version`...). */
  groups?: { router: Router; fixtures: Fixtures },
): Promise<RouteResult> {
  const route = `${req.method ?? 'GET'} ${pathname}`;
  switch (route) {
    case 'GET /__sandbox/requests':
      return json(200, state.requests.snapshot());
    case 'GET /__sandbox/requests/log':
      return json(200, state.requests.entries());
    case 'POST /__sandbox/requests/reset':
      state.requests.reset();
      return json(200, state.requests.snapshot());

    case 'GET /__sandbox/faults':
      return json(200, { faults: state.faults.list() });
    case 'POST /__sandbox/faults': {
      const fault = state.faults.add(parseFaultSpec(await readJson(req)));
      return json(201, { id: fault.id });
    }
    case 'DELETE /__sandbox/faults': {
      const only = query.get('route');
      return json(200, { cleared: state.faults.clear(only ?? undefined) });
    }

    case 'GET /__sandbox/quota':
      return json(200, quotaView(state));
    case 'POST /__sandbox/quota': {
      const change = parseQuotaChange(await readJson(req));
      state.allowance.set(state.clock(), change);
      return json(200, quotaView(state));
    }
  }
  const faultId = /^DELETE \/__sandbox\/faults\/([^/]+)$/.exec(route)?.[1];
  if (faultId !== undefined) {
    return state.faults.remove(decodeURIComponent(faultId))
      ? json(200, { cleared: 1 })
      : errorResult(404, 'Fault not found');
  }
  const groupRoute = groups?.router.match(req.method ?? 'GET', pathname);
  if (groupRoute !== undefined && groups !== undefined) {
    return groupRoute.route.handler({
      params: groupRoute.params,
      query,
      fixtures: groups.fixtures,
      now: state.clock(),
    });
  }
  return errorResult(404, 'Route not found');
}

function quotaView(state: ControlState): { limit: number; used: number; remaining: number; resetsAt: string } {
  return state.allowance.state(state.clock());
}

function parseQuotaChange(input: unknown): { used?: number; limit?: number } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new HttpError(400, 'Quota change must be a JSON object');
  }
  const { used, limit } = input as Record<string, unknown>;
  for (const [name, value] of [
    ['used', used],
    ['limit', limit],
  ] as const) {
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0)) {
      throw new HttpError(400, `${name} must be a non-negative integer`);
    }
  }
  return {
    ...(used === undefined ? {} : { used: used as number }),
    ...(limit === undefined ? {} : { limit: limit as number }),
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'Control request body too large');
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'Body must be valid JSON');
  }
}
