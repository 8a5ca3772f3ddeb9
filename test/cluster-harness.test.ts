/**
 * The cluster harness itself (test/support/redis-server.ts, cluster.ts),
 * with real parts: the tests of cluster mode lean on it, so a harness that
 * leaves a Redis on 6379, restarts a non-empty one or leaks processes would
 * make their failures lie. Cluster mode is not asserted here.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from './support/cluster.js';
import { findRedisServer, startRedis, type RedisServer } from './support/redis-server.js';

/** A client that fails at once instead of retrying, so "unreachable" is an answer, not a hang. */
function client(port: number): Redis {
  const redis = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
  });
  redis.on('error', () => undefined);
  return redis;
}

/** A bare TCP connection, closed at once: whether anything listens on the port, without a client's retries in between. */
function tcpConnect(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}

/** True while a process with this ID exists (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

async function graphql(
  url: string,
  query: string,
): Promise<{ status: number; body: { data?: unknown; errors?: unknown[] } }> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, body: (await response.json()) as { data?: unknown; errors?: unknown[] } };
}

describe('redis-server', () => {
  let redis: RedisServer | undefined;
  afterAll(async () => {
    await redis?.stop();
  });

  it('starts on a free port that is never 6379 and answers PING', async () => {
    redis = await startRedis();
    expect(redis.port).not.toBe(6379);
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    expect(redis.running).toBe(true);
    const connection = client(redis.port);
    await connection.connect();
    expect(await connection.ping()).toBe('PONG');
    // Nothing persisted: no save points, no append-only file.
    expect(await connection.config('GET', 'save')).toEqual(['save', '']);
    expect(await connection.config('GET', 'appendonly')).toEqual(['appendonly', 'no']);
    connection.disconnect();
  });

  it('kill() makes it unreachable; restart() brings it back on the same port, empty', async () => {
    if (redis === undefined) throw new Error('the first test did not start Redis');
    const { port } = redis;
    const before = client(port);
    await before.connect();
    await before.set('harness:survivor', 'yes');
    expect(await before.get('harness:survivor')).toBe('yes');
    before.disconnect();

    const pid = redis.pid;
    if (pid === undefined) throw new Error('a running server has no pid');
    await redis.kill();
    expect(redis.running).toBe(false);
    expect(redis.pid).toBeUndefined();
    expect(alive(pid)).toBe(false);
    expect((await redis.exited()).signal).toBe('SIGKILL');
    await expect(tcpConnect(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    await redis.restart();
    expect(redis.port).toBe(port);
    expect(redis.running).toBe(true);
    expect(redis.pid).not.toBe(pid);
    const after = client(port);
    await after.connect();
    expect(await after.ping()).toBe('PONG');
    expect(await after.get('harness:survivor')).toBeNull();
    expect(await after.dbsize()).toBe(0);
    after.disconnect();

    const restartedPid = redis.pid;
    if (restartedPid === undefined) throw new Error('a restarted server has no pid');
    await redis.stop();
    await redis.stop();
    expect(alive(restartedPid)).toBe(false);
    expect(redis.running).toBe(false);
  });

  it('names the Debian package when redis-server is nowhere to be found', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'sports-graph-no-redis-'));
    try {
      await expect(findRedisServer(empty, join(empty, 'redis-server'))).rejects.toMatchObject({
        code: 'REDIS_SERVER_MISSING',
        message: expect.stringContaining("Debian's redis-server package") as unknown,
      });
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

// Each replica is a cold Node start (tsx, yoga, the schema): seconds of CPU, so on a busy
// 2-core machine the bound is the one test/state-processes.test.ts gives its process starts.
const PROCESS_START_TIMEOUT_MS = 60_000;

describe('a 2-replica cluster', () => {
  let cluster: Cluster | undefined;
  afterAll(async () => {
    await cluster?.close();
  });

  it('starts two replicas on one sandbox and one Redis; each answers /healthz and GraphQL', {
    timeout: PROCESS_START_TIMEOUT_MS,
  }, async () => {
    cluster = await startCluster({ replicas: 2 });
    expect(cluster.replicas.map((replica) => replica.id)).toEqual(['r1', 'r2']);
    expect(new Set(cluster.replicas.map((replica) => replica.port)).size).toBe(2);
    expect(new Set(cluster.replicas.map((replica) => replica.dataDir)).size).toBe(2);
    expect(cluster.redis.port).not.toBe(6379);
    for (const replica of cluster.replicas) {
      const health = await fetch(`${replica.url}/healthz`);
      expect(health.status).toBe(200);
      const { status, body } = await graphql(replica.url, '{ sports { sport } }');
      expect(status).toBe(200);
      expect(body.errors).toBeUndefined();
      expect((body.data as { sports: { sport: string }[] }).sports.map((entry) => entry.sport)).toContain('ICE_HOCKEY');
    }
  });

  it('kill() ends a replica at once; restart() brings it back on the same port and DATA_DIR', {
    timeout: PROCESS_START_TIMEOUT_MS,
  }, async () => {
    if (cluster === undefined) throw new Error('the cluster did not start');
    const [, second] = cluster.replicas;
    if (second === undefined) throw new Error('no second replica');
    const pid = second.pid;
    if (pid === undefined) throw new Error('a running replica has no pid');
    await second.kill();
    expect(second.running).toBe(false);
    expect(alive(pid)).toBe(false);
    await expect(fetch(`${second.url}/healthz`)).rejects.toThrow();

    await second.restart();
    expect(second.running).toBe(true);
    expect(second.pid).not.toBe(pid);
    expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
    const { body } = await graphql(second.url, '{ sports { sport } }');
    expect(body.errors).toBeUndefined();
  });

  it('close() leaves no replica and no redis-server running', async () => {
    if (cluster === undefined) throw new Error('the cluster did not start');
    const pids = [...cluster.replicas.map((replica) => replica.pid), cluster.redis.pid].filter(
      (pid) => pid !== undefined,
    );
    expect(pids).toHaveLength(3);
    expect(pids.every(alive)).toBe(true);
    await cluster.close();
    for (const pid of pids) expect(alive(pid)).toBe(false);
    expect(cluster.replicas.every((replica) => !replica.running)).toBe(true);
    expect(cluster.redis.running).toBe(false);
    const closed = cluster;
    cluster = undefined;
    await expect(fetch(`${closed.sandbox.url}/__sandbox/requests`)).rejects.toThrow();
  });
});
