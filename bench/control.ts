/**
 * Bench-only controls, over the IPC channel of a gateway the bench spawned:
 *
 * - `bench_memory`: the process's own memory breakdown (`process.memoryUsage()`
 *   and V8's heap spaces), which /proc cannot tell the bench;
 * - `bench_heap_snapshot`: a V8 heap snapshot written to the path the bench
 *   names (bench/heap-per-subscriber.ts: what each subscriber holds);
 * - `bench_floor`, for the fan-out scenario (bench/scenarios/fanout.ts):
 *   the floor of delivery, one pre-built WebSocket frame written to every
 * subscriber's socket, measured on the same gateway and the same sockets as
 * the odds frames it is compared with.
 *
 * Never reachable in production: only the bench's gateway entry
 * (bench/gateway-main.ts) attaches it, when the process runs with
 * `BENCH_CONTROL=on` and was started with an IPC channel (Node's
 * `process.send`, which only a parent spawning it with `stdio: 'ipc'` gives),
 * and it listens to nothing but that channel. No route, no socket message
 * and no signal reaches it.
 *
 * The frame is `{"type":"bench_floor","stampMs":..,"pad":".."}` (padded to
 * the size the bench asks for: the size of an odds `next` message), a text
 * frame the bench's client recognises and times; graphql-ws clients never
 * see it, since nothing else enables it.
 */
import type { IncomingMessage } from 'node:http';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';

export interface FloorCommand {
  readonly type: 'bench_floor';
  /** Size of the JSON message to write, bytes (at least the unpadded message). */
  readonly bytes: number;
}

export interface FloorReply {
  readonly type: 'bench_floor_done';
  readonly sockets: number;
}

export interface HeapSnapshotCommand {
  readonly type: 'bench_heap_snapshot';
  readonly path: string;
}

export interface HeapSnapshotReply {
  readonly type: 'bench_heap_snapshot_done';
  readonly path: string;
}

export interface MemoryReply {
  readonly type: 'bench_memory';
  readonly usage: NodeJS.MemoryUsage;
  /** V8 heap space name to its used bytes. */
  readonly heapSpaces: Record<string, number>;
}

/** True only for a bench run: the switch (`BENCH_CONTROL`) and an IPC channel to the bench. */
export function benchControlEnabled(switchedOn: boolean): boolean {
  return switchedOn && typeof process.send === 'function';
}

/** An unmasked, final text frame (RFC 6455 section 5.2) around `payload`. */
export function textFrame(payload: Buffer): Buffer {
  const length = payload.length;
  const header = length < 126 ? Buffer.from([0x81, length]) : length < 65_536 ? Buffer.alloc(4) : Buffer.alloc(10);
  if (length >= 126 && length < 65_536) {
    header[0] = 0x81;
    header[1] = 126;
    header.writeUInt16BE(length, 2);
  } else if (length >= 65_536) {
    header[0] = 0x81;
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([header, payload]);
}

/** The floor message, stamped now, padded to `bytes`. */
export function floorMessage(bytes: number, stampMs: number): Buffer {
  const bare = `{"type":"bench_floor","stampMs":${stampMs},"pad":""}`;
  const pad = '.'.repeat(Math.max(0, bytes - bare.length));
  return Buffer.from(`{"type":"bench_floor","stampMs":${stampMs},"pad":"${pad}"}`);
}

/** Listens on the IPC channel for the bench's commands; a floor command writes one frame to every open socket of `wsServer`. */
export function attachBenchControl(wsServer: WebSocketServer): void {
  const rawSockets = new WeakMap<WebSocket, Duplex>();
  wsServer.on('connection', (socket: WebSocket, request: IncomingMessage) => rawSockets.set(socket, request.socket));
  process.on('message', (command: unknown) => {
    if (typeof command !== 'object' || command === null) return;
    if ((command as { type?: unknown }).type === 'bench_memory') {
      // Live objects only, when the bench started the gateway with --expose-gc and asks for it.
      if ((command as { gc?: unknown }).gc === true) (globalThis as { gc?: () => void }).gc?.();
      const heapSpaces = Object.fromEntries(
        getHeapSpaceStatistics().map((space) => [space.space_name, space.space_used_size]),
      );
      const reply: MemoryReply = { type: 'bench_memory', usage: process.memoryUsage(), heapSpaces };
      process.send?.(reply);
      return;
    }
    if ((command as { type?: unknown }).type === 'bench_heap_snapshot') {
      const reply: HeapSnapshotReply = {
        type: 'bench_heap_snapshot_done',
        path: writeHeapSnapshot((command as HeapSnapshotCommand).path),
      };
      process.send?.(reply);
      return;
    }
    if ((command as FloorCommand).type !== 'bench_floor') return;
    const frame = textFrame(floorMessage((command as FloorCommand).bytes, Date.now()));
    let sockets = 0;
    for (const client of wsServer.clients) {
      const raw = rawSockets.get(client);
      if (raw === undefined || client.readyState !== client.OPEN) continue;
      raw.write(frame);
      sockets += 1;
    }
    const reply: FloorReply = { type: 'bench_floor_done', sockets };
    process.send?.(reply);
  });
}
