/**
 * HTTP caching for the world in front (issue 33 item 3,
 * src/plugins/use-http-caching.ts): GET answers and APQ operations carry a
 * `Cache-Control` from the freshness of the upstream answers they used
 * (by match state), a weak `ETag`, and `If-None-Match` gets a 304.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultMatchStateTtls } from '../src/upstream/cache-ttls.js';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const KEY = 'widget-key-1234';
const GAME = 'query ($id: ID!) { v1 { worldCup { game(id: $id) { commentary { minute text } } } } }';

describe('HTTP caching', () => {
  let stack: TestStack;
  let ended = '';
  let live = '';
  beforeAll(async () => {
    stack = await startStack();
    const listed = await gql<{
      v1: { worldCup: { matches: Array<{ ref: { nativeId: string }; statusGroup: number }> } };
    }>(stack.gateway.url, '{ v1 { worldCup { matches { ref { nativeId } statusGroup } } } }');
    const matches = listed.data!.v1.worldCup.matches;
    ended = matches.find((m) => m.statusGroup === 4)!.ref.nativeId;
    live = matches.find((m) => m.statusGroup === 3)!.ref.nativeId;
  });
  afterAll(() => stack.close());

  const get = (query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    fetch(
      `${stack.gateway.url}/graphql?${new URLSearchParams({ query, variables: JSON.stringify(variables) }).toString()}`,
      { headers: { accept: 'application/graphql-response+json', ...headers } },
    );

  it("gives an ended match's answer a long public max-age and an ETag; If-None-Match gets a 304 that spends nothing", async () => {
    const first = await get(GAME, { id: ended });
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    await first.text();

    await resetCounts(stack.sandbox.url);
    const again = await get(GAME, { id: ended }, { 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);

    const other = await get(GAME, { id: ended }, { 'if-none-match': 'W/"something-else"' });
    expect(other.status).toBe(200);
    expect(other.headers.get('etag')).toBe(etag);
    await other.text();
  });

  it("bounds an in-play match's answer by the in-play freshness", async () => {
    const response = await get(GAME, { id: live });
    await response.text();
    const maxAge = Number(/^public, max-age=(\d+)$/.exec(response.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(defaultMatchStateTtls.inPlay);
  });

  it('says no-store for errors and for fields that change without the upstream (quota)', async () => {
    const failed = await get(GAME, { id: '999999999' });
    expect((await failed.json()) as { errors?: unknown[] }).toHaveProperty('errors');
    expect(failed.headers.get('cache-control')).toBe('no-store');
    expect(failed.headers.get('etag')).toBeNull();

    const quota = await get('{ quota { remaining } }');
    await quota.text();
    expect(quota.headers.get('cache-control')).toBe('no-store');
  });

  it('leaves a plain POST without caching headers, and gives an APQ operation over POST its Cache-Control', async () => {
    const plain = await gql(stack.gateway.url, GAME, { id: ended });
    expect(plain.errors).toBeUndefined();
    const post = await fetch(`${stack.gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: GAME, variables: { id: ended } }),
    });
    await post.text();
    expect(post.headers.get('cache-control')).toBeNull();

    const hash = createHash('sha256').update(GAME, 'utf8').digest('hex');
    const apq = await fetch(`${stack.gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({
        query: GAME,
        variables: { id: ended },
        extensions: { persistedQuery: { version: 1, sha256Hash: hash } },
      }),
    });
    await apq.text();
    expect(apq.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(apq.headers.get('etag')).toMatch(/^W\//);
  });
});

describe('HTTP caching with client keys', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: { GATEWAY_CLIENT_KEYS: `widget:${KEY}` } });
  });
  afterAll(() => stack.close());

  it('marks an answer picked by a client key private', async () => {
    const response = await fetch(
      `${stack.gateway.url}/graphql?${new URLSearchParams({ query: '{ v1 { worldCup { matches { ref { nativeId } } } } }' }).toString()}`,
      { headers: { accept: 'application/graphql-response+json', 'x-client-key': KEY } },
    );
    expect(response.status).toBe(200);
    await response.text();
    expect(response.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
  });
});
