/**
 * The gateway's own memory breakdown (`process.memoryUsage()` and V8's heap
 * spaces), asked over the IPC channel of a gateway started with
 * `BENCH_CONTROL=on` (bench/control.ts): /proc gives only its RSS.
 */
import { round } from './stats.js';
import type { Child } from './processes.js';
import type { MemoryReply } from './control.js';

export interface GatewayMemory {
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  /** V8 heap space to used MB. */
  heapSpacesMb: Record<string, number>;
}

/** One request to the gateway's bench control, answered by a reply of `replyType`. */
export function askGateway<T>(gateway: Child, command: object, replyType: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (reply: { type?: unknown }): void => {
      if (reply.type !== replyType) return;
      gateway.process.off('message', onMessage);
      resolve(reply as T);
    };
    gateway.process.on('message', onMessage);
    gateway.process.send(command);
  });
}

const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);

/** The breakdown, or undefined for a gateway without the bench's IPC channel. */
export async function gatewayMemory(gateway: Child): Promise<GatewayMemory | undefined> {
  if (!gateway.process.connected) return undefined;
  const reply = await askGateway<MemoryReply>(gateway, { type: 'bench_memory' }, 'bench_memory');
  return {
    rssMb: mb(reply.usage.rss),
    heapUsedMb: mb(reply.usage.heapUsed),
    heapTotalMb: mb(reply.usage.heapTotal),
    externalMb: mb(reply.usage.external),
    arrayBuffersMb: mb(reply.usage.arrayBuffers),
    heapSpacesMb: Object.fromEntries(Object.entries(reply.heapSpaces).map(([space, bytes]) => [space, mb(bytes)])),
  };
}
