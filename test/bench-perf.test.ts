/**
 * The performance work of issue 7, end to end: shared subscription frames
 * (one serialization, byte-identical on every socket), the loader that lets
 * each upstream resource resolve on its own, and the bench-only switches
 * that measure the naive request count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { hockeyV2Ids } from '../sandbox/fixtures/hockey-v2.js';
import { UnsharedFetcher, unsharedLoader } from '../bench/naive-upstream.js';
import { gql, injectFault, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const SNAPSHOTS =
  'subscription ($m: ID!) { oddsSnapshots(matchId: $m) { matchId timestampMs markets { marketId outcomes { name price } } } }';

/** A raw graphql-transport-ws subscriber that keeps each `next` message's text, and whether any came as a binary frame. */
function rawSubscriber(
  url: string,
  matchId: string,
  id = 's',
): { frames: string[]; binaryFrames: () => number; ready: Promise<void>; close: () => void } {
  const frames: string[] = [];
  let binary = 0;
  const socket = new WebSocket(url, 'graphql-transport-ws');
  const ready = new Promise<void>((resolve, reject) => {
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
    socket.on('error', reject);
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) binary += 1;
      const text = data.toString('utf8');
      const message = JSON.parse(text) as { type: string };
      if (message.type === 'connection_ack') {
        socket.send(
          JSON.stringify({ id, type: 'subscribe', payload: { query: SNAPSHOTS, variables: { m: matchId } } }),
        );
      } else if (message.type === 'next') {
        frames.push(text);
        resolve();
      }
    });
  });
  return { frames, binaryFrames: () => binary, ready, close: () => socket.terminate() };
}

const until = async (check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('shared subscription frames', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ sandbox: { oddsCadence: 'fast' }, env: { LOG_LEVEL: 'warn' } });
  });
  afterAll(() => stack.close());

  it('sends every subscriber of one document the same bytes, as valid graphql-ws messages', async () => {
    const url = `${stack.gateway.url.replace('http', 'ws')}/graphql`;
    const subscribers = [rawSubscriber(url, '930001'), rawSubscriber(url, '930001'), rawSubscriber(url, '930001')];
    try {
      await Promise.all(subscribers.map((s) => s.ready));
      await fetch(`${stack.sandbox.url}/__sandbox/odds/930001/event`, { method: 'POST' });
      await until(() => subscribers.every((s) => s.frames.length >= 2));
      const last = subscribers.map((s) => s.frames[1]!);
      expect(new Set(last).size).toBe(1);
      const message = JSON.parse(last[0]!) as {
        id: string;
        type: string;
        payload: { data: { oddsSnapshots: { matchId: string; markets: unknown[] } } };
      };
      expect(message).toMatchObject({
        id: 's',
        type: 'next',
        payload: { data: { oddsSnapshots: { matchId: '930001' } } },
      });
      expect(message.payload.data.oddsSnapshots.markets.length).toBeGreaterThan(0);
      // Exactly what JSON.stringify of the parsed message gives: nothing spliced wrongly.
      expect(JSON.stringify(message)).toBe(last[0]);
    } finally {
      for (const s of subscribers) s.close();
    }
  });

  it('splices each subscription id into the shared payload bytes exactly as graphql-ws would write the message, as text frames', async () => {
    const url = `${stack.gateway.url.replace('http', 'ws')}/graphql`;
    // Ids a client may choose: JSON escapes and multi-byte UTF-8 change the head's byte length.
    const ids = ['s', 'ü-1 ✓', 'a"b\\c'];
    const subscribers = ids.map((id) => rawSubscriber(url, '930002', id));
    try {
      await Promise.all(subscribers.map((s) => s.ready));
      await fetch(`${stack.sandbox.url}/__sandbox/odds/930002/event`, { method: 'POST' });
      await until(() => subscribers.every((s) => s.frames.length >= 2));
      const last = subscribers.map((s) => s.frames[1]!);
      const payloads = last.map((text, i) => {
        const message = JSON.parse(text) as {
          id: string;
          type: string;
          payload: { data: { oddsSnapshots: { matchId: string } } };
        };
        expect(message.id).toBe(ids[i]);
        expect(message.payload.data.oddsSnapshots.matchId).toBe('930002');
        // graphql-ws's own serialization of the same message, byte for byte.
        expect(text).toBe(JSON.stringify({ id: ids[i], type: 'next', payload: message.payload }));
        return text.slice(text.indexOf(',"type":"next"'));
      });
      expect(new Set(payloads).size).toBe(1);
      expect(subscribers.map((s) => s.binaryFrames())).toEqual([0, 0, 0]);
    } finally {
      for (const s of subscribers) s.close();
    }
  });
});

describe('upstream requests', () => {
  const QUERY = /* GraphQL */ `
    query ($team: ID!) {
      v1 { hockey { a: standings(competition: 11, season: 2025) { season } b: standings(competition: 11, season: 2025) { season } } }
      v2(sport: ICE_HOCKEY) { team(id: $team) { name } }
    }
  `;
  const variables = { team: String(hockeyV2Ids.firstTeam) };

  it('the V2 requests that need the cached slug go out while the V1 ones are still in flight, not one round trip later', async () => {
    // V1 standings answers only after a minute: a V2 request that waited for it would reach the sandbox a minute late,
    // one that goes out with it arrives while the V1 request is still held. No clock is read on the passing path.
    const heldMs = 60_000;
    const stack = await startStack({
      env: { OPERATION_TIMEOUT_MS: String(heldMs * 2), UPSTREAM_HEADERS_TIMEOUT_MS: String(heldMs * 2) },
    });
    try {
      await gql(stack.gateway.url, '{ sports { sport } }'); // the free slug catalogue, cached a day
      await resetCounts(stack.sandbox.url);
      await injectFault(stack.sandbox.url, {
        route: 'GET /v1/hockey/standings',
        kind: 'delay',
        latencyMs: heldMs,
        times: 1,
      });
      // Answered (or cut off by the close below) long after the assertion; its outcome is not the point.
      void gql(stack.gateway.url, QUERY, variables).catch(() => undefined);
      const teamRoute = `GET /v2/hockey/api/teams/${hockeyV2Ids.firstTeam}`;
      await until(async () => (await requestCounts(stack.sandbox.url)).byRoute[teamRoute] === 1, heldMs / 2);
      expect((await requestCounts(stack.sandbox.url)).byRoute).toEqual({
        'GET /v1/hockey/standings': 1,
        [teamRoute]: 1,
      });
    } finally {
      await stack.close();
    }
  });

  it('counts one request per resource, none inside the TTL; the bench-only switches count one per field', async () => {
    const normal = await startStack();
    try {
      await gql(normal.gateway.url, QUERY, variables);
      await resetCounts(normal.sandbox.url);
      await gql(normal.gateway.url, QUERY, variables);
      expect((await requestCounts(normal.sandbox.url)).total).toBe(0);
    } finally {
      await normal.close();
    }
    // As bench/gateway-main.ts starts it with UPSTREAM_CACHE=off and UPSTREAM_LOADERS=off.
    const naive = await startStack({
      env: { CACHE_STORE: 'memory' },
      seams: { fetcherFor: (options) => new UnsharedFetcher(options), loaderFor: unsharedLoader },
    });
    try {
      await gql(naive.gateway.url, '{ sports { sport } }');
      await resetCounts(naive.sandbox.url);
      const result = await gql(naive.gateway.url, QUERY, variables);
      expect(result.errors).toBeUndefined();
      // Two aliases of one standings resource, the slug catalogue (no cache) and the team.
      expect((await requestCounts(naive.sandbox.url)).byRoute).toEqual({
        'GET /v1/hockey/standings': 2,
        'GET /reference/sports': 1,
        'GET /v2/hockey/api/teams/3401': 1,
      });
      expect(hockeyV1Ids.topLeague.standingsId).toBe(11);
    } finally {
      await naive.close();
    }
  });
});
