/**
 * A POST with a JSON body is parsed from the bytes the front door already
 * read (src/transport/http/body-limit.ts), with one `JSON.parse`, instead
 * of by yoga's parser through the Fetch `Request`'s `json()` and its chain
 * of promises (issue 34: the engine's cost above graphql-jit's floor).
 *
 * It takes over only where yoga's own JSON parser was chosen (a POST whose
 * first content type is `application/json` or `application/graphql+json`,
 * matched as yoga matches it) and the Node request carries its buffered
 * body, which is then the `Request`'s body byte for byte. Everything else
 * (GET, an empty body, the other content types) stays yoga's.
 *
 * Its answers are yoga's (graphql-yoga's plugins/request-parser/post-json.js
 * over @whatwg-node/node-fetch's Body.json()): the bytes read as UTF-8
 * without removing a byte-order mark, the same errors with the same
 * extensions in the same order, and the parsed value handed on as it is,
 * so that batching, the parameter checks and everything after them see
 * what they saw (test/post-json-body.test.ts pins each answer).
 */
import type { IncomingMessage } from 'node:http';
import { createGraphQLError, type GraphQLParams, type Plugin } from 'graphql-yoga';
import { bufferedBody } from '../transport/http/body-limit.js';

/** As yoga's `isContentTypeMatch`: the first of a (invalid, but sent) list of types, exactly or with parameters. */
function matches(contentType: string, expected: string): boolean {
  return contentType === expected || contentType.startsWith(`${expected};`);
}

function isJsonType(header: string | null): boolean {
  const contentType = header?.split(',')[0];
  if (contentType === undefined || contentType === '') return false;
  return matches(contentType, 'application/json') || matches(contentType, 'application/graphql+json');
}

function notAnObject(received: string): Error {
  return createGraphQLError(`POST body is expected to be object but received ${received}`, {
    extensions: { http: { status: 400 }, code: 'BAD_REQUEST' },
  });
}

function invalidJson(error: unknown): Error {
  const extensions: Record<string, unknown> = { http: { spec: true, status: 400 }, code: 'BAD_REQUEST' };
  if (error instanceof Error) extensions['originalError'] = { name: error.name, message: error.message };
  return createGraphQLError('POST body sent invalid JSON.', { extensions });
}

/** The body's parameters (an object or an array, checked after as yoga's are), or yoga's error for it. */
export function parseJsonBody(body: Buffer): GraphQLParams | GraphQLParams[] {
  const text = body.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // Body.json() names the text it could not parse.
    if (error instanceof SyntaxError) error.message += `, "${text}" is not valid JSON`;
    throw invalidJson(error);
  }
  if (parsed === null || parsed === undefined) throw notAnObject(String(parsed));
  if (typeof parsed !== 'object') throw notAnObject(typeof parsed);
  // Unchecked here as in yoga: its batching limit and its parameter checks come after every parser.
  return parsed as GraphQLParams | GraphQLParams[];
}

export function useBufferedJson(): Plugin<Record<string, unknown>, { req?: IncomingMessage }> {
  return {
    onRequestParse({ request, serverContext, setRequestParser }) {
      if (request.method !== 'POST') return;
      const req = serverContext.req;
      const body = req === undefined ? undefined : bufferedBody(req);
      if (body === undefined || !isJsonType(request.headers.get('content-type'))) return;
      setRequestParser(() => parseJsonBody(body));
    },
  };
}
