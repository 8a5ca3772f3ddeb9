/**
 * One fanout client process: opens COUNT graphql-ws connections (protocol
 * `graphql-transport-ws`, written by hand to keep the client's own cost per
 * message small), each subscribed to one match's odds snapshots, and records
 * for every frame `receipt time - frame timestamp` (the sandbox's emit time,
 * same machine clock). Driven over IPC by bench/scenarios/fanout.ts.
 *
 * The gateway's bench-only floor frames (`{"type":"bench_floor","stampMs":..}`,
 * bench/control.ts) arrive on the same sockets; they are timed the same
 * way (receipt minus the gateway's write time) and kept apart.
 *
 * Both kinds cost this process the same per message (the stamp is read
 * from the message's first bytes, never from the whole text): this process
 * shares a core with the other client and the sandbox, and a receiver that
 * spent more on one kind would bill its own time to that kind's tail.
 */
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';

interface Start {
  type: 'start';
  url: string;
  count: number;
  query: string;
  variables: Record<string, unknown>;
}
interface Collect {
  type: 'collect';
  since: number;
}
interface Close {
  type: 'close';
}
interface Size {
  type: 'size';
}
interface Counts {
  type: 'counts';
}
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
/** Bytes read from each message: both stamps lie within them (the odds stamp after the envelope with its 36-character id, and `matchId`). */
const PREFIX_BYTES = 256;
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
      const text = data.toString('latin1', 0, Math.min(data.length, PREFIX_BYTES));
      if (text.startsWith(FLOOR)) {
        floorSamples.push(Number(text.slice(FLOOR.length, text.indexOf(',', FLOOR.length))), receivedAt);
        return;
      }
      if (text.startsWith('{"type":"connection_ack"')) {
        // A UUID, as graphql-ws's own client (and Apollo's and urql's links on it) names a subscription: no two subscribers share an envelope.
        socket.send(JSON.stringify({ id: randomUUID(), type: 'subscribe', payload: { query, variables } }));
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

/** Latencies of frames stamped from `since` on, grouped by frame (keyed by its stamp). */
function latenciesSince(pairs: readonly number[], since: number): Record<string, number[]> {
  const byFrame: Record<string, number[]> = {};
  for (let i = 0; i < pairs.length; i += 2) {
    const stamp = pairs[i]!;
    if (stamp < since) continue;
    byFrame[stamp] ??= [];
    byFrame[stamp].push(pairs[i + 1]! - stamp);
  }
  return byFrame;
}

process.on('message', (command: Command) => {
  void (async () => {
    if (command.type === 'start') {
      for (let i = 0; i < command.count; i += CONNECT_BATCH) {
        const batch: Array<Promise<void>> = [];
        for (let j = i; j < Math.min(command.count, i + CONNECT_BATCH); j += 1)
          batch.push(open(command.url, command.query, command.variables));
        await Promise.all(batch);
      }
      send({ type: 'ready', subscribed, failed });
    } else if (command.type === 'collect') {
      const odds = latenciesSince(samples, command.since);
      const floor = latenciesSince(floorSamples, command.since);
      samples = [];
      floorSamples = [];
      send({ type: 'samples', odds, floor, nextBytes });
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
