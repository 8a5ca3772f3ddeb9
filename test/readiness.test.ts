/**
 * `GET /readyz` (issue 19): 200 when the gateway should get traffic, 503
 * otherwise; `/healthz` stays the liveness check. Alone it is ready as soon
 * as it listens (the ledger is loaded before); in a cluster, not before the
 * shared allowance has been read from Redis; from a shutdown on, never.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/net/free-port.js';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { gql, injectFault, requestCounts } from './support/client.js';
import { startRedis, type RedisServer } from './support/redis-server.js';
import { startStack, type TestStack } from './support/servers.js';

const readyz = async (url: string, host?: string) => {
  const response = await request(`${url}/readyz`, host === undefined ? {} : { headers: { host } });
  return { status: response.statusCode, body: (await response.body.json()) as { ready: boolean; reasons: string[] } };
};

/** Asks until `check` holds, for at most `ms` (Redis reconnects with a backoff of up to 2 s). */
async function eventually(check: () => Promise<boolean>, ms = 20_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

describe('readiness, alone', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('is 200 once listening, for any Host (a load balancer probes by address), HEAD too; other methods 405', async () => {
    expect(await readyz(stack.gateway.url)).toEqual({ status: 200, body: { ready: true, reasons: [] } });
    expect((await readyz(stack.gateway.url, 'internal-lb-probe.example')).status).toBe(200);
    const head = await request(`${stack.gateway.url}/readyz`, { method: 'HEAD' });
    expect(head.statusCode).toBe(200);
    await head.body.dump();
    const post = await request(`${stack.gateway.url}/readyz`, { method: 'POST', body: '' });
    expect(post.statusCode).toBe(405);
    await post.body.dump();
  });

  it('is not ready from the start of a shutdown, while an operation in flight still finishes', async () => {
    await injectFault(stack.sandbox.url, {
      route: 'GET /v1/hockey/athletes',
      kind: 'delay',
      latencyMs: 2_000,
      times: 1,
    });
    const before = (await requestCounts(stack.sandbox.url)).byRoute['GET /v1/hockey/athletes'] ?? 0;
    const inFlight = gql(
      stack.gateway.url,
      `{ v1 { hockey { athlete(id: ${hockeyV1Ids.firstAthleteId + 1}) { name } } } }`,
    );
    expect(
      await eventually(
        async () => ((await requestCounts(stack.sandbox.url)).byRoute['GET /v1/hockey/athletes'] ?? 0) > before,
      ),
    ).toBe(true);
    const stopping = stack.gateway.shutdown();
    expect(stack.gateway.readiness()).toEqual({ ready: false, reasons: ['draining: the gateway is shutting down'] });
    // A new connection is refused at once.
    await expect(fetch(`${stack.gateway.url}/readyz`)).rejects.toThrow();
    const answered = await inFlight;
    expect(answered.errors).toBeUndefined();
    expect((await stopping).cut).toBe(0);
    await stack.restartGateway();
  });
});

describe('readiness in a cluster', () => {
  let stack: TestStack | undefined;
  let redis: RedisServer | undefined;
  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
  });

  it('is 503 until the shared allowance has been read from Redis, then 200, and stays ready (degraded) when Redis goes away later', async () => {
    const redisPort = await freePort();
    // Nothing listens there yet: the replica starts degraded, with a share of 0.
    stack = await startStack({ env: { REDIS_URL: `redis://127.0.0.1:${redisPort}`, REPLICA_ID: 'r-ready' } });
    const before = await readyz(stack.gateway.url);
    expect(before.status).toBe(503);
    expect(before.body.ready).toBe(false);
    expect(before.body.reasons[0]).toMatch(/^the shared allowance has not been read from Redis yet/);
    // Liveness is another question: the process is alive and answers.
    expect((await fetch(`${stack.gateway.url}/healthz`)).status).toBe(200);

    redis = await startRedis({ port: redisPort });
    const url = stack.gateway.url;
    expect(await eventually(async () => (await readyz(url)).status === 200)).toBe(true);
    expect(await readyz(url)).toEqual({ status: 200, body: { ready: true, reasons: [] } });

    await redis.kill();
    expect(
      await eventually(
        async () => ((await (await fetch(`${url}/healthz`)).json()) as { status: string }).status === 'degraded',
      ),
    ).toBe(true);
    expect((await readyz(url)).status).toBe(200);
  });
});
