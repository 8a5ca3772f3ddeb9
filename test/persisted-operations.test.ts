/**
 * Issue 15, item 3: persisted operations.
 *
 * - Automatic persisted queries (Apollo's protocol, what Apollo Client's
 *   persisted-queries link and urql's persistedExchange send): the hash
 *   alone first, PERSISTED_QUERY_NOT_FOUND, then hash and text, then the
 *   hash alone runs; over GET and POST. A text that does not match its hash
 *   is refused and not stored; a document past the size bound runs but is
 *   not stored.
 * - Trusted documents (`TRUSTED_DOCUMENTS_FILE`): only the manifest's
 *   operations run, by ID or by their exact text, over HTTP and graphql-ws;
 *   anything else is refused with its own code before any upstream request.
 *
 * Upstream requests are counted at the sandbox.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ConfigError, loadConfig } from '../src/config.js';
import { requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

interface Answer {
  status: number;
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
  extensions?: Record<string, unknown>;
}

interface Body {
  query?: string;
  variables?: Record<string, unknown>;
  extensions?: Record<string, unknown>;
}

async function answerOf(response: Response): Promise<Answer> {
  return { status: response.status, ...((await response.json()) as Omit<Answer, 'status'>) };
}

function post(gatewayUrl: string, body: Body): Promise<Answer> {
  return fetch(`${gatewayUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify(body),
  }).then(answerOf);
}

/** As Apollo's link with `useGETForHashedQueries` and urql's `preferGetForPersistedQueries` send it. */
function get(gatewayUrl: string, body: Body): Promise<Answer> {
  const search = new URLSearchParams();
  if (body.query !== undefined) search.set('query', body.query);
  if (body.variables !== undefined) search.set('variables', JSON.stringify(body.variables));
  if (body.extensions !== undefined) search.set('extensions', JSON.stringify(body.extensions));
  return fetch(`${gatewayUrl}/graphql?${search.toString()}`, {
    headers: { accept: 'application/graphql-response+json', 'x-graphql-csrf': '1' },
  }).then(answerOf);
}

const codeOf = (answer: Answer): unknown => answer.errors?.[0]?.extensions?.['code'];
/** Result-cache hits answered before yoga (src/transport/http/result-cache-hits.ts). */
const fastHits = async (stack: TestStack): Promise<number> =>
  (await stack.gateway.services.metrics.resultCacheFastHits.get()).values[0]?.value ?? 0;
const upstreamTotal = async (stack: TestStack): Promise<number> => (await requestCounts(stack.sandbox.url)).total;

const STANDINGS = '{ v1 { hockey { standings { entries { position points } } } } }';
const NEWS = '{ v1 { hockey { news(competitionId: 303, limit: 3) { articles { title } } } } }';
const SPORTS = '{ sports { sport } }';
const ATHLETE = '{ v1 { hockey { athlete(id: "700001") { name } } } }';

describe('automatic persisted queries', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // A small document bound, so that one test can pass it.
    stack = await startStack({ env: { APQ_MAX_DOCUMENT_BYTES: '256' } });
  });
  afterAll(() => stack.close());
  beforeEach(async () => {
    stack.gateway.services.fetcher.cache.clear();
    await resetCounts(stack.sandbox.url);
  });

  it('over GET: the hash alone is PERSISTED_QUERY_NOT_FOUND (404, nothing sent upstream), hash and text run and register, then the hash alone runs', async () => {
    const hash = sha256(STANDINGS);
    const unknown = await get(stack.gateway.url, { extensions: persisted(hash) });
    expect(unknown.status).toBe(404);
    expect(codeOf(unknown)).toBe('PERSISTED_QUERY_NOT_FOUND');
    // The message is what Apollo Client's link matches on.
    expect(unknown.errors?.[0]?.message).toBe('PersistedQueryNotFound');
    expect(await upstreamTotal(stack)).toBe(0);

    const registered = await get(stack.gateway.url, { query: STANDINGS, extensions: persisted(hash) });
    expect(registered.status).toBe(200);
    expect(registered.errors).toBeUndefined();
    const hashOnly = await get(stack.gateway.url, { extensions: persisted(hash) });
    expect(hashOnly.status).toBe(200);
    expect(hashOnly.data).toEqual(registered.data);
    // One standings request in all: the second answer came from what the first loaded.
    expect(await upstreamTotal(stack)).toBe(1);
  });

  it('over POST, with variables: the same round trip, and a repeated hash is answered from the result cache like its text', async () => {
    const query =
      'query Lines($game: ID!) { v1 { hockey { lines(gameId: $game) { gameId moneyline { home away } } } } }';
    const hash = sha256(query);
    const variables = { game: '410001' };
    expect(codeOf(await post(stack.gateway.url, { variables, extensions: persisted(hash) }))).toBe(
      'PERSISTED_QUERY_NOT_FOUND',
    );
    const registered = await post(stack.gateway.url, { query, variables, extensions: persisted(hash) });
    expect(registered.errors).toBeUndefined();
    expect(registered.data).toMatchObject({ v1: { hockey: { lines: { gameId: '410001' } } } });

    // Only a stored result can answer without the upstream once the upstream cache is empty.
    stack.gateway.services.fetcher.cache.clear();
    const before = await fastHits(stack);
    const hashOnly = await post(stack.gateway.url, { variables, extensions: persisted(hash) });
    expect(hashOnly.data).toEqual(registered.data);
    expect(hashOnly.extensions?.['cost']).toMatchObject({ upstreamRequests: 0 });
    // Answered before yoga: the fast path knows the text a registered hash names.
    expect(await fastHits(stack)).toBe(before + 1);
    // Other variables are another operation: they run.
    const other = await post(stack.gateway.url, { variables: { game: '410002' }, extensions: persisted(hash) });
    expect(other.data).toMatchObject({ v1: { hockey: { lines: { gameId: '410002' } } } });
    expect(await upstreamTotal(stack)).toBe(2);
  });

  it('a text whose SHA-256 is not the hash sent is refused, 400 PERSISTED_QUERY_MISMATCH, runs nothing and is not stored', async () => {
    const hash = sha256(NEWS);
    const mismatch = await post(stack.gateway.url, { query: STANDINGS, extensions: persisted(hash) });
    expect(mismatch.status).toBe(400);
    expect(codeOf(mismatch)).toBe('PERSISTED_QUERY_MISMATCH');
    expect(mismatch.data).toBeUndefined();
    expect(codeOf(await get(stack.gateway.url, { extensions: persisted(hash) }))).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(await upstreamTotal(stack)).toBe(0);
  });

  it('a hash that is not SHA-256 hex names nothing: PERSISTED_QUERY_NOT_FOUND', async () => {
    for (const hash of ['', 'abc', sha256(SPORTS).toUpperCase(), `${sha256(SPORTS)}0`]) {
      const answer = await post(stack.gateway.url, { extensions: persisted(hash) });
      expect(codeOf(answer), hash).toBe('PERSISTED_QUERY_NOT_FOUND');
    }
  });

  it('a document over APQ_MAX_DOCUMENT_BYTES runs when its text is sent, but is not stored', async () => {
    const long = `{ sports { sport } ${Array.from({ length: 30 }, (_, i) => `a${i}: sports { name }`).join(' ')} }`;
    expect(Buffer.byteLength(long)).toBeGreaterThan(256);
    const hash = sha256(long);
    const ran = await post(stack.gateway.url, { query: long, extensions: persisted(hash) });
    expect(ran.errors).toBeUndefined();
    expect(ran.data).toHaveProperty('a29');
    expect(codeOf(await post(stack.gateway.url, { extensions: persisted(hash) }))).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  it('over graphql-ws, an empty text with the hash of a registered document runs it; an unknown hash is PERSISTED_QUERY_NOT_FOUND', async () => {
    const query = 'query Sports { sports { sport slugs { v2 } } }';
    const hash = sha256(query);
    expect((await post(stack.gateway.url, { query, extensions: persisted(hash) })).errors).toBeUndefined();
    const ws = createClient({
      url: `${stack.gateway.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    try {
      const first = (
        id: string,
      ): Promise<{ data?: unknown; errors?: Array<{ extensions?: Record<string, unknown> }> }> =>
        new Promise((resolve) => {
          ws.subscribe(
            { query: '', extensions: persisted(id) },
            {
              next: (value) => resolve(value as never),
              error: (errors) => resolve({ errors } as never),
              complete: () => undefined,
            },
          );
        });
      const ran = await first(hash);
      expect(ran.errors).toBeUndefined();
      expect(ran.data).toMatchObject({ sports: expect.any(Array) as unknown });
      expect((await first(sha256('{ quota { used } }'))).errors?.[0]?.extensions?.['code']).toBe(
        'PERSISTED_QUERY_NOT_FOUND',
      );
    } finally {
      await ws.dispose();
    }
  });

  it('requests without the extension run as before', async () => {
    const plain = await post(stack.gateway.url, { query: SPORTS });
    expect(plain.errors).toBeUndefined();
    expect((plain.data!['sports'] as unknown[]).length).toBeGreaterThan(0);
  });
});

describe('trusted documents', () => {
  let stack: TestStack;
  let dir: string;
  let ws: Client;
  const TRUSTED_SUBSCRIPTION = 'subscription Quota { quotaUpdates { remaining } }';
  /** IDs as graphql-codegen's client preset makes them (SHA-256 of the text), and one Relay-style opaque ID. */
  const manifest: Record<string, string> = {
    [sha256(STANDINGS)]: STANDINGS,
    [sha256(SPORTS)]: SPORTS,
    'relay-style-id-7': NEWS,
    [sha256(ATHLETE)]: ATHLETE,
    [sha256(TRUSTED_SUBSCRIPTION)]: TRUSTED_SUBSCRIPTION,
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sports-graph-trusted-'));
    const file = join(dir, 'persisted-documents.json');
    await writeFile(file, JSON.stringify(manifest));
    stack = await startStack({ env: { TRUSTED_DOCUMENTS_FILE: file } });
    ws = createClient({
      url: `${stack.gateway.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
    });
  });
  afterAll(async () => {
    await ws.dispose();
    await stack.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    stack.gateway.services.fetcher.cache.clear();
    await resetCounts(stack.sandbox.url);
  });

  it('runs a manifest operation named by its ID, over POST and GET', async () => {
    const byPost = await post(stack.gateway.url, { extensions: persisted(sha256(STANDINGS)) });
    expect(byPost.errors).toBeUndefined();
    expect(byPost.data).toMatchObject({ v1: { hockey: { standings: { entries: expect.any(Array) as unknown } } } });
    const byGet = await get(stack.gateway.url, { extensions: persisted('relay-style-id-7') });
    expect(byGet.errors).toBeUndefined();
    expect(byGet.data).toMatchObject({ v1: { hockey: { news: { articles: expect.any(Array) as unknown } } } });
    expect(await upstreamTotal(stack)).toBe(2);
  });

  it('refuses an ad-hoc document, 403 TRUSTED_DOCUMENTS_ONLY, before anything is sent upstream; with a hash it is not registered either', async () => {
    const adHoc = '{ v1 { hockey { standings { entries { position } } } } }';
    for (const refused of [
      await post(stack.gateway.url, { query: adHoc }),
      await get(stack.gateway.url, { query: adHoc }),
    ]) {
      expect(refused.status).toBe(403);
      expect(codeOf(refused)).toBe('TRUSTED_DOCUMENTS_ONLY');
      expect(refused.errors?.[0]?.message).toContain('trusted documents only');
      expect(refused.data).toBeUndefined();
    }
    // An APQ registration is an ad-hoc document too.
    expect(codeOf(await post(stack.gateway.url, { query: adHoc, extensions: persisted(sha256(adHoc)) }))).toBe(
      'TRUSTED_DOCUMENTS_ONLY',
    );
    expect(codeOf(await post(stack.gateway.url, { extensions: persisted(sha256(adHoc)) }))).toBe(
      'TRUSTED_DOCUMENT_NOT_FOUND',
    );
    expect(await upstreamTotal(stack)).toBe(0);
  });

  it('an unknown ID is 400 TRUSTED_DOCUMENT_NOT_FOUND; neither ID nor text is 400 PERSISTED_QUERY_ID_REQUIRED', async () => {
    const unknown = await post(stack.gateway.url, { extensions: persisted('no-such-id') });
    expect(unknown.status).toBe(400);
    expect(codeOf(unknown)).toBe('TRUSTED_DOCUMENT_NOT_FOUND');
    const nothing = await post(stack.gateway.url, { extensions: { persistedQuery: { version: 1 } } });
    expect(nothing.status).toBe(400);
    expect(codeOf(nothing)).toBe('PERSISTED_QUERY_ID_REQUIRED');
    expect(await upstreamTotal(stack)).toBe(0);
  });

  it('the exact text of a manifest document runs (what graphql-ws clients send), and shares its stored result with its ID', async () => {
    const byText = await post(stack.gateway.url, { query: ATHLETE });
    expect(byText.errors).toBeUndefined();
    expect(byText.data).toMatchObject({ v1: { hockey: { athlete: { name: expect.any(String) as unknown } } } });
    stack.gateway.services.fetcher.cache.clear();
    const before = await fastHits(stack);
    const byId = await post(stack.gateway.url, { extensions: persisted(sha256(ATHLETE)) });
    expect(byId.data).toEqual(byText.data);
    expect(byId.extensions?.['cost']).toMatchObject({ upstreamRequests: 0 });
    expect(await fastHits(stack)).toBe(before + 1);
    expect(await upstreamTotal(stack)).toBe(1);
  });

  it('over graphql-ws: a manifest text runs, any other text is refused with TRUSTED_DOCUMENTS_ONLY', async () => {
    const first = <T>(query: string): Promise<T> =>
      new Promise<T>((resolve) => {
        const stop = ws.subscribe(
          { query },
          {
            next: (value) => {
              stop();
              resolve(value as T);
            },
            error: (errors) => resolve({ errors } as T),
            complete: () => undefined,
          },
        );
      });
    const trusted = await first<{ data?: { quotaUpdates: { remaining: number } } }>(TRUSTED_SUBSCRIPTION);
    expect(trusted.data?.quotaUpdates.remaining).toEqual(expect.any(Number));
    const refused = await first<{ errors: Array<{ extensions?: Record<string, unknown> }> }>(
      'subscription { quotaUpdates { used } }',
    );
    expect(refused.errors[0]?.extensions?.['code']).toBe('TRUSTED_DOCUMENTS_ONLY');
    const query = await first<{ errors: Array<{ extensions?: Record<string, unknown> }> }>(
      '{ v1 { hockey { standings { entries { points } } } } }',
    );
    expect(query.errors[0]?.extensions?.['code']).toBe('TRUSTED_DOCUMENTS_ONLY');
    expect(await upstreamTotal(stack)).toBe(0);
  });
});

describe('TRUSTED_DOCUMENTS_FILE is checked at start', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sports-graph-manifest-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const problemsOf = async (content: string | undefined, extra: Record<string, string> = {}): Promise<string[]> => {
    const file = join(dir, `manifest-${Math.random().toString(36).slice(2)}.json`);
    if (content !== undefined) await writeFile(file, content);
    try {
      loadConfig({ TRUSTED_DOCUMENTS_FILE: file, ...extra });
      return [];
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
  };

  it("reads Apollo's persisted query manifest as well as a plain map", async () => {
    const apollo = {
      format: 'apollo-persisted-query-manifest',
      version: 1,
      operations: [{ id: 'abc', name: 'Sports', type: 'query', body: SPORTS }],
    };
    const file = join(dir, 'apollo.json');
    await writeFile(file, JSON.stringify(apollo));
    const config = loadConfig({ TRUSTED_DOCUMENTS_FILE: file });
    expect(config.persisted.trusted?.documents.get('abc')).toBe(SPORTS);
    expect(config.persisted.apq).toBe(false);
  });

  it('names the file and the fault: missing, not JSON, empty, a document that does not parse, a body that is not text', async () => {
    expect((await problemsOf(undefined))[0]).toMatch(/TRUSTED_DOCUMENTS_FILE \(.*\) cannot be read: ENOENT/);
    expect((await problemsOf('{nope'))[0]).toMatch(/TRUSTED_DOCUMENTS_FILE \(.*\) is not JSON/);
    expect((await problemsOf('{}'))[0]).toContain('holds no documents');
    expect((await problemsOf('[]'))[0]).toContain('must hold a JSON object');
    expect((await problemsOf(JSON.stringify({ broken: '{ sports { ' })))[0]).toContain(
      'does not parse for ID "broken"',
    );
    expect((await problemsOf(JSON.stringify({ numeric: 12 })))[0]).toContain('no document text for ID "numeric"');
  });

  it('refuses APQ=true beside a manifest: any client could register a document', async () => {
    const problems = await problemsOf(JSON.stringify({ a: SPORTS }), { APQ: 'true' });
    expect(problems).toEqual([expect.stringContaining('APQ=true and TRUSTED_DOCUMENTS_FILE exclude each other')]);
  });
});
