/**
 * Issue 34 item 2: a POST with a JSON body is parsed from the bytes the
 * front door already read (src/plugins/use-buffered-json.ts), not by
 * yoga's `request.json()`, and those bytes are no longer handed to
 * @whatwg-node/server. Every body yoga's own parser refuses must be
 * answered as it was, and the bodies yoga still reads through the Fetch
 * `Request` (a GraphQL document, a form) must still reach it: the status,
 * the headers and the exact bytes below are what the gateway answered
 * before the change (yoga's parser), with the result cache on (its fast
 * path reads the body first, then hands it to yoga) and off (the bench's
 * engine gateway), with a `content-length` and chunked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRaw } from './support/raw-http.js';
import { startStack, type TestStack } from './support/servers.js';

interface Case {
  readonly name: string;
  readonly body: Buffer;
  readonly contentType?: string;
  readonly accept?: string;
  /** Sent with `transfer-encoding: chunked` (no `content-length`), in one chunk. */
  readonly chunked?: boolean;
}

const GRAPHQL_RESPONSE = 'application/graphql-response+json';
const text = (value: string): Buffer => Buffer.from(value, 'utf8');

const cases: readonly Case[] = [
  { name: 'a truncated object', body: text('{"query": ') },
  { name: 'not JSON', body: text('not json') },
  { name: 'white space only', body: text('   ') },
  { name: 'a byte-order mark before valid JSON', body: text('\uFEFF{"query":"{ __typename }"}') },
  { name: 'null', body: text('null') },
  { name: 'a number', body: text('42') },
  { name: 'a string', body: text('"{ __typename }"') },
  { name: 'a boolean', body: text('true') },
  { name: 'an empty array', body: text('[]') },
  { name: 'a batch', body: text('[{"query":"{ __typename }"}]') },
  { name: 'an empty object', body: text('{}') },
  { name: 'a numeric query', body: text('{"query":1}') },
  { name: 'string variables', body: text('{"query":"{ __typename }","variables":"x"}') },
  { name: 'array variables', body: text('{"query":"{ __typename }","variables":[]}') },
  { name: 'numeric extensions', body: text('{"query":"{ __typename }","extensions":1}') },
  { name: 'a numeric operation name', body: text('{"query":"{ __typename }","operationName":5}') },
  { name: 'an unknown parameter', body: text('{"query":"{ __typename }","foo":1}') },
  { name: 'a null query', body: text('{"query":null}') },
  // The syntax error names the character the query was decoded to.
  {
    name: 'bytes that are not UTF-8 in a string',
    body: Buffer.concat([text('{"query":"'), Buffer.from([0xff, 0xfe]), text('"}')]),
  },
  {
    name: 'Latin-1 announced, UTF-8 read',
    body: text('{"query":"ü"}'),
    contentType: 'application/json; charset=iso-8859-1',
  },
  {
    name: 'Latin-1 bytes',
    body: Buffer.from('{"query":"ü"}', 'latin1'),
    contentType: 'application/json; charset=iso-8859-1',
  },
  { name: 'a valid query', body: text('{"query":"{ __typename }"}') },
  { name: 'a valid query as application/json', body: text('{"query":"{ __typename }"}'), accept: 'application/json' },
  {
    name: 'invalid JSON as application/json',
    body: text('{"query": '),
    accept: 'application/json',
  },
  {
    name: 'application/graphql+json',
    body: text('{"query":"{ __typename }"}'),
    contentType: 'application/graphql+json',
  },
  {
    name: 'a list of content types',
    body: text('{"query":"{ __typename }"}'),
    contentType: 'application/json, text/plain',
  },
  { name: 'a charset parameter', body: text('{"query": '), contentType: 'application/json;charset=utf-8' },
  { name: 'an empty body', body: Buffer.alloc(0) },
  { name: 'a valid query, GraphQL over HTTP', body: text('{"query":"{ __typename }"}'), accept: GRAPHQL_RESPONSE },
  { name: 'invalid JSON, GraphQL over HTTP', body: text('{"query": '), accept: GRAPHQL_RESPONSE },
  { name: 'a number, GraphQL over HTTP', body: text('42'), accept: GRAPHQL_RESPONSE },
  { name: 'a batch, GraphQL over HTTP', body: text('[{"query":"{ __typename }"}]'), accept: GRAPHQL_RESPONSE },
  { name: 'a numeric query, GraphQL over HTTP', body: text('{"query":1}'), accept: GRAPHQL_RESPONSE },
  { name: 'an accept no answer fits', body: text('{"query":"{ __typename }"}'), accept: 'text/html' },
  { name: 'a valid query, chunked', body: text('{"query":"{ __typename }"}'), chunked: true },
  { name: 'invalid JSON, chunked', body: text('{"query": '), chunked: true },
  // Not JSON: yoga's own parsers read these bodies through the Fetch Request.
  { name: 'a GraphQL document', body: text('{ __typename }'), contentType: 'application/graphql' },
  {
    name: 'a form',
    body: text(`query=${encodeURIComponent('{ __typename }')}`),
    contentType: 'application/x-www-form-urlencoded',
  },
  { name: 'JSON as text/plain', body: text('{"query":"{ __typename }"}'), contentType: 'text/plain' },
  { name: 'a syntax error', body: text('{"query":"{ __typename "}'), accept: GRAPHQL_RESPONSE },
];

/** What yoga's own parser answered each case (main before the change), byte for byte. */
const before: Readonly<Record<string, string>> = {
  'a truncated object':
    '400\ncontent-length: 207\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"POST body sent invalid JSON.","extensions":{"code":"BAD_REQUEST","originalError":{"name":"SyntaxError","message":"Unexpected end of JSON input, \\"{\\"query\\": \\" is not valid JSON"}}}]}',
  'not JSON':
    '400\ncontent-length: 227\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"POST body sent invalid JSON.","extensions":{"code":"BAD_REQUEST","originalError":{"name":"SyntaxError","message":"Unexpected token \'o\', \\"not json\\" is not valid JSON, \\"not json\\" is not valid JSON"}}}]}',
  'white space only':
    '400\ncontent-length: 198\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"POST body sent invalid JSON.","extensions":{"code":"BAD_REQUEST","originalError":{"name":"SyntaxError","message":"Unexpected end of JSON input, \\"   \\" is not valid JSON"}}}]}',
  'a byte-order mark before valid JSON':
    '400\ncontent-length: 263\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"POST body sent invalid JSON.","extensions":{"code":"BAD_REQUEST","originalError":{"name":"SyntaxError","message":"Unexpected token \'\uFEFF\', \\"\uFEFF{\\"query\\":\\"... is not valid JSON, \\"\uFEFF{\\"query\\":\\"{ __typename }\\"}\\" is not valid JSON"}}}]}',
  null: '400\ncontent-length: 115\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"POST body is expected to be object but received null","extensions":{"code":"BAD_REQUEST"}}]}',
  'a number':
    '400\ncontent-length: 117\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"POST body is expected to be object but received number","extensions":{"code":"BAD_REQUEST"}}]}',
  'a string':
    '400\ncontent-length: 117\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"POST body is expected to be object but received string","extensions":{"code":"BAD_REQUEST"}}]}',
  'a boolean':
    '400\ncontent-length: 118\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"POST body is expected to be object but received boolean","extensions":{"code":"BAD_REQUEST"}}]}',
  'an empty array':
    '400\ncontent-length: 89\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"Batching is not supported.","extensions":{"code":"BAD_REQUEST"}}]}',
  'a batch':
    '400\ncontent-length: 89\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"Batching is not supported.","extensions":{"code":"BAD_REQUEST"}}]}',
  'an empty object':
    '400\nallow: GET, POST\ncontent-length: 89\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"Must provide query string.","extensions":{"code":"BAD_REQUEST"}}]}',
  'a numeric query':
    '400\nallow: GET, POST\ncontent-length: 121\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"Expected \\"query\\" param to be a string, but given number.","extensions":{"code":"BAD_REQUEST"}}]}',
  'string variables':
    '400\nallow: GET, POST\ncontent-length: 135\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"Expected \\"variables\\" param to be empty or an object, but given string.","extensions":{"code":"BAD_REQUEST"}}]}',
  'array variables':
    '400\nallow: GET, POST\ncontent-length: 134\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"Expected \\"variables\\" param to be empty or an object, but given array.","extensions":{"code":"BAD_REQUEST"}}]}',
  'numeric extensions':
    '400\nallow: GET, POST\ncontent-length: 136\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"Expected \\"extensions\\" param to be empty or an object, but given number.","extensions":{"code":"BAD_REQUEST"}}]}',
  'a numeric operation name':
    '400\ncontent-length: 126\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"Could not determine what operation to execute.","extensions":{"code":"OPERATION_RESOLUTION_FAILURE"}}]}',
  'an unknown parameter':
    '400\ncontent-length: 112\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"Unexpected parameter \\"foo\\" in the request body.","extensions":{"code":"BAD_REQUEST"}}]}',
  'a null query':
    '400\nallow: GET, POST\ncontent-length: 89\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"Must provide query string.","extensions":{"code":"BAD_REQUEST"}}]}',
  'bytes that are not UTF-8 in a string':
    '400\ncontent-length: 151\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"Syntax Error: Unexpected character: U+FFFD.","locations":[{"line":1,"column":1}],"extensions":{"code":"GRAPHQL_PARSE_FAILED"}}]}',
  'Latin-1 announced, UTF-8 read':
    '400\ncontent-length: 151\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"Syntax Error: Unexpected character: U+00FC.","locations":[{"line":1,"column":1}],"extensions":{"code":"GRAPHQL_PARSE_FAILED"}}]}',
  'Latin-1 bytes':
    '400\ncontent-length: 151\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"Syntax Error: Unexpected character: U+FFFD.","locations":[{"line":1,"column":1}],"extensions":{"code":"GRAPHQL_PARSE_FAILED"}}]}',
  'a valid query':
    '200\ncontent-length: 130\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"data":{"__typename":"Query"},"extensions":{"cost":{"estimated":0,"upstreamRequests":0,"cacheHits":0,"allowanceRemaining":7500}}}',
  'a valid query as application/json':
    '200\ncontent-length: 130\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"data":{"__typename":"Query"},"extensions":{"cost":{"estimated":0,"upstreamRequests":0,"cacheHits":0,"allowanceRemaining":7500}}}',
  'invalid JSON as application/json':
    '400\ncontent-length: 207\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"POST body sent invalid JSON.","extensions":{"code":"BAD_REQUEST","originalError":{"name":"SyntaxError","message":"Unexpected end of JSON input, \\"{\\"query\\": \\" is not valid JSON"}}}]}',
  'application/graphql+json':
    '200\ncontent-length: 130\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"data":{"__typename":"Query"},"extensions":{"cost":{"estimated":0,"upstreamRequests":0,"cacheHits":0,"allowanceRemaining":7500}}}',
  'a list of content types':
    '200\ncontent-length: 130\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"data":{"__typename":"Query"},"extensions":{"cost":{"estimated":0,"upstreamRequests":0,"cacheHits":0,"allowanceRemaining":7500}}}',
  'a charset parameter':
    '400\ncontent-length: 207\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"POST body sent invalid JSON.","extensions":{"code":"BAD_REQUEST","originalError":{"name":"SyntaxError","message":"Unexpected end of JSON input, \\"{\\"query\\": \\" is not valid JSON"}}}]}',
  'an empty body':
    '400\ncontent-length: 195\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"POST body sent invalid JSON.","extensions":{"code":"BAD_REQUEST","originalError":{"name":"SyntaxError","message":"Unexpected end of JSON input, \\"\\" is not valid JSON"}}}]}',
  'a valid query, GraphQL over HTTP':
    '200\ncontent-length: 130\ncontent-type: application/graphql-response+json; charset=utf-8\nvary: Accept-Encoding\n\n{"data":{"__typename":"Query"},"extensions":{"cost":{"estimated":0,"upstreamRequests":0,"cacheHits":0,"allowanceRemaining":7500}}}',
  'invalid JSON, GraphQL over HTTP':
    '400\ncontent-length: 207\ncontent-type: application/graphql-response+json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"POST body sent invalid JSON.","extensions":{"code":"BAD_REQUEST","originalError":{"name":"SyntaxError","message":"Unexpected end of JSON input, \\"{\\"query\\": \\" is not valid JSON"}}}]}',
  'a number, GraphQL over HTTP':
    '400\ncontent-length: 117\ncontent-type: application/graphql-response+json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"POST body is expected to be object but received number","extensions":{"code":"BAD_REQUEST"}}]}',
  'a batch, GraphQL over HTTP':
    '400\ncontent-length: 89\ncontent-type: application/graphql-response+json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"Batching is not supported.","extensions":{"code":"BAD_REQUEST"}}]}',
  'a numeric query, GraphQL over HTTP':
    '400\nallow: GET, POST\ncontent-length: 121\ncontent-type: application/graphql-response+json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"Expected \\"query\\" param to be a string, but given number.","extensions":{"code":"BAD_REQUEST"}}]}',
  'an accept no answer fits':
    '406\naccept: text/event-stream; charset=utf-8, multipart/mixed; charset=utf-8, application/graphql-response+json; charset=utf-8, application/json\ncontent-length: 124\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"None of the media types in `accept` can carry this answer.","extensions":{"code":"NOT_ACCEPTABLE"}}]}',
  'a valid query, chunked':
    '200\ncontent-length: 130\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"data":{"__typename":"Query"},"extensions":{"cost":{"estimated":0,"upstreamRequests":0,"cacheHits":0,"allowanceRemaining":7500}}}',
  'invalid JSON, chunked':
    '400\ncontent-length: 207\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"POST body sent invalid JSON.","extensions":{"code":"BAD_REQUEST","originalError":{"name":"SyntaxError","message":"Unexpected end of JSON input, \\"{\\"query\\": \\" is not valid JSON"}}}]}',
  'a GraphQL document':
    '200\ncontent-length: 130\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"data":{"__typename":"Query"},"extensions":{"cost":{"estimated":0,"upstreamRequests":0,"cacheHits":0,"allowanceRemaining":7500}}}',
  'a form':
    '200\ncontent-length: 130\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"data":{"__typename":"Query"},"extensions":{"cost":{"estimated":0,"upstreamRequests":0,"cacheHits":0,"allowanceRemaining":7500}}}',
  'JSON as text/plain':
    '415\ncontent-length: 134\ncontent-type: application/json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"The request body has a content type the gateway cannot read.","extensions":{"code":"UNSUPPORTED_MEDIA_TYPE"}}]}',
  'a syntax error':
    '400\ncontent-length: 150\ncontent-type: application/graphql-response+json; charset=utf-8\nvary: Accept-Encoding\n\n{"errors":[{"message":"Syntax Error: Expected Name, found <EOF>.","locations":[{"line":1,"column":14}],"extensions":{"code":"GRAPHQL_PARSE_FAILED"}}]}',
};

/** Headers that differ between two answers for reasons other than the parser. */
const volatile = new Set(['date', 'connection', 'keep-alive']);

async function answer(
  stack: TestStack,
  { body, contentType = 'application/json', accept, chunked = false }: Case,
): Promise<string> {
  const port = Number(new URL(stack.gateway.url).port);
  const { response } = await sendRaw(port, {
    method: 'POST',
    path: '/graphql',
    headers: [
      ['host', `127.0.0.1:${port}`],
      ['content-type', contentType],
      chunked ? ['transfer-encoding', 'chunked'] : ['content-length', String(body.length)],
      ...(accept === undefined ? [] : ([['accept', accept]] as Array<[string, string]>)),
    ],
    body: chunked ? Buffer.concat([text(`${body.length.toString(16)}\r\n`), body, text('\r\n0\r\n\r\n')]) : body,
  });
  if (response === undefined) throw new Error('no answer');
  const headers = Object.entries(response.headers)
    .filter(([name]) => !volatile.has(name))
    .map(([name, value]) => `${name}: ${value}`)
    .sort();
  return [String(response.status), ...headers, '', response.body.toString('utf8')].join('\n');
}

describe.each([
  ['on', {}],
  ['off', { RESULT_CACHE: 'off' }],
])('a POST body, result cache %s', (_name, env: Record<string, string>) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env });
  });
  afterAll(() => stack.close());

  it.each(cases.map((each) => [each.name, each] as const))(
    '%s is answered as yoga answered it',
    async (_name, each) => {
      expect(await answer(stack, each)).toBe(before[each.name]);
    },
  );
});
