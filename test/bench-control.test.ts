/**
 * The bench's probes (bench/control.ts): the fan-out floor frame and the
 * memory breakdown answer only a gateway the bench's own entry
 * (bench/gateway-main.ts) started with BENCH_CONTROL=on and an IPC channel,
 * as the bench spawns it; the gateway itself (createGateway, `npm start`)
 * never attaches them, so the same command reaches nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startSandbox, type SandboxHandle } from '../sandbox/server.js';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process.js';
import { startStack } from './support/servers.js';

const FLOOR = '{"type":"bench_floor","stampMs":';

/** An acknowledged graphql-transport-ws connection that records every text frame after the ack. */
async function acknowledged(
  url: string,
): Promise<{ frames: string[]; binary: () => number; roundTrip: () => Promise<void>; close: () => void }> {
  const socket = new WebSocket(`${url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const frames: string[] = [];
  let binary = 0;
  let pong: (() => void) | undefined;
  await new Promise<void>((resolve, reject) => {
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
    socket.on('error', reject);
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) binary += 1;
      const text = data.toString('utf8');
      if (text.startsWith('{"type":"connection_ack"')) resolve();
      else if (text.startsWith('{"type":"pong"')) pong?.();
      else frames.push(text);
    });
  });
  return {
    frames,
    binary: () => binary,
    // A graphql-ws ping answered: whatever the gateway wrote before it has arrived.
    roundTrip: () =>
      new Promise<void>((resolve) => {
        pong = resolve;
        socket.send(JSON.stringify({ type: 'ping' }));
      }),
    close: () => socket.terminate(),
  };
}

function reply<T>(gateway: GatewayProcess, command: object, type: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (message: { type?: unknown }): void => {
      if (message.type !== type) return;
      gateway.process.off('message', onMessage);
      resolve(message as T);
    };
    gateway.process.on('message', onMessage);
    gateway.process.send(command);
  });
}

describe('a gateway spawned by the bench with BENCH_CONTROL=on', () => {
  let sandbox: SandboxHandle;
  let gateway: GatewayProcess;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, apiKey: 'bench-control-key', allowance: 7_500 });
    gateway = await startGatewayProcess(
      { SPORTS_API_BASE_URL: sandbox.url, SPORTS_API_KEY: 'bench-control-key', BENCH_CONTROL: 'on' },
      // The bench's own entry, under tsx: the only process that reads BENCH_CONTROL.
      { ipc: true, entry: ['--import', 'tsx', 'bench/gateway-main.ts'] },
    );
  });
  afterAll(async () => {
    await gateway.stop();
    await sandbox.close();
  });

  it('writes one floor text frame of the asked size to every WebSocket and says how many', async () => {
    const clients = [await acknowledged(gateway.url), await acknowledged(gateway.url)];
    try {
      const done = await reply<{ sockets: number }>(gateway, { type: 'bench_floor', bytes: 300 }, 'bench_floor_done');
      expect(done.sockets).toBe(2);
      await Promise.all(clients.map((client) => client.roundTrip()));
      for (const client of clients) {
        expect(client.frames).toHaveLength(1);
        expect(client.frames[0]!.startsWith(FLOOR)).toBe(true);
        expect(Buffer.byteLength(client.frames[0]!)).toBe(300);
        expect(client.binary()).toBe(0);
      }
    } finally {
      for (const client of clients) client.close();
    }
  });

  it('answers the memory probe with its own memoryUsage and heap spaces', async () => {
    const memory = await reply<{ usage: { rss: number; heapUsed: number }; heapSpaces: Record<string, number> }>(
      gateway,
      { type: 'bench_memory' },
      'bench_memory',
    );
    expect(memory.usage.rss).toBeGreaterThan(memory.usage.heapUsed);
    expect(memory.heapSpaces['old_space']).toBeGreaterThan(0);
  });

  it('moves the cache clock where the bench sets it (bench/clock-control.ts)', async () => {
    const listed = await gql<{
      v1: { worldCup: { matches: Array<{ ref: { nativeId: string }; statusGroup: number }> } };
    }>(gateway.url, '{ v1 { worldCup { matches { ref { nativeId } statusGroup } } } }');
    const live = listed.data!.v1.worldCup.matches.find((m) => m.statusGroup === 3)!.ref.nativeId;
    const game = async (): Promise<number> => {
      await resetCounts(sandbox.url);
      const result = await gql(
        gateway.url,
        'query ($id: ID!) { v1 { worldCup { game(id: $id) { commentary { minute } } } } }',
        { id: live },
      );
      expect(result.errors).toBeUndefined();
      return (await requestCounts(sandbox.url)).total;
    };
    const setClock = (nowMs: number) =>
      reply<{ nowMs: number }>(gateway, { type: 'bench_clock', nowMs }, 'bench_clock_set');
    const start = Date.now();
    expect(await setClock(start)).toEqual({ type: 'bench_clock_set', nowMs: start });
    expect(await game()).toBe(1);
    // An in-play answer is fresh 15 s (defaultMatchStateTtls.inPlay): 10 s on, cached; 20 s on, fetched again.
    await setClock(start + 10_000);
    expect(await game()).toBe(0);
    await setClock(start + 20_000);
    expect(await game()).toBe(1);
    expect(await game()).toBe(0);
  });
});

describe('a gateway not started by the bench', () => {
  it('ignores the floor command even on an IPC channel: nothing is written to its sockets', async () => {
    // This test worker has an IPC channel (vitest's forks pool), so only the bench's entry stands between the command and the sockets.
    expect(typeof process.send).toBe('function');
    const stack = await startStack();
    const client = await acknowledged(stack.gateway.url);
    try {
      process.emit('message', { type: 'bench_floor', bytes: 300 }, undefined);
      await client.roundTrip();
      expect(client.frames).toEqual([]);
    } finally {
      client.close();
      await stack.close();
    }
  });
});
