/**
 * Issue 15, item 3, in a cluster: automatic persisted queries registered on
 * one replica are found by every other through the cluster's Redis
 * (src/state/redis/redis-apq-store.ts), because a load balancer sends a
 * client's hash-only request wherever it likes. The Redis entries are
 * bounded (an expiry of APQ_TTL_SECONDS, nothing past
 * APQ_MAX_DOCUMENT_BYTES), and an entry that does not match its hash is
 * never run.
 *
 * Two replicas on the test's own redis-server (test/support/cluster.ts).
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestCounts, resetCounts } from './support/client.js';
import { startCluster, type Cluster } from './support/cluster.js';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });
/** Where the store keeps a document under the default `REDIS_KEY_PREFIX`. */
const apqKey = (hash: string): string => `sports-graph:apq:${hash}`;
const TTL_SECONDS = 600;
/** Two cold Node starts on a busy 2-core machine. */
const PROCESS_START_TIMEOUT_MS = 60_000;

interface Answer {
  status: number;
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

async function post(url: string, body: Record<string, unknown>): Promise<Answer> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, ...((await response.json()) as Omit<Answer, 'status'>) };
}

async function getHashOnly(url: string, hash: string): Promise<Answer> {
  const search = new URLSearchParams({ extensions: JSON.stringify(persisted(hash)) });
  const response = await fetch(`${url}/graphql?${search.toString()}`, {
    headers: { accept: 'application/graphql-response+json', 'x-graphql-csrf': '1' },
  });
  return { status: response.status, ...((await response.json()) as Omit<Answer, 'status'>) };
}

const codeOf = (answer: Answer): unknown => answer.errors?.[0]?.extensions?.['code'];

describe('automatic persisted queries shared by a cluster', () => {
  let cluster: Cluster;
  let redis: Redis;
  let r1: string;
  let r2: string;
  beforeAll(async () => {
    cluster = await startCluster({
      replicas: 2,
      env: { APQ_TTL_SECONDS: String(TTL_SECONDS), APQ_MAX_DOCUMENT_BYTES: '256' },
    });
    [r1, r2] = cluster.replicas.map((replica) => replica.url) as [string, string];
    redis = new Redis(cluster.redis.url);
  }, PROCESS_START_TIMEOUT_MS);
  afterAll(async () => {
    redis?.disconnect();
    await cluster?.close();
  }, PROCESS_START_TIMEOUT_MS);

  it('a document registered on r1 runs by its hash alone on r2, from GET, with one upstream request in all', async () => {
    const query = '{ v1 { hockey { standings { entries { position points } } } } }';
    const hash = sha256(query);
    await resetCounts(cluster.sandbox.url);
    expect(codeOf(await getHashOnly(r2, hash))).toBe('PERSISTED_QUERY_NOT_FOUND');
    const registered = await post(r1, { query, extensions: persisted(hash) });
    expect(registered.errors).toBeUndefined();

    const elsewhere = await getHashOnly(r2, hash);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.data).toEqual(registered.data);
    expect((await requestCounts(cluster.sandbox.url)).total).toBe(1);
  });

  it('the Redis entry holds the text and expires within APQ_TTL_SECONDS', async () => {
    const query = '{ sports { sport name } }';
    const hash = sha256(query);
    expect((await post(r2, { query, extensions: persisted(hash) })).errors).toBeUndefined();
    expect(await redis.get(apqKey(hash))).toBe(query);
    const left = await redis.pttl(apqKey(hash));
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(TTL_SECONDS * 1000);
  });

  it('a document over APQ_MAX_DOCUMENT_BYTES runs but is written nowhere', async () => {
    const long = `{ sports { sport } ${Array.from({ length: 30 }, (_, i) => `b${i}: sports { name }`).join(' ')} }`;
    const hash = sha256(long);
    expect((await post(r1, { query: long, extensions: persisted(hash) })).errors).toBeUndefined();
    expect(await redis.exists(apqKey(hash))).toBe(0);
    expect(codeOf(await getHashOnly(r2, hash))).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  it('an entry in Redis that does not match its hash is never run: PERSISTED_QUERY_NOT_FOUND', async () => {
    const hash = sha256('{ sports { slugs { v1 } } }');
    await redis.set(apqKey(hash), '{ quota { used } }', 'PX', 60_000);
    const answer = await getHashOnly(r1, hash);
    expect(answer.status).toBe(404);
    expect(codeOf(answer)).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(answer.data).toBeUndefined();
  });
});
