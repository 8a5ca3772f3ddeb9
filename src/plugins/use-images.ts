/**
 * The gateway's image routes as a yoga plugin (DESIGN.md, fixed interface
 * points): `/images/v1|v2|v6/...` and `/images/logo?...` (the fallback chain
 * for one entity). Answers carry `Cache-Control: public, max-age=86400`, an
 * ETag that is the content hash, and 304 on a matching `If-None-Match`.
 * Errors are JSON `{"error": {"code", "message"}}` with the status of the
 * DESIGN error table.
 *
 * Every request passes the spend gate (src/spend/spend-gate.ts) as the
 * client its key names, with what the image service says it may cost
 * (stored images and V1 cost nothing), before any upstream request; it is
 * charged what it really spent. A refusal is 429 `QUOTA_EXHAUSTED` (with
 * `scope`, `estimated`, `resetsAt` and `Retry-After`) or 400
 * `COST_LIMIT_EXCEEDED`.
 */
import type { Plugin } from 'graphql-yoga';
import { rawTarget } from '../transport/http/raw-target.js';
import { pathOfTarget } from '../transport/http/request-path.js';
import { Code } from '../codes/error-codes.js';
import { presentedKey, type ClientKeys } from '../access/client-keys.js';
import type { SpendRefusal } from '../spend/spend-gate.js';
import { refusalBody, secondsUntil } from '../spend/spend-refusal.js';
import type { GatewayServices } from '../context.js';
import { SpendMeter } from '../spend/spend-meter.js';
import { ErrorCode, GatewayError, isGatewayError } from '../upstream/errors.js';
import { imageServiceFor } from '../images/for-services.js';
import { isImagePath, parseImagePath, type ParsedImagePath } from '../model/image-paths.js';
import type { ImageService } from '../images/service.js';
import type { ImageEntry } from '../images/store.js';

const ONE_DAY = 'public, max-age=86400';

const statusOf: Readonly<Record<ErrorCode, number>> = {
  NOT_FOUND: 404,
  BAD_USER_INPUT: 400,
  NOT_SUPPORTED: 501,
  UPSTREAM_UNAVAILABLE: 502,
  UPSTREAM_TIMEOUT: 504,
  UPSTREAM_AUTH: 502,
  QUOTA_EXHAUSTED: 429,
  UPSTREAM_UNREACHABLE: 502,
  UPSTREAM_INVALID_RESPONSE: 502,
};

function errorResponse(fetchAPI: { Response: typeof Response }, error: GatewayError): Response {
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  };
  if (error.details.retryAfter !== undefined) headers['retry-after'] = String(error.details.retryAfter);
  return new fetchAPI.Response(JSON.stringify({ error: { code: error.code, message: error.message } }), {
    status: statusOf[error.code],
    headers,
  });
}

function refusalResponse(fetchAPI: { Response: typeof Response }, refusal: SpendRefusal): Response {
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  };
  if (refusal.resetsAt !== undefined) headers['retry-after'] = String(secondsUntil(refusal.resetsAt));
  return new fetchAPI.Response(JSON.stringify(refusalBody(refusal)), {
    status: refusal.code === Code.COST_LIMIT_EXCEEDED ? 400 : 429,
    headers,
  });
}

function etagOf(entry: ImageEntry): string {
  return `"${entry.hash.slice(0, 32)}"`;
}

function matchesEtag(header: string | null, etag: string): boolean {
  if (header === null) return false;
  return header.split(',').some((candidate) => {
    const value = candidate.trim().replace(/^W\//, '');
    return value === etag || value === '*';
  });
}

function imageHeaders(
  contentType: string,
  etag: string | undefined,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    'content-type': contentType,
    'cache-control': ONE_DAY,
    'x-content-type-options': 'nosniff',
    // An SVG opened directly must not run scripts on the gateway's origin.
    ...(contentType === 'image/svg+xml'
      ? { 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox" }
      : {}),
    ...(etag === undefined ? {} : { etag }),
    ...extra,
  };
}

/**
 * @param keys the gateway's client keys: the key a request presents names
 *   the client whose budget it spends (the same key GraphQL reads).
 */
export function useImages(services: GatewayServices, keys: ClientKeys): Plugin {
  return {
    onRequest({ request, url, serverContext, endResponse, fetchAPI }) {
      const target = rawTarget(serverContext) ?? url.pathname + url.search;
      const path = pathOfTarget(target);
      if (!isImagePath(path) && !isImagePath(url.pathname)) return;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        endResponse(new fetchAPI.Response(null, { status: 405, headers: { allow: 'GET, HEAD' } }));
        return;
      }
      // yoga awaits a promise returned from onRequest.
      const checked = keys.enabled ? keys.check(presentedKey((name) => request.headers.get(name))) : undefined;
      const client = checked?.ok === true ? checked.client : undefined;
      return serve(services, client, request, target, fetchAPI).then(endResponse);
    },
  };
}

async function serve(
  services: GatewayServices,
  client: string | undefined,
  request: Request,
  target: string,
  fetchAPI: { Response: typeof Response },
): Promise<Response> {
  let parsed: ParsedImagePath;
  let images: ImageService;
  try {
    parsed = parseImagePath(target);
    images = await imageServiceFor(services);
  } catch (error) {
    return failed(services, fetchAPI, error);
  }
  const estimate = parsed.kind === 'logo' ? images.logoCost(parsed.sources) : images.rawCost(parsed.request);
  const admission = await services.spend.admit(estimate, client, 'image request');
  if (!admission.ok) return refusalResponse(fetchAPI, admission.refusal);
  const meter = new SpendMeter();
  meter.guard = admission.pass.guard;
  try {
    return await answerImage({
      images,
      parsed,
      request,
      fetchAPI,
      meter,
      deadline: Date.now() + services.config.timeouts.operationMs,
    });
  } catch (error) {
    return failed(services, fetchAPI, error);
  } finally {
    admission.pass.settle();
  }
}

function failed(services: GatewayServices, fetchAPI: { Response: typeof Response }, error: unknown): Response {
  if (isGatewayError(error)) return errorResponse(fetchAPI, error);
  services.logger.error({ err: error }, 'image route failed');
  return errorResponse(fetchAPI, new GatewayError(ErrorCode.UpstreamInvalidResponse, 'The image could not be served.'));
}

interface Admitted {
  readonly images: ImageService;
  readonly parsed: ParsedImagePath;
  readonly request: Request;
  readonly fetchAPI: { Response: typeof Response };
  /** Records what the answer really spent. */
  readonly meter: SpendMeter;
  readonly deadline: number;
}

/** The answer to an admitted request; failures throw GatewayErrors. */
async function answerImage({ images, parsed, request, fetchAPI, meter, deadline }: Admitted): Promise<Response> {
  const head = request.method === 'HEAD';
  const answer = async (entry: ImageEntry, extra: Record<string, string> = {}): Promise<Response> => {
    const etag = etagOf(entry);
    if (matchesEtag(request.headers.get('if-none-match'), etag)) {
      return new fetchAPI.Response(null, { status: 304, headers: { etag, 'cache-control': ONE_DAY } });
    }
    const bytes = await images.store.read(entry);
    return new fetchAPI.Response(head ? null : new Uint8Array(bytes), {
      status: 200,
      headers: imageHeaders(entry.contentType, etag, { 'content-length': String(bytes.length), ...extra }),
    });
  };

  if (parsed.kind === 'logo') {
    const report = await images.logo(parsed.sources, deadline, meter);
    if (report.found !== undefined) {
      return answer(report.found.entry, {
        'x-image-version': report.found.request.version,
        'content-location': report.found.url,
      });
    }
    const failure = report.errors[0];
    if (failure !== undefined) throw failure;
    throw new GatewayError(ErrorCode.NotFound, 'No logo on V1, V2 or V6 for this entity.');
  }

  const outcome = await images.image(parsed.request, deadline, meter);
  switch (outcome.kind) {
    case 'image':
      return answer(outcome.entry);
    case 'placeholder':
      if (parsed.keepPlaceholder && outcome.bytes !== undefined) {
        return new fetchAPI.Response(head ? null : new Uint8Array(outcome.bytes), {
          status: 200,
          headers: imageHeaders('image/png', undefined, { 'x-image-placeholder': 'true' }),
        });
      }
      throw new GatewayError(
        ErrorCode.NotFound,
        'V1 answered with its grey placeholder: no image for this ID (add ?placeholder=keep for the placeholder).',
        {
          version: 'v1',
        },
      );
    case 'missing':
      throw await images.explainMissing(parsed.request, deadline, meter);
  }
}
