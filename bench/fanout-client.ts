/**
 * One fanout client process: opens COUNT graphql-ws connections (protocol
 * `graphql-transport-ws`, written by hand to keep the client's own cost per
 * message small), each subscribed to one match's odds snapshots, and records
 * for every frame `receipt time - frame timestamp` (the sandbox's emit time,
 * same machine clock). Driven over IPC by bench/scenarios/fanout.ts.
 *
 * The gateway's bench-only floor frames (`{"type":"bench_floor","stampMs":..}`,
 * src/bench-control.ts) arrive on the same sockets; they are timed the same
 * way (receipt minus the gateway's write time) and kept apart.
 */
import WebSocket from 'ws';

interface Start { type: 'start'; url: string; count: number; query: string; variables: Record<string, unknown> }
interface Collect { type: 'collect'; since: number }
interface Close { type: 'close' }
interface Size { type: 'size' }
interface Counts { type: 'counts' }
type Command = Start | Collect | Close | Size | Counts;

const sockets: WebSocket[] = [];
/** Pairs of (frame timestamp, receipt time), flat, to keep 100,000 samples cheap. */
let samples: number[] = [];
/** The same for floor frames. */
let floorSamples: number[] = [];
/** Size of the last odds `next` message, bytes: the floor frame is padded to it. */
let nextBytes = 0;
let subscribed = 0;
let failed = 0;
const TIMESTAMP = /"timestampMs":(\d+(?:\.\d+)?)/;
const FLOOR = '{"type":"bench_floor","stampMs":';
/** Handshakes in flight at once: the gateway's listen backlog is finite. */
const CONNECT_BATCH = 200;

function send(message: unknown): void {
  process.send?.(message);
}

function open(url: string, query: string, variables: Record<string, unknown>): Promise<void> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, 'graphql-transport-ws', { perMessageDeflate: false });
    let first = true;
    const done = (ok: boolean): void => {
      if (!first) return;
      first = false;
      if (ok) subscribed += 1;
      else failed += 1;
      resolve();
    };
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
    socket.on('message', (data: Buffer) => {
      const receivedAt = Date.now();
      const text = data.toString('utf8');
      if (text.startsWith(FLOOR)) {
        floorSamples.push(Number(text.slice(FLOOR.length, text.indexOf(',', FLOOR.length))), receivedAt);
        return;
      }
      if (text.startsWith('{"type":"connection_ack"')) {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query, variables } }));
        return;
      }
      const match = TIMESTAMP.exec(text);
      if (match === null) {
        if (!text.includes('"type":"ping"') && !text.includes('"type":"pong"')) done(false);
        return;
      }
      samples.push(Number(match[1]), receivedAt);
      nextBytes = data.length;
      done(true);
    });
    socket.on('error', () => done(false));
    socket.on('close', () => done(false));
    sockets.push(socket);
  });
}

/** Latencies of frames stamped from `since` on, and the latest receipt per frame (keyed by its stamp). */
function latenciesSince(pairs: readonly number[], since: number): { latencies: number[]; lastByFrame: Record<string, number> } {
  const latencies: number[] = [];
  const lastByFrame: Record<string, number> = {};
  for (let i = 0; i < pairs.length; i += 2) {
    const stamp = pairs[i]!;
    if (stamp < since) continue;
    const latency = pairs[i + 1]! - stamp;
    latencies.push(latency);
    lastByFrame[stamp] = Math.max(lastByFrame[stamp] ?? 0, latency);
  }
  return { latencies, lastByFrame };
}

process.on('message', (command: Command) => {
  void (async () => {
    if (command.type === 'start') {
      for (let i = 0; i < command.count; i += CONNECT_BATCH) {
        const batch: Array<Promise<void>> = [];
        for (let j = i; j < Math.min(command.count, i + CONNECT_BATCH); j += 1) batch.push(open(command.url, command.query, command.variables));
        await Promise.all(batch);
      }
      send({ type: 'ready', subscribed, failed });
    } else if (command.type === 'collect') {
      const odds = latenciesSince(samples, command.since);
      const floor = latenciesSince(floorSamples, command.since);
      samples = [];
      floorSamples = [];
      send({ type: 'samples', latencies: odds.latencies, lastByFrame: odds.lastByFrame, floorLatencies: floor.latencies, floorLastByFrame: floor.lastByFrame, nextBytes });
    } else if (command.type === 'counts') {
      send({ type: 'counts', odds: samples.length / 2, floor: floorSamples.length / 2 });
    } else if (command.type === 'size') {
      send({ type: 'size', nextBytes });
    } else {
      for (const socket of sockets) socket.terminate();
      send({ type: 'closed' });
      process.exit(0);
    }
  })();
});
send({ type: 'hello' });
