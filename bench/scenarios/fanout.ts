/**
 * fanout: N graphql-ws subscribers on one match (a fresh gateway per N, so
 * its memory delta is theirs alone). Frames are asked for with sandbox match
 * events (`POST /__sandbox/odds/{match}/event`: a frame about 300 ms later,
 * stamped with the sandbox's emit time); each client records its receipt
 * time minus that stamp. Memory per subscriber is the gateway's RSS growth
 * from before the first connection to after the last subscription, over N.
 *
 * The floor, in the same run on the same sockets: the gateway writes one
 * pre-built frame, padded to the odds message's size, to every subscriber's
 * socket (a bench-only control, bench/control.ts), timed by the clients
 * from the gateway's write time (`Date.now()` just before the first write).
 *
 * Method, per level: `frames` rounds of one floor frame and one odds frame
 * in alternating order (floor first in even rounds, odds first in odd
 * ones), each waited for until every subscriber has it, with an idle second
 * between rounds. The clients name their subscriptions with UUIDs, as
 * graphql-ws's own client does, so no two subscribers share an envelope.
 * Every frame gives, from the clients' receipts on the same machine clock,
 * its p50, p99 and last subscriber's latency. Its gateway CPU is read from
 * the kernel (bench/thread-cpu.ts, every thread), sampled every 5 ms
 * throughout (bench/cpu-trace.ts), over the frame alone: from its stamp to
 * its last receipt plus 50 ms (work after the last write: completions,
 * the garbage the frame made), minus the idle rate (keep-alive pings,
 * timers) of the idle seconds before and after its round, over N. So a
 * busy load generator changes neither CPU figure, and the 300 ms between
 * a match event and its frame, or the bench's polling for delivery, add
 * no idle time to subtract. A round pairs its two frames: `cpuRatio` is
 * the median over rounds of odds CPU / floor CPU, `p99Ratio` the median of
 * odds p99 / floor's last subscriber (the issue's definition),
 * `p99VsFloorP99` the median of p99 / floor p99; every figure is a median
 * over frames, with its min-max spread beside it. A round during which the
 * sandbox sent a frame of its own (its 24-30 s refresh) is measured again.
 * Earlier runs pooled the five frames' latencies into one p99 and divided
 * it by the floor's median last-subscriber time, so one slow frame (a GC,
 * another process on the core) set the gateway's figure but not the
 * floor's: 1.0 to 2.25 on the same code; and they read CPU over the whole
 * wait (trigger, 300 ms, polling, a 200 ms settle), several times the
 * frame, so an idle rate that drifted (pings) could make a frame negative.
 *
 * What the latencies measure: the odds latency starts at the sandbox's emit
 * (so it includes the sandbox-to-gateway hop and the shared execution), the
 * floor's at the gateway's first write. Both end when a client's JS sees
 * the message; the clients share the load core with the sandbox, so a
 * receiver slower than the gateway's writes sets the tail of both kinds
 * alike. `clientCpuUsPerMessage` (the clients' CPU per message received,
 * read like the gateway's) says how close to that the run was: when
 * clientCpuUsPerMessage x N is near the last subscriber's time, the
 * receivers, not the gateway, set the latency.
 */
import { procStats, spawnTs, measuredPid, type Child, type Pinning } from '../processes.js';
import { median, percentile, round } from '../stats.js';
import { CpuTrace } from '../cpu-trace.js';
import { threadCpuNs } from '../thread-cpu.js';
import { askGateway, gatewayMemory, type GatewayMemory } from '../gateway-memory.js';
import type { FloorReply } from '../control.js';
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
  /** Min and max over frames of the per-frame p99. */
  p99MsRange: [number, number];
  /** Median over frames of the time the last subscriber received the odds frame. */
  lastMs: number;
  bytesPerSubscriber: number;
  gatewayRssMb: number;
  /** Gateway CPU time spent per frame (all subscribers), ms: what the gateway itself costs, apart from the clients. */
  gatewayCpuMsPerFrame: number;
  /** Gateway CPU per subscriber for one odds frame, µs (median over frames, idle time subtracted). */
  cpuUsPerSubscriber: number;
  /** The same for the floor: one pre-built frame written to each subscriber's socket (bench/control.ts). */
  floorCpuUsPerSubscriber: number;
  /** Min and max over frames. */
  cpuUsPerSubscriberRange: [number, number];
  floorCpuUsPerSubscriberRange: [number, number];
  /** Median over rounds of odds CPU / floor CPU (the two frames of a round). */
  cpuRatio: number;
  cpuRatioRange: [number, number];
  /** Median over floor frames of the time the last subscriber received it. */
  floorLastMs: number;
  floorLastMsRange: [number, number];
  /** Median over floor frames of their p99. */
  floorP99Ms: number;
  /** Median over rounds of odds p99 / floor's last subscriber (the target). */
  p99Ratio: number;
  p99RatioRange: [number, number];
  /** Median over rounds of odds p99 / floor p99: like for like. */
  p99VsFloorP99: number;
  /** Each kept round's figures, in order (floor first in even rounds). */
  perRound: Array<{
    oddsUs: number;
    floorUs: number;
    p99Ms: number;
    lastMs: number;
    floorP99Ms: number;
    floorLastMs: number;
  }>;
  /** Rounds measured again because the sandbox sent a frame of its own during them. */
  discardedRounds: number;
  /** The clients' CPU per message received, µs (median over frames): the receivers' own cost. */
  clientCpuUsPerMessage: number;
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
  | { type: 'samples'; odds: Record<string, number[]>; floor: Record<string, number[]>; nextBytes: number }
  | { type: 'closed' };

export class ClientProcess {
  readonly #child: Child;

  get pid(): number {
    return this.#child.pid;
  }
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

/** One measured frame: from its trigger until every subscriber had it, on the machine clock, and the clients' CPU in that time. */
interface FrameWindow {
  readonly kind: 'odds' | 'floor';
  readonly fromMs: number;
  readonly toMs: number;
  /** The clients' CPU per message received, µs. */
  readonly clientUs: number;
}

/** One round: its idle window (ms, epoch clock) and its two frames. */
interface Round {
  readonly idle: readonly [number, number];
  readonly floor: FrameWindow;
  readonly odds: FrameWindow;
}

const clientsCpuNs = (clients: readonly ClientProcess[]): number =>
  clients.reduce((sum, client) => sum + threadCpuNs(client.pid), 0);

/** Waits from `trigger` until every subscriber has received the frame it causes (at most 30 s). */
async function untilDelivered(
  clients: readonly ClientProcess[],
  kind: 'odds' | 'floor',
  subscribed: number,
  trigger: () => Promise<unknown>,
): Promise<FrameWindow> {
  const target = (await received(clients))[kind] + subscribed;
  const clientBefore = clientsCpuNs(clients);
  const fromMs = Date.now();
  await trigger();
  const until = Date.now() + 30_000;
  while ((await received(clients))[kind] < target && Date.now() < until) await sleep(20);
  const clientUs = round((clientsCpuNs(clients) - clientBefore) / 1_000 / Math.max(1, subscribed), 2);
  // Trailing work (the writes' completions, a collection) before the next frame.
  await sleep(100);
  return { kind, fromMs, toMs: Date.now(), clientUs };
}

/**
 * The gateway's CPU for one frame: from its stamp (the sandbox's emit, or
 * the gateway's first floor write) to the last subscriber's receipt, plus
 * `FRAME_TAIL_MS` for work that follows the last write (write completions,
 * garbage the frame made), minus the idle rate over the same span.
 */
const FRAME_LEAD_MS = 2;
const FRAME_TAIL_MS = 50;

const range = (values: readonly number[]): [number, number] => [Math.min(...values), Math.max(...values)];

/** Per-frame latency figures of one kind, keyed by the frame's stamp; the frame of a window is the one stamped inside it. */
function frameLatencies(
  byFrame: ReadonlyMap<number, number[]>,
  window: FrameWindow,
): { stamp: number; p50: number; p99: number; last: number; count: number } | undefined {
  for (const [stamp, latencies] of byFrame) {
    if (stamp < window.fromMs || stamp > window.toMs) continue;
    return {
      stamp,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      last: Math.max(...latencies),
      count: latencies.length,
    };
  }
  return undefined;
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
    const { before, subscribed } = await subscribeAll(gateway, pid, clients, options);
    await sleep(1_000);
    const after = procStats(pid).rssBytes;
    const memory = await gatewayMemory(gateway.child);
    const size = await clients[0]?.request({ type: 'size' });
    const messageBytes = size?.type === 'size' && size.nextBytes > 0 ? size.nextBytes : 300;

    // Rounds: an idle window (keep-alive pings and timers, whose rate is
    // subtracted from both), then the floor and one odds frame (asked for
    // about 300 ms ahead) in alternating order, on the same sockets, each
    // waited for until delivered; the gateway's CPU is sampled throughout.
    const idleMs = 1_000;
    const trace = new CpuTrace(pid);
    const cpuBefore = procStats(pid).cpuMs;
    const since = Date.now();
    const rounds: Round[] = [];
    let discardedRounds = 0;
    const measure = (kind: 'odds' | 'floor'): Promise<FrameWindow> =>
      untilDelivered(clients, kind, subscribed, () =>
        kind === 'floor'
          ? askGateway<FloorReply>(gateway.child, { type: 'bench_floor', bytes: messageBytes }, 'bench_floor_done')
          : fetch(`${sandboxUrl}/__sandbox/odds/${options.matchId}/event`, { method: 'POST' }),
      );
    const idleWindow = async (): Promise<[number, number]> => {
      const from = Date.now();
      await sleep(idleMs);
      return [from, Date.now()];
    };
    let idle = await idleWindow();
    for (let i = 0; rounds.length < options.frames && i < options.frames * 2; i += 1) {
      const atStart = await received(clients);
      const frames =
        rounds.length % 2 === 0
          ? await measure('floor').then(async (floor) => ({ floor, odds: await measure('odds') }))
          : await measure('odds').then(async (odds) => ({ odds, floor: await measure('floor') }));
      const next = await idleWindow();
      // The sandbox's own refresh (every 24-30 s, prices drifting half the
      // time) may send a frame nobody asked for: a round that saw one, in
      // its idle windows or beside the frames it measured, is measured again.
      const atEnd = await received(clients);
      if (atEnd.odds - atStart.odds !== subscribed || atEnd.floor - atStart.floor !== subscribed) discardedRounds += 1;
      else rounds.push({ idle: [idle[0], next[1]], ...frames });
      idle = next;
    }
    trace.stop();
    await sleep(1_000);
    const cpuAfter = procStats(pid).cpuMs;
    const oddsByFrame = new Map<number, number[]>();
    const floorByFrame = new Map<number, number[]>();
    const gather = (into: Map<number, number[]>, from: Record<string, number[]>) => {
      for (const [stamp, latencies] of Object.entries(from)) {
        const all = into.get(Number(stamp));
        if (all === undefined) into.set(Number(stamp), [...latencies]);
        else for (const latency of latencies) all.push(latency);
      }
    };
    for (const client of clients) {
      const reply = await client.request({ type: 'collect', since });
      if (reply.type !== 'samples') continue;
      gather(oddsByFrame, reply.odds);
      gather(floorByFrame, reply.floor);
    }
    await Promise.all(clients.map((client) => client.request({ type: 'close' })));

    // The idle rate of a round: its idle windows before and after its frames, so a rate that drifts (keep-alive pings) is met halfway.
    const cpuUs = (r: Round, frame: { stamp: number; last: number }): number => {
      const idleNsPerMs = (trace.rate(r.idle[0], r.idle[0] + idleMs) + trace.rate(r.idle[1] - idleMs, r.idle[1])) / 2;
      const from = frame.stamp - FRAME_LEAD_MS;
      const to = frame.stamp + frame.last + FRAME_TAIL_MS;
      return round((trace.between(from, to) - idleNsPerMs * (to - from)) / 1_000 / Math.max(1, subscribed), 2);
    };
    const paired = rounds.flatMap((r) => {
      const o = frameLatencies(oddsByFrame, r.odds);
      const f = frameLatencies(floorByFrame, r.floor);
      return o === undefined || f === undefined ? [] : [{ o, f, oddsUs: cpuUs(r, o), floorUs: cpuUs(r, f) }];
    });
    const medianOf = (values: readonly number[], digits = 2) => round(median(values), digits);
    const oddsCpu = paired.map((r) => r.oddsUs);
    const floorCpu = paired.map((r) => r.floorUs);
    const cpuRatios = paired.map((r) => r.oddsUs / r.floorUs);
    const p99s = paired.map((r) => r.o.p99);
    const floorLasts = paired.map((r) => r.f.last);
    const p99Ratios = paired.map((r) => r.o.p99 / r.f.last);
    return {
      subscribers: options.subscribers,
      subscribed,
      frames: rounds.length,
      deliveryRatio: round(paired.reduce((sum, r) => sum + r.o.count, 0) / (options.subscribers * rounds.length), 3),
      p50Ms: medianOf(
        paired.map((r) => r.o.p50),
        0,
      ),
      p99Ms: medianOf(p99s, 0),
      p99MsRange: range(p99s),
      maxMs: Math.max(...paired.map((r) => r.o.last)),
      lastMs: medianOf(
        paired.map((r) => r.o.last),
        0,
      ),
      bytesPerSubscriber: Math.round((after - before) / Math.max(1, subscribed)),
      gatewayRssMb: mb(after),
      gatewayCpuMsPerFrame: round((cpuAfter - cpuBefore) / Math.max(1, rounds.length + discardedRounds), 1),
      cpuUsPerSubscriber: medianOf(oddsCpu),
      cpuUsPerSubscriberRange: range(oddsCpu),
      floorCpuUsPerSubscriber: medianOf(floorCpu),
      floorCpuUsPerSubscriberRange: range(floorCpu),
      cpuRatio: medianOf(cpuRatios),
      cpuRatioRange: range(cpuRatios.map((ratio) => round(ratio))),
      floorLastMs: medianOf(floorLasts, 0),
      floorLastMsRange: range(floorLasts),
      floorP99Ms: medianOf(
        paired.map((r) => r.f.p99),
        0,
      ),
      p99Ratio: medianOf(p99Ratios),
      p99RatioRange: range(p99Ratios.map((ratio) => round(ratio))),
      p99VsFloorP99: medianOf(paired.map((r) => r.o.p99 / r.f.p99)),
      discardedRounds,
      perRound: paired.map((r) => ({
        oddsUs: r.oddsUs,
        floorUs: r.floorUs,
        p99Ms: r.o.p99,
        lastMs: r.o.last,
        floorP99Ms: r.f.p99,
        floorLastMs: r.f.last,
      })),
      clientCpuUsPerMessage: medianOf(rounds.flatMap((r) => [r.odds.clientUs, r.floor.clientUs])),
      messageBytes,
      memory,
    };
  } finally {
    await Promise.all(clients.map((client) => client.stop()));
    await gateway.child.stop();
  }
}

/**
 * Memory alone, for more rounds of `bytesPerSubscriber` than the level's
 * own (RSS growth moves by a few hundred bytes a subscriber from run to
 * run): a fresh gateway, N subscribers as the level connects them, the
 * gateway's RSS growth over them, and nothing else.
 */
export async function subscriberBytes(
  pinning: Pinning,
  startGateway: (env: Record<string, string>) => Promise<Service>,
  options: { subscribers: number; clientProcesses: number; matchId: string },
): Promise<number> {
  const gateway = await startGateway({ BENCH_CONTROL: 'on' });
  const pid = measuredPid(gateway.child);
  const clients = Array.from({ length: options.clientProcesses }, () => new ClientProcess(pinning));
  try {
    const { before, subscribed } = await subscribeAll(gateway, pid, clients, options);
    // As the level waits before reading it.
    await sleep(1_000);
    return Math.round((procStats(pid).rssBytes - before) / Math.max(1, subscribed));
  } finally {
    await Promise.all(clients.map((client) => client.stop()));
    await gateway.child.stop();
  }
}

/**
 * Greets every client process, reads the gateway's RSS, then has the
 * clients open `options.subscribers` odds subscriptions between them: the
 * RSS before them and how many subscribed.
 */
async function subscribeAll(
  gateway: Service,
  pid: number,
  clients: readonly ClientProcess[],
  options: { subscribers: number; matchId: string },
): Promise<{ before: number; subscribed: number }> {
  await Promise.all(clients.map((client) => client.request(undefined))); // hello
  await sleep(500);
  const before = procStats(pid).rssBytes;
  const wsUrl = `${gateway.url.replace(/^http/, 'ws')}/graphql`;
  const per = Math.ceil(options.subscribers / clients.length);
  const ready = await Promise.all(
    clients.map((client, i) =>
      client.request({
        type: 'start',
        url: wsUrl,
        count: Math.min(per, options.subscribers - i * per),
        query: FANOUT_QUERY,
        variables: { match: options.matchId },
      }),
    ),
  );
  return { before, subscribed: ready.reduce((sum, reply) => sum + (reply.type === 'ready' ? reply.subscribed : 0), 0) };
}
