/**
 * fanout: N graphql-ws subscribers on one match (a fresh gateway per N, so
 * its memory delta is theirs alone). Frames are asked for with sandbox match
 * events (`POST /__sandbox/odds/{match}/event`: a frame about 300 ms later,
 * stamped with the sandbox's emit time); each client records its receipt
 * time minus that stamp. Memory per subscriber is the gateway's RSS growth
 * from before the first connection to after the last subscription, over N.
 */
import { procStats, spawnTs, measuredPid, type Child, type Pinning } from '../processes.js';
import { percentile, round } from '../stats.js';
import type { Service } from '../stack.js';

export interface FanoutLevel {
  subscribers: number;
  subscribed: number;
  frames: number;
  /** Deliveries counted against subscribers x frames (1 = every frame reached every client). */
  deliveryRatio: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  bytesPerSubscriber: number;
  gatewayRssMb: number;
  /** Gateway CPU time spent per frame (all subscribers), ms: what the gateway itself costs, apart from the clients. */
  gatewayCpuMsPerFrame: number;
}

export const FANOUT_QUERY = /* GraphQL */ `
  subscription Odds($match: ID!) {
    oddsSnapshots(matchId: $match) {
      matchId timestampMs stale feed
      markets { marketId name suspended outcomes { name price } }
    }
  }
`;

type Reply = { type: 'hello' } | { type: 'ready'; subscribed: number; failed: number } | { type: 'samples'; latencies: number[] } | { type: 'closed' };

class ClientProcess {
  readonly #child: Child;
  readonly #waiting: Array<(reply: Reply) => void> = [];

  constructor(pinning: Pinning) {
    this.#child = spawnTs(pinning, { script: 'bench/fanout-client.ts', env: {}, cpu: pinning.loadCpu, ipc: true });
    this.#child.process.on('message', (reply: Reply) => this.#waiting.shift()?.(reply));
  }

  request(command: unknown): Promise<Reply> {
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      if (command !== undefined) this.#child.process.send(command as object);
    });
  }

  stop(): Promise<void> {
    return this.#child.stop();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runFanoutLevel(
  pinning: Pinning,
  startGateway: () => Promise<Service>,
  sandboxUrl: string,
  options: { subscribers: number; frames: number; clientProcesses: number; matchId: string },
): Promise<FanoutLevel> {
  const gateway = await startGateway();
  const pid = measuredPid(gateway.child);
  const clients = Array.from({ length: options.clientProcesses }, () => new ClientProcess(pinning));
  try {
    await Promise.all(clients.map((client) => client.request(undefined))); // hello
    await sleep(500);
    const before = procStats(pid).rssBytes;
    const wsUrl = `${gateway.url.replace(/^http/, 'ws')}/graphql`;
    const per = Math.ceil(options.subscribers / clients.length);
    const ready = await Promise.all(
      clients.map((client, i) =>
        client.request({ type: 'start', url: wsUrl, count: Math.min(per, options.subscribers - i * per), query: FANOUT_QUERY, variables: { match: options.matchId } }),
      ),
    );
    const subscribed = ready.reduce((sum, reply) => sum + (reply.type === 'ready' ? reply.subscribed : 0), 0);
    await sleep(1_000);
    const after = procStats(pid).rssBytes;

    const cpuBefore = procStats(pid).cpuMs;
    const since = Date.now();
    // Leave each frame time to reach everyone before the next is asked for.
    const spacingMs = Math.max(600, Math.ceil(options.subscribers / 10));
    for (let i = 0; i < options.frames; i += 1) {
      await fetch(`${sandboxUrl}/__sandbox/odds/${options.matchId}/event`, { method: 'POST' });
      await sleep(spacingMs);
    }
    await sleep(1_000);
    const cpuAfter = procStats(pid).cpuMs;
    const latencies: number[] = [];
    for (const client of clients) {
      const reply = await client.request({ type: 'collect', since });
      if (reply.type === 'samples') for (const latency of reply.latencies) latencies.push(latency);
    }
    await Promise.all(clients.map((client) => client.request({ type: 'close' })));
    return {
      subscribers: options.subscribers,
      subscribed,
      frames: options.frames,
      deliveryRatio: round(latencies.length / (options.subscribers * options.frames), 3),
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: percentile(latencies, 100),
      bytesPerSubscriber: Math.round((after - before) / Math.max(1, subscribed)),
      gatewayRssMb: round(after / 1024 / 1024, 1),
      gatewayCpuMsPerFrame: round((cpuAfter - cpuBefore) / options.frames, 1),
    };
  } finally {
    await Promise.all(clients.map((client) => client.stop()));
    await gateway.child.stop();
  }
}
