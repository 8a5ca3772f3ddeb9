/**
 * Response compression (issue 19): brotli or gzip as `Accept-Encoding`
 * asks, only above the threshold, never for SSE; the answer decodes to
 * exactly what an uncompressed client gets.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from './support/servers.js';

/** A free query whose answer is a few kilobytes of JSON. */
const SPORTS = '{ sports { sport slugs { v1 v2 v3 v4 v6 } } }';

describe('response compression', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  /** undici's request() does not decode bodies: the bytes are what the gateway sent. */
  const post = async (query: string, headers: Record<string, string>) => {
    const response = await request(`${stack.gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query }),
    });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: Buffer.from(await response.body.arrayBuffer()),
    };
  };

  it('negotiates brotli, gzip or nothing from Accept-Encoding, and every answer decodes to the same JSON', async () => {
    // No Accept-Encoding at all: answered as it is, still marked as varying by it for a cache in between.
    const plain = await post(SPORTS, {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toMatch(/accept-encoding/i);
    expect(plain.body.length).toBeGreaterThan(1_024);
    // The data (extensions.cost differs from one request to the next).
    const expected = (JSON.parse(plain.body.toString('utf8')) as { data: unknown }).data;
    expect(expected).toBeDefined();
    const dataOf = (bytes: Buffer): unknown => (JSON.parse(bytes.toString('utf8')) as { data: unknown }).data;

    const br = await post(SPORTS, { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(dataOf(brotliDecompressSync(br.body))).toEqual(expected);

    const gzip = await post(SPORTS, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(dataOf(gunzipSync(gzip.body))).toEqual(expected);

    // Both acceptable, equally weighted: brotli (smaller); a weight decides otherwise.
    expect((await post(SPORTS, { 'accept-encoding': 'gzip, deflate, br' })).headers['content-encoding']).toBe('br');
    expect((await post(SPORTS, { 'accept-encoding': 'br;q=0.5, gzip' })).headers['content-encoding']).toBe('gzip');
    expect((await post(SPORTS, { 'accept-encoding': 'identity' })).headers['content-encoding']).toBeUndefined();
    expect((await post(SPORTS, { 'accept-encoding': 'br;q=0, gzip;q=0' })).headers['content-encoding']).toBeUndefined();
  });

  it('leaves an answer below the threshold as it is', async () => {
    const small = await post('{ __typename }', { 'accept-encoding': 'gzip, br' });
    expect(small.body.length).toBeLessThan(1_024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8'))).toMatchObject({ data: { __typename: 'Query' } });
  });

  it('never compresses a server-sent event stream (each event must reach the client when written)', async () => {
    const response = await request(`${stack.gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'accept-encoding': 'gzip, br' },
      // Many events, well past the threshold together.
      body: JSON.stringify({ query: '{ sports { sport slugs { v1 v2 v3 v4 v6 } } }' }),
    });
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    // yoga marks the stream `none` so that proxies leave it alone too.
    expect(response.headers['content-encoding'] ?? 'none').toBe('none');
    const text = await response.body.text();
    expect(text).toContain('event: next');
    expect(text.length).toBeGreaterThan(1_024);
  });

  it('COMPRESSION=false sends every answer as it is', async () => {
    await stack.stopGateway();
    await stack.restartGateway({ COMPRESSION: 'false' });
    try {
      const answer = await post(SPORTS, { 'accept-encoding': 'gzip, br' });
      expect(answer.body.length).toBeGreaterThan(1_024);
      expect(answer.headers['content-encoding']).toBeUndefined();
    } finally {
      await stack.stopGateway();
      await stack.restartGateway();
    }
  });
});
