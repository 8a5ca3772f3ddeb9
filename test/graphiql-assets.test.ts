/**
 * GraphiQL served as a small page and separate content-hashed files
 * (issue 19): each file is cacheable for good, revalidates with its ETag,
 * comes compressed when asked, and nothing is fetched from anywhere else.
 */
import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

describe('GraphiQL assets', () => {
  let stack: TestStack;
  let page: string;
  let files: string[];
  beforeAll(async () => {
    stack = await startStack();
    await resetCounts(stack.sandbox.url);
    const response = await fetch(`${stack.gateway.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    page = await response.text();
    files = [...page.matchAll(/"(\/graphiql\/[^"]+)"/g)].map((match) => match[1] ?? '');
  });
  afterAll(() => stack.close());

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await request(`${stack.gateway.url}${path}`, { headers });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: Buffer.from(await response.body.arrayBuffer()),
    };
  };

  it('the page is a few kilobytes naming the app, stylesheet, favicon, example tabs and the three Monaco workers; no other host', () => {
    expect(Buffer.byteLength(page)).toBeLessThan(4_096);
    expect(files.map((file) => file.replace(/-[0-9a-f]{16}\./, '-HASH.')).sort()).toEqual([
      '/graphiql/editor.worker-HASH.js',
      '/graphiql/examples-HASH.js',
      '/graphiql/favicon-HASH.ico',
      '/graphiql/graphiql-HASH.css',
      '/graphiql/graphiql-HASH.js',
      '/graphiql/graphql.worker-HASH.js',
      '/graphiql/json.worker-HASH.js',
    ]);
    expect(page).not.toMatch(/https?:\/\//);
    expect(page).toContain('"subscriptionsProtocol":"WS"');
  });

  it('every file is named by its content hash, cacheable for a year, and revalidates to a 304 with its ETag', async () => {
    for (const file of files) {
      const answer = await get(file);
      expect(answer.status, file).toBe(200);
      const hash = createHash('sha256').update(answer.body).digest('hex').slice(0, 16);
      expect(file).toContain(`-${hash}.`);
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(answer.headers['etag']).toBe(`W/"${hash}"`);
      expect(answer.headers['content-length']).toBe(String(answer.body.length));
      const again = await get(file, { 'if-none-match': `W/"${hash}"` });
      expect(again.status, file).toBe(304);
      expect(again.body.length).toBe(0);
    }
    expect((await get(files.find((file) => file.endsWith('.css')) ?? '')).headers['content-type']).toBe(
      'text/css; charset=utf-8',
    );
    expect((await get(files.find((file) => file.endsWith('.ico')) ?? '')).headers['content-type']).toBe('image/x-icon');
  });

  it('the 5 MB app comes as brotli or gzip when asked, decoding to the same bytes', async () => {
    const app = files.find((file) => /\/graphiql-[0-9a-f]+\.js$/.test(file)) ?? '';
    const plain = await get(app);
    expect(plain.body.length).toBeGreaterThan(1_000_000);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await get(app, { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gzip = await get(app, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
  });

  it('an unknown file is a coded 404, a POST a 405, and none of it reaches the upstream', async () => {
    const missing = await get('/graphiql/graphiql-0000000000000000.js');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body.toString('utf8'))).toMatchObject({
      errors: [{ extensions: { code: 'NOT_FOUND' } }],
    });
    const post = await request(`${stack.gateway.url}${files[0] ?? ''}`, { method: 'POST', body: '' });
    expect(post.statusCode).toBe(405);
    await post.body.dump();
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('with GATEWAY_GRAPHIQL=false the files are not served either', async () => {
    await stack.stopGateway();
    await stack.restartGateway({ GATEWAY_GRAPHIQL: 'false' });
    try {
      expect((await get(files[0] ?? '')).status).toBe(404);
    } finally {
      await stack.stopGateway();
      await stack.restartGateway();
    }
  });
});
