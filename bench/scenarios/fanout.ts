/**
 * fanout: N graphql-ws subscribers on one match (a fresh gateway per N, so
 * its memory delta is theirs alone). Frames are asked for with sandbox match
 * events (`POST /__sandbox/odds/{match}/event`: a frame about 300 ms later,
 * stamped with the sandbox's emit time); each client records its receipt
 * time minus that stamp. Memory per subscriber is the gateway's RSS growth
 * from before the first connection to after the last subscription, over N.
 *
 * The floor, in the same run on the same sockets: the gateway writes one
 * pre-built frame to every subscriber's socket (a bench-only control,
 * src/bench-control.ts), timed by the clients from the gateway's write time.
 * Both are read as gateway CPU per subscriber from the kernel
 * (bench/thread-cpu.ts), minus an idle window of the same length, so that a
 * busy load generator changes neither.
 */
import { procStats, spawnTs, measuredPid, type Child, type Pinning } from '../processes.js';
import { median, percentile, round } from '../stats.js';
import { threadCpuNs } from '../thread-cpu.js';
import { askGateway, gatewayMemory, type GatewayMemory } from '../gateway-memory.js';
import type { FloorReply } from '../../src/bench-control.js';
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
  /** Median over frames of the time the last subscriber received the odds frame. */
  lastMs: number;
  bytesPerSubscriber: number;
  gatewayRssMb: number;
  /** Gateway CPU time spent per frame (all subscribers), ms: what the gateway itself costs, apart from the clients. */
  gatewayCpuMsPerFrame: number;
  /** Gateway CPU per subscriber for one odds frame, µs (median over frames, idle time subtracted). */
  cpuUsPerSubscriber: number;
  /** The same for the floor: one pre-built frame written to each subscriber's socket (src/bench-control.ts). */
  floorCpuUsPerSubscriber: number;
  /** cpuUsPerSubscriber / floorCpuUsPerSubscriber. */
  cpuRatio: number;
  /** Median over floor frames of the time the last subscriber received it. */
  floorLastMs: number;
  floorP99Ms: number;
  /** p99Ms / floorLastMs. */
  p99Ratio: number;
  /** The odds `next` message's size, bytes (the floor frame is padded to it). */
  messageBytes: number;
  /** The gateway's own memory breakdown with every subscriber connected, MB. */
  memory: GatewayMemory | undefined;
}

export const FANOUT_QUERY = /* GraphQL */ `
  subscription Odds($match: ID!) {
    oddsSnapshots(matchId: $match) {
      matchId timestampMs stale feed
      markets { marketId name suspended outcomes { name price } }
    }
  }
`;

type Reply =
  | { type: 'hello' }
  | { type: 'ready'; subscribed: number; failed: number }
  | { type: 'size'; nextBytes: number }
  | { type: 'counts'; odds: number; floor: number }
  | { type: 'samples'; latencies: number[]; lastByFrame: Record<string, number>; floorLatencies: number[]; floorLastByFrame: Record<string, number>; nextBytes: number }
  | { type: 'closed' };

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
const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);

/** Frames of each kind received so far, all clients together. */
async function received(clients: readonly ClientProcess[]): Promise<{ odds: number; floor: number }> {
  let odds = 0;
  let floor = 0;
  for (const client of clients) {
    const reply = await client.request({ type: 'counts' });
    if (reply.type === 'counts') {
      odds += reply.odds;
      floor += reply.floor;
    }
  }
  return { odds, floor };
}

/**
 * Gateway CPU (ns) and wall time (ms) from `trigger` until every subscriber
 * has received the frame it causes (or `timeoutMs`), plus a short settle: a
 * fixed window would cut a slow fan-out short and bill its tail to the next window.
 */
async function cpuUntilDelivered(
  pid: number,
  clients: readonly ClientProcess[],
  kind: 'odds' | 'floor',
  subscribed: number,
  trigger: () => Promise<unknown>,
): Promise<{ ns: number; ms: number }> {
  const before = threadCpuNs(pid);
  const startedAt = performance.now();
  const target = (await received(clients))[kind] + subscribed;
  await trigger();
  const until = Date.now() + 30_000;
  while ((await received(clients))[kind] < target && Date.now() < until) await sleep(50);
  await sleep(200);
  return { ns: threadCpuNs(pid) - before, ms: performance.now() - startedAt };
}

export async function runFanoutLevel(
  pinning: Pinning,
  startGateway: (env: Record<string, string>) => Promise<Service>,
  sandboxUrl: string,
  options: { subscribers: number; frames: number; clientProcesses: number; matchId: string },
): Promise<FanoutLevel> {
  const gateway = await startGateway({ BENCH_CONTROL: 'on' });
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
    const memory = await gatewayMemory(gateway.child);
    const size = await clients[0]?.request({ type: 'size' });
    const messageBytes = size?.type === 'size' && size.nextBytes > 0 ? size.nextBytes : 300;

    // Per frame: an idle window (keep-alive pings and timers, whose rate is
    // subtracted from both), the floor, then one odds frame (asked for about
    // 300 ms ahead), on the same sockets, each measured until delivered.
    const idleMs = 1_000;
    const cpuBefore = procStats(pid).cpuMs;
    const since = Date.now();
    const floorUs: number[] = [];
    const oddsUs: number[] = [];
    for (let i = 0; i < options.frames; i += 1) {
      const idleBefore = threadCpuNs(pid);
      await sleep(idleMs);
      const idleNsPerMs = (threadCpuNs(pid) - idleBefore) / idleMs;
      const perSubscriberUs = (window: { ns: number; ms: number }) => round((window.ns - idleNsPerMs * window.ms) / 1_000 / Math.max(1, subscribed), 2);
      const floor = await cpuUntilDelivered(pid, clients, 'floor', subscribed, () =>
        askGateway<FloorReply>(gateway.child, { type: 'bench_floor', bytes: messageBytes }, 'bench_floor_done'),
      );
      const odds = await cpuUntilDelivered(pid, clients, 'odds', subscribed, () => fetch(`${sandboxUrl}/__sandbox/odds/${options.matchId}/event`, { method: 'POST' }));
      floorUs.push(perSubscriberUs(floor));
      oddsUs.push(perSubscriberUs(odds));
    }
    await sleep(1_000);
    const cpuAfter = procStats(pid).cpuMs;
    const latencies: number[] = [];
    const floorLatencies: number[] = [];
    const lastByFrame = new Map<string, number>();
    const floorLastByFrame = new Map<string, number>();
    const keepLatest = (into: Map<string, number>, from: Record<string, number>) => {
      for (const [stamp, latency] of Object.entries(from)) into.set(stamp, Math.max(into.get(stamp) ?? 0, latency));
    };
    for (const client of clients) {
      const reply = await client.request({ type: 'collect', since });
      if (reply.type !== 'samples') continue;
      for (const latency of reply.latencies) latencies.push(latency);
      for (const latency of reply.floorLatencies) floorLatencies.push(latency);
      keepLatest(lastByFrame, reply.lastByFrame);
      keepLatest(floorLastByFrame, reply.floorLastByFrame);
    }
    await Promise.all(clients.map((client) => client.request({ type: 'close' })));
    const cpuUsPerSubscriber = median(oddsUs);
    const floorCpuUsPerSubscriber = median(floorUs);
    const p99Ms = percentile(latencies, 99);
    const floorLastMs = median([...floorLastByFrame.values()]);
    return {
      subscribers: options.subscribers,
      subscribed,
      frames: options.frames,
      deliveryRatio: round(latencies.length / (options.subscribers * options.frames), 3),
      p50Ms: percentile(latencies, 50),
      p99Ms,
      maxMs: percentile(latencies, 100),
      lastMs: median([...lastByFrame.values()]),
      bytesPerSubscriber: Math.round((after - before) / Math.max(1, subscribed)),
      gatewayRssMb: mb(after),
      gatewayCpuMsPerFrame: round((cpuAfter - cpuBefore) / options.frames, 1),
      cpuUsPerSubscriber,
      floorCpuUsPerSubscriber,
      cpuRatio: round(cpuUsPerSubscriber / floorCpuUsPerSubscriber, 2),
      floorLastMs,
      floorP99Ms: percentile(floorLatencies, 99),
      p99Ratio: round(p99Ms / floorLastMs, 2),
      messageBytes,
      memory,
    };
  } finally {
    await Promise.all(clients.map((client) => client.stop()));
    await gateway.child.stop();
  }
}
