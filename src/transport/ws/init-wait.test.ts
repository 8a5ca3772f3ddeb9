import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { INIT_TIMEOUT_CLOSE, InitWait } from './init-wait.js';

describe('InitWait', () => {
  const cleanup: Array<() => void> = [];
  afterEach(() => {
    for (const step of cleanup.splice(0)) step();
  });

  it('closes a socket that never initialises with 4408, keeps one that does, and forgets both', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(wss, 'listening');
    // A bound long enough that the initialising socket's message is in before it, however busy the machine.
    const wait = new InitWait(1_000);
    cleanup.push(() => {
      wait.stop();
      wss.close();
    });
    wss.on('connection', (socket) => {
      wait.watch(socket);
      // Any message stands for `connection_init` here.
      socket.on('message', () => wait.initialised(socket));
    });
    const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
    const silent = new WebSocket(url);
    const initialising = new WebSocket(url);
    cleanup.push(() => {
      silent.terminate();
      initialising.terminate();
    });
    const silentClosed = once(silent, 'close');
    await once(initialising, 'open');
    initialising.send('init');

    const [code, reason] = (await silentClosed) as [number, Buffer];
    expect({ code, reason: String(reason) }).toEqual(INIT_TIMEOUT_CLOSE);
    // Past more sweeps: the initialised socket is not closed.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(initialising.readyState).toBe(WebSocket.OPEN);
    expect(wait.size).toBe(0);
  });
});
