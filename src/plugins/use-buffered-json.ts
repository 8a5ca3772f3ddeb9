/**
 * A POST with a JSON body is parsed from the bytes the front door already
 * read (src/transport/http/body-limit.ts), with one `JSON.parse`, instead
 * of by yoga's parser through the Fetch `Request`'s `json()` and its chain
 * of promises (issue 34: the engine's cost above graphql-jit's floor).
 *
 * It takes over exactly where yoga's own JSON parser was chosen (a POST
 * whose first content type is `application/json` or
 * `application/graphql+json`: src/transport/http/json-post.ts) and the
 * body was not empty: the front door keeps those bytes aside for it, and
 * does not hand them to @whatwg-node/server, so this plugin must be on
 * every yoga behind the front door (the pipeline's stage is on both
 * endpoints). Everything else (GET, an empty body, the other content
 * types) stays yoga's.
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
import { Code } from '../codes/error-codes.js';
import { jsonPostBody } from '../transport/http/body-limit.js';
import { parsedBodyOf } from '../transport/http/json-post.js';

function notAnObject(received: string): Error {
  return createGraphQLError(`POST body is expected to be object but received ${received}`, {
    extensions: { http: { status: 400 }, code: Code.BAD_REQUEST },
  });
}

function invalidJson(error: unknown): Error {
  const extensions: Record<string, unknown> = { http: { spec: true, status: 400 }, code: Code.BAD_REQUEST };
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
    onRequestParse({ serverContext, setRequestParser }) {
      const req = serverContext.req;
      const body = req === undefined ? undefined : jsonPostBody(req);
      if (body === undefined || req === undefined) return;
      // The fast path may have parsed it already (a result-cache miss): the same object this parser would return.
      setRequestParser(() => (parsedBodyOf(req) as GraphQLParams | undefined) ?? parseJsonBody(body));
    },
  };
}
