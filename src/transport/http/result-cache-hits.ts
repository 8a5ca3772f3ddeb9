/**
 * Answers an operation-result cache hit in the Node HTTP handler, before
 * yoga (issue 7, the bench's warm ratio).
 *
 * Why: a hit needs no parse, validation or execution, yet through yoga it
 * still pays the whole HTTP pipeline — whatwg-node Request/Response, an
 * AbortSignal, every envelop hook, prometheus timing — which held a cached
 * `{ __typename }` to ~0.6 of a hand-written endpoint. Here a hit is the
 * stored JSON written straight to the socket.
 *
 * Why skipping is safe: a result is only stored after yoga ran the same
 * query text, operation name and variables for the same client through the
 * operation limits, validation and the cost plugin, and a hit spends
 * nothing (no upstream request, no budget), so there is nothing left to
 * check but the client key — checked here exactly as
 * src/plugins/use-client-keys.ts does. Anything this module is not sure
 * about goes to yoga untouched (the body src/transport/http/body-limit.ts read is handed
 * over as the request's `body`, which @whatwg-node/server reads): another method or path, an
 * `Origin` (CORS stays yoga's), a content type other than JSON or an
 * encoded body, an `accept` yoga would not answer with JSON, a missing or
 * wrong key (yoga answers 401/403), a body that is not one plain operation,
 * variables or extensions past the input bounds (yoga refuses them, with
 * the same check: src/plugins/use-input-bounds.ts; they are never walked
 * here, not even to make a cache key), a persisted operation whose text
 * `documentOf` cannot name at once (an APQ registration, whose hash yoga
 * checks; an ID this replica does not hold; a text trusted mode refuses),
 * and any miss. It runs synchronously inside the request guard
 * (src/transport/http/request-guard.ts): an exception is a coded 500 on this request,
 * never an uncaught one.
 *
 * Only this replica's layer is read here (`getLocal`), synchronously: in a
 * cluster, a local miss goes to yoga, whose plugin asks the shared tier
 * (src/plugins/use-result-cache.ts), so a hit here never waits on Redis.
 *
 * The answer matches yoga's for a hit: status 200, the content type yoga's
 * result processor would pick, `data` spliced from the stored JSON and
 * `extensions.cost` from the same function (src/results/hit.ts). The hit
 * counts in the cache-hit metric as in yoga, and in
 * `sports_graph_result_cache_fast_hits_total`.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Counter } from 'prom-client';
import { presentedKey, type ClientKeys } from '../../access/client-keys.js';
import { inputRefusal, type InputBounds } from './input-bounds.js';
import { bufferedBody } from './body-limit.js';
import { KnownBodies, type KnownOperation } from './known-bodies.js';
import { keepParsedBody } from './json-post.js';
import { recordHitTail, type HitServices } from '../../results/hit.js';
import { resultKey, type ResultCache } from '../../results/result-cache.js';
import { encodedBody, encodedHead } from '../../results/splice.js';

export interface FastPathOptions {
  readonly cache: ResultCache;
  readonly keys: ClientKeys;
  readonly services: HitServices;
  readonly fastHits: Pick<Counter, 'inc'>;
  /** The bounds yoga applies to variables and extensions; a body past them is yoga's to refuse. */
  readonly inputBounds: InputBounds;
  /** @default '/graphql' */
  readonly endpoint?: string;
  /**
   * The document text a request runs, when known without waiting (persisted
   * operations name it by ID: src/plugins/use-persisted-operations.ts);
   * undefined leaves the request to yoga.
   * @default its `query`, unless it carries `extensions.persistedQuery`
   */
  readonly documentOf?: (request: { readonly query: unknown; readonly extensions: unknown }) => string | undefined;
  /** Told of each hit answered here (a trace span: src/plugins/use-operation-spans.ts). */
  readonly onHit?:
    | ((
        request: IncomingMessage,
        hit: { readonly operationName: string | undefined; readonly clientName: string | undefined },
      ) => void)
    | undefined;
}

const namesPersisted = (extensions: unknown): boolean =>
  extensions != null && (extensions as Record<string, unknown>)['persistedQuery'] !== undefined;

const plainQuery = ({
  query,
  extensions,
}: {
  readonly query: unknown;
  readonly extensions: unknown;
}): string | undefined => (typeof query === 'string' && !namesPersisted(extensions) ? query : undefined);

/**
 * A header's verdict, worked out once per distinct value: a client sends the
 * same `accept` and `content-type` on every request, and splitting and
 * lower-casing them was a few per cent of a hit's CPU. Bounded: past
 * `rememberedValues` distinct values (a client making up new ones) the
 * memory starts over.
 */
const rememberedValues = 64;
const mediaTypes = new Map<string | undefined, string | undefined>();
const jsonBodies = new Map<string | undefined, boolean>();

function rememberedByHeader<T>(
  memory: Map<string | undefined, T>,
  value: string | undefined,
  verdict: (value: string | undefined) => T,
): T {
  const known = memory.get(value);
  if (known !== undefined || memory.has(value)) return known as T;
  const result = verdict(value);
  if (memory.size >= rememberedValues) memory.clear();
  memory.set(value, result);
  return result;
}

/** The media types of yoga's regular (non-streaming) result processor, in its order. */
const regularMediaTypes = ['application/graphql-response+json', 'application/json'] as const;
const contentTypes = new Map<string, string>(regularMediaTypes.map((type) => [type, `${type}; charset=utf-8`]));

const matches = (processorType: string, requested: string): boolean => {
  const [pre, suf] = processorType.split('/');
  const [askedPre, askedSuf] = requested.split('/');
  return (askedPre === '*' || askedPre === pre) && (askedSuf === '*' || askedSuf === suf);
};

/**
 * The content type yoga answers a plain query result with, or undefined
 * when it would not use its JSON processor. Mirrors graphql-yoga's
 * result-processor/accept.js and use-result-processor.js: the accepted
 * types are walked last to first, non-utf-8 charsets skipped, and the last
 * match kept — so the first listed type that matches wins, and a wildcard
 * gets `application/json`.
 */
export function yogaJsonMediaType(accept: string | undefined): string | undefined {
  return rememberedByHeader(mediaTypes, accept, mediaTypeOf);
}

function mediaTypeOf(accept: string | undefined): string | undefined {
  const requested = (accept === undefined || accept === '' ? '*/*' : accept)
    .replace(/\s/g, '')
    .toLowerCase()
    .split(',');
  let chosen: string | undefined;
  for (let i = requested.length - 1; i >= 0; i -= 1) {
    const [mediaType = '', ...params] = (requested[i] ?? '').split(';');
    const charset = params.find((param) => param.includes('charset=')) ?? 'charset=utf-8';
    if (charset !== 'charset=utf-8') continue;
    for (const processorType of regularMediaTypes) {
      if (matches(processorType, mediaType)) chosen = processorType;
    }
  }
  return chosen;
}

/** `application/json`, optionally with a utf-8 charset: what yoga parses as JSON and CSRF prevention lets through. */
function isJsonBody(contentType: string | undefined): boolean {
  return rememberedByHeader(jsonBodies, contentType, isJsonType);
}

function isJsonType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const [mediaType = '', ...params] = contentType.replace(/\s/g, '').toLowerCase().split(';');
  return (
    mediaType === 'application/json' &&
    params.every((param) => !param.startsWith('charset=') || param === 'charset=utf-8')
  );
}

const header =
  (req: IncomingMessage) =>
  (name: string): string | undefined => {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const operationKeys = new Set(['query', 'variables', 'operationName', 'extensions']);

interface Operation {
  /** A string, or absent when an ID in `extensions` names the document. */
  query: string | undefined;
  operationName: string | null | undefined;
  variables: unknown;
  extensions: unknown;
}

/** One plain `{ query, variables?, operationName?, extensions? }`, as yoga's parameter check accepts it; anything else is yoga's to answer. */
function singleOperation(req: IncomingMessage, body: string): Operation | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isPlainObject(parsed)) return undefined;
  // A miss goes on to yoga, whose parser takes this instead of parsing the same bytes again.
  keepParsedBody(req, parsed);
  for (const key of Object.keys(parsed)) if (!operationKeys.has(key)) return undefined;
  const { query, variables, operationName, extensions } = parsed;
  if (query != null && typeof query !== 'string') return undefined;
  if (variables != null && !isPlainObject(variables)) return undefined;
  if (extensions != null && !isPlainObject(extensions)) return undefined;
  if (operationName != null && typeof operationName !== 'string') return undefined;
  return { query: query ?? undefined, operationName, variables, extensions };
}

export function serveResultCacheHits(options: FastPathOptions, next: RequestListener): RequestListener {
  const endpoint = options.endpoint ?? '/graphql';
  const documentOf = options.documentOf ?? plainQuery;
  const knownBodies = new KnownBodies();
  /** The key a body not seen before asks for, remembered when only its bytes decide it; undefined leaves it to yoga. */
  const operationOf = (
    req: IncomingMessage,
    body: Buffer,
    clientName: string | undefined,
  ): KnownOperation | undefined => {
    const operation = singleOperation(req, body.toString('utf8'));
    if (operation === undefined || inputRefusal(operation, options.inputBounds) !== undefined) return undefined;
    const query = documentOf(operation);
    if (query === undefined) return undefined;
    const known = {
      key: resultKey({ ...operation, query, clientName }),
      operationName: operation.operationName ?? undefined,
    };
    // A persisted operation's text is whatever the APQ store holds now: asked again each time.
    if (!namesPersisted(operation.extensions)) knownBodies.remember(clientName, body, known);
    return known;
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || req.url !== endpoint) return next(req, res);
    const headers = req.headers;
    if (
      headers.origin !== undefined ||
      headers['content-encoding'] !== undefined ||
      !isJsonBody(headers['content-type'])
    )
      return next(req, res);
    const mediaType = yogaJsonMediaType(headers.accept);
    if (mediaType === undefined) return next(req, res);
    let clientName: string | undefined;
    if (options.keys.enabled) {
      const check = options.keys.check(presentedKey(header(req)));
      if (!check.ok) return next(req, res);
      clientName = check.client;
    }

    // Read whole by src/transport/http/body-limit.ts, which runs first; absent when empty.
    const body = bufferedBody(req);
    if (body === undefined) return next(req, res);
    const known = knownBodies.get(clientName, body) ?? operationOf(req, body, clientName);
    if (known === undefined) return next(req, res);
    const hit = options.cache.getLocal(known.key);
    if (hit === undefined) return next(req, res);
    const tail = recordHitTail(hit, options.services, clientName);
    options.fastHits.inc();
    // The same bytes as splicedBody (yoga's answer for a hit): the stored part encoded once, only the cost's tail each time.
    const type = contentTypes.get(mediaType) ?? `${mediaType}; charset=utf-8`;
    const answer = encodedBody(hit, tail);
    if (answer !== undefined) {
      res.writeHead(200, { 'content-type': type, 'content-length': answer.length });
      res.end(answer);
    } else {
      const head = encodedHead(hit);
      res.writeHead(200, { 'content-type': type, 'content-length': head.length + Buffer.byteLength(tail) });
      // Corked: the headers, the head and the tail leave in one write (writev), as one body would.
      res.cork();
      res.write(head);
      res.end(tail);
      res.uncork();
    }
    options.onHit?.(req, { operationName: known.operationName, clientName });
  };
}
