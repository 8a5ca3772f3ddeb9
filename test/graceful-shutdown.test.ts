/**
 * SIGTERM to the compiled gateway (issue 19): the operation in flight
 * finishes with its data, a graphql-ws subscriber gets `complete` and then
 * the close code 1001 Going Away, an SSE subscriber's stream ends with its
 * `complete` event, the ledger is written (no write-ahead copy left) and the
 * process exits 0.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ensureBuild } from '../scripts/build.js';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { startSandbox, type SandboxHandle } from '../sandbox/server.js';
import { gql, injectFault, requestCounts } from './support/client.js';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process.js';

const API_KEY = 'graceful-shutdown-key';
const ATHLETES = 'GET /v1/hockey/athletes';

interface WsSubscriber {
  /** Messages after `connection_ack`, in order. */
  readonly messages: Array<{ type: string; id?: string }>;
  readonly firstNext: Promise<void>;
  readonly closed: Promise<{ code: number; reason: string }>;
}

/** A raw graphql-transport-ws client, so that every message and the close code are seen as sent. */
function wsSubscriber(url: string, query: string): WsSubscriber {
  const socket = new WebSocket(`${url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const messages: Array<{ type: string; id?: string }> = [];
  let sawNext: () => void = () => undefined;
  const firstNext = new Promise<void>((resolve) => (sawNext = resolve));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })),
  );
  socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { type: string; id?: string };
    if (message.type === 'connection_ack') {
      socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
      return;
    }
    messages.push(message);
    if (message.type === 'next') sawNext();
  });
  return { messages, firstNext, closed };
}

interface SseSubscriber {
  readonly firstNext: Promise<void>;
  /** Every event name, in order, once the stream has ended. */
  readonly ended: Promise<string[]>;
}

function sseSubscriber(url: string, query: string): SseSubscriber {
  let sawNext: () => void = () => undefined;
  const firstNext = new Promise<void>((resolve) => (sawNext = resolve));
  const ended = (async () => {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'accept-encoding': 'gzip, br' },
      body: JSON.stringify({ query }),
    });
    const events: string[] = [];
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = response.body!.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return events;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const event = /^event: (\w+)/m.exec(buffer.slice(0, end))?.[1];
        buffer = buffer.slice(end + 2);
        if (event === undefined) continue;
        events.push(event);
        if (event === 'next') sawNext();
      }
    }
  })();
  return { firstNext, ended };
}

describe('graceful shutdown on SIGTERM', () => {
  let sandbox: SandboxHandle;
  let dataDir: string;
  beforeAll(async () => {
    await ensureBuild({ ifStale: true });
    sandbox = await startSandbox({ port: 0, apiKey: API_KEY, allowance: 7_500 });
    dataDir = await mkdtemp(join(tmpdir(), 'graceful-shutdown-'));
  });
  afterAll(async () => {
    await sandbox.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('finishes the operation in flight, completes subscriptions (1001 on graphql-ws, end of stream on SSE), flushes the ledger, exits 0', async () => {
    let gateway: GatewayProcess | undefined;
    try {
      gateway = await startGatewayProcess(
        { SPORTS_API_BASE_URL: sandbox.url, SPORTS_API_KEY: API_KEY, SPORTS_API_PLAN: 'pro', LOG_LEVEL: 'info' },
        { dataDir },
      );
      const ws = wsSubscriber(gateway.url, 'subscription { quotaUpdates { remaining } }');
      const sse = sseSubscriber(gateway.url, 'subscription { quotaUpdates { remaining } }');
      await Promise.all([ws.firstNext, sse.firstNext]);

      // The upstream holds the answer long enough for SIGTERM to arrive while the operation waits for it.
      await injectFault(sandbox.url, { route: ATHLETES, kind: 'delay', latencyMs: 3_000, times: 1 });
      const inFlight = gql<{ v1: { hockey: { athlete: { name: string } } } }>(
        gateway.url,
        `{ v1 { hockey { athlete(id: ${hockeyV1Ids.firstAthleteId}) { name } } } }`,
      );
      // Sent once the upstream has it: the operation is in flight.
      for (let seen = 0; seen < 1; ) {
        seen = (await requestCounts(sandbox.url)).byRoute[ATHLETES] ?? 0;
        if (seen < 1) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      gateway.process.kill('SIGTERM');

      const answered = await inFlight;
      expect(answered.errors).toBeUndefined();
      expect(answered.data?.v1.hockey.athlete.name).toEqual(expect.any(String));

      const close = await ws.closed;
      expect(close.code).toBe(1001);
      expect(ws.messages.at(-1)).toEqual({ id: '1', type: 'complete' });
      expect(await sse.ended).toContain('complete');

      await gateway.exited();
      expect(gateway.exit()).toEqual({ code: 0, signal: null });
      // The ledger was written at shutdown: quota.json holds the counted request, the write-ahead copy is gone.
      const upstreamUsed = ((await (await fetch(`${sandbox.url}/__sandbox/quota`)).json()) as { used: number }).used;
      const ledger = JSON.parse(await readFile(join(dataDir, 'quota.json'), 'utf8')) as { allowance: { used: number } };
      expect(upstreamUsed).toBe(1);
      expect(ledger.allowance.used).toBe(upstreamUsed);
      expect(await readdir(dataDir)).not.toContain('quota.json.wal');
      expect(gateway.tail()).toContain('shutting down: draining operations in flight');
    } finally {
      await gateway?.stop();
    }
  });
});
