import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { KeepAliveSweep } from './keep-alive.js';

/** Resolves when `condition` holds, checked on every event-loop turn of 10 ms. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('KeepAliveSweep', () => {
  const cleanup: Array<() => void> = [];
  afterEach(() => {
    for (const step of cleanup.splice(0)) step();
  });

  it('closes a peer that stops answering pings and keeps one that answers', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(wss, 'listening');
    // A short interval in two slices: each socket is visited every 200 ms.
    const sweep = new KeepAliveSweep(200, 2);
    cleanup.push(() => {
      sweep.stop();
      wss.close();
    });
    const serverSide: WebSocket[] = [];
    wss.on('connection', (socket) => {
      serverSide.push(socket);
      sweep.add(socket);
    });
    const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
    // ws answers pings itself unless told not to: this peer is alive but silent.
    const silent = new WebSocket(url, { autoPong: false });
    const answering = new WebSocket(url);
    cleanup.push(() => {
      silent.terminate();
      answering.terminate();
    });
    let silentPings = 0;
    let answeringPings = 0;
    silent.on('ping', () => (silentPings += 1));
    answering.on('ping', () => (answeringPings += 1));
    const silentClosed = once(silent, 'close');
    await once(answering, 'open');

    const [code] = (await silentClosed) as [number];
    // Terminated (no close frame): 1006 on the peer's side, after one unanswered ping.
    expect(code).toBe(1006);
    expect(silentPings).toBeGreaterThanOrEqual(1);
    // The answering peer outlives two more visits of its own, each with a ping it answered.
    const pingsThen = answeringPings;
    await until(() => answeringPings >= pingsThen + 2);
    expect(answering.readyState).toBe(WebSocket.OPEN);
    expect(serverSide.filter((socket) => socket.readyState === WebSocket.OPEN)).toHaveLength(1);
  });

  it('forgets a socket once it closes', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(wss, 'listening');
    const sweep = new KeepAliveSweep(100, 1);
    cleanup.push(() => {
      sweep.stop();
      wss.close();
    });
    const closedOnServer: Array<Promise<unknown>> = [];
    wss.on('connection', (socket) => {
      sweep.add(socket);
      closedOnServer.push(once(socket, 'close'));
    });
    const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
    const client = new WebSocket(url);
    await once(client, 'open');
    await until(() => closedOnServer.length === 1);
    client.close();
    await Promise.all(closedOnServer);
    // Nothing of it is left to visit: its close listener removed it from every group.
    expect(sweep.size).toBe(0);
  });
});
