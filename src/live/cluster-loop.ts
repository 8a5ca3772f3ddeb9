/**
 * One poll loop per cluster (issue 14, item 5): the live ticker's poll, a
 * baseball lineup watch. The loop's owner (src/live/ticker.ts,
 * lineup-poller.ts) says when it has listeners (`join`, `leave`) and what
 * each poll found (`publish`); this module says when it is the one to poll
 * (`run`, `halt`) and hands it what the replica that polls found
 * (`receive`).
 *
 * - A replica with listeners tries the lease `{name}` every `tickMs` (TTL
 *   `leaseTtlMs`): taking it when free, extending it when its own. The
 *   holder runs the loop; its results go on the bus (channel `{name}`) to
 *   the other replicas' listeners and on the board (key `{name}`, kept
 *   `boardTtlMs`), which a replica reads when its first listener arrives,
 *   and which the next holder reads to poll on the same schedule rather
 *   than at once (so a handover costs no extra request).
 * - Unlike an odds socket, the loop is held only while the holder has
 *   listeners of its own: a poll is paid for by one of its subscribers
 *   (poll-payers.ts), and a replica without any has nobody to charge. The
 *   last one leaving releases the lease, and a replica that still has
 *   listeners takes it at its next tick.
 * - Takeover bound: a holder that dies stops renewing; a replica with
 *   listeners holds the lease within `leaseTtlMs + tickMs` (3 s + 1 s by
 *   default) and polls when the last poll's interval is over.
 * - Redis away: every replica with listeners runs the loop itself (as a
 *   single node would: one poll per replica per interval while degraded);
 *   when Redis returns the lease decides again at once and the others halt.
 */
import { CoalescedRun } from './coalesced-run.js';
import type { Logger } from 'pino';
import type { Board, Bus, Leases } from '../state/contracts.js';
import type { LinkState } from './cluster-feed-source.js';
import type { LoopHandlers, PollLoop, PollLoops } from './poll-loop.js';

export interface ClusterLoopsOptions {
  readonly replicaId: string;
  readonly bus: Bus;
  readonly leases: Leases;
  readonly board: Board;
  readonly link: LinkState;
  readonly logger: Logger;
  /** @default 3_000 */
  readonly leaseTtlMs?: number;
  /** @default 1_000 */
  readonly tickMs?: number;
}

/** The loops of a cluster member: the cluster backend hands them to the ticker and the lineup poller (live/sharing.ts). */
export function clusterLoops(options: ClusterLoopsOptions): PollLoops {
  return (name, boardTtlMs, handlers) => new ClusterLoop(name, boardTtlMs, handlers, options);
}

type Role = 'idle' | 'follower' | 'owner' | 'alone';

export class ClusterLoop implements PollLoop {
  readonly #name: string;
  readonly #boardTtlMs: number;
  readonly #handlers: LoopHandlers;
  readonly #options: ClusterLoopsOptions;
  readonly #logger: Logger;
  #role: Role = 'idle';
  #timer: NodeJS.Timeout | undefined;
  #off: Array<() => void> = [];
  readonly #ticks = new CoalescedRun(
    () => this.#contend(),
    () => this.#role !== 'idle',
    (error) =>
      this.#logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'cluster loop tick failed'),
  );

  constructor(name: string, boardTtlMs: number, handlers: LoopHandlers, options: ClusterLoopsOptions) {
    this.#name = name;
    this.#boardTtlMs = boardTtlMs;
    this.#handlers = handlers;
    this.#options = options;
    this.#logger = options.logger.child({ loop: name });
  }

  /** True while this replica is the one to poll. */
  get running(): boolean {
    return this.#role === 'owner' || this.#role === 'alone';
  }

  /** This replica has listeners: it follows the loop, and polls when it gets the lease. */
  join(): void {
    if (this.#role !== 'idle') return;
    this.#role = 'follower';
    const { bus, link, replicaId, tickMs = 1_000 } = this.#options;
    this.#off = [
      bus.subscribe(this.#name, (text) => {
        const message = parseMessage(text);
        if (message !== undefined && message.from !== replicaId && this.#role === 'follower')
          this.#handlers.receive(message.value);
      }),
      link.onUp(() => this.#tick()),
      link.onDown(() => this.#tick()),
    ];
    this.#timer = setInterval(() => this.#tick(), tickMs);
    this.#timer.unref();
    this.#tick();
  }

  /** No listeners left here: stop polling and give the lease to whoever still has some. */
  leave(): void {
    if (this.#role === 'idle') return;
    const wasRunning = this.running;
    const owned = this.#role === 'owner';
    this.#role = 'idle';
    clearInterval(this.#timer);
    for (const off of this.#off) off();
    this.#off = [];
    if (wasRunning) this.#handlers.halt();
    if (owned) void this.#options.leases.release(this.#name);
  }

  /**
   * What a poll found, for the other replicas' listeners and (unless
   * `board` is false: an outcome only the present listeners should see)
   * the board. Only the lease holder's travels.
   */
  publish(value: string, { board = true }: { board?: boolean } = {}): void {
    if (this.#role !== 'owner') return;
    const { bus, replicaId } = this.#options;
    bus.publish(this.#name, JSON.stringify({ from: replicaId, value }));
    if (board) void this.#options.board.set(this.#name, value, this.#boardTtlMs);
  }

  /** The last value the polling replica published, if the board still has it. */
  latest(): Promise<string | undefined> {
    return this.#options.board.get(this.#name);
  }

  #tick(): void {
    this.#ticks.request();
  }

  async #contend(): Promise<void> {
    const { link, leases, replicaId, leaseTtlMs = 3_000 } = this.#options;
    if (!link.up) {
      this.#become('alone');
      return;
    }
    if (await leases.acquire(this.#name, leaseTtlMs)) {
      if (this.#role === 'idle') {
        await leases.release(this.#name);
        return;
      }
      this.#become('owner');
      return;
    }
    if (this.#role !== 'owner' && this.#role !== 'alone') return;
    // Not taken: under another name, or Redis did not answer. Only the first makes this replica halt.
    const holder = await leases.holder(this.#name);
    // #become ignores a replica that left meanwhile.
    if (holder !== undefined && holder !== replicaId) this.#become('follower');
  }

  #become(role: Exclude<Role, 'idle'>): void {
    if (this.#role === role || this.#role === 'idle') return;
    const wasRunning = this.running;
    this.#role = role;
    this.#logger.info(
      { role },
      role === 'owner'
        ? "took the loop's lease: this replica polls"
        : role === 'alone'
          ? 'Redis is away: this replica polls on its own'
          : "another replica holds the loop's lease: following it",
    );
    if (this.running && !wasRunning) this.#handlers.run();
    if (!this.running && wasRunning) this.#handlers.halt();
  }
}

function parseMessage(text: string): { from: string; value: string } | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null) return undefined;
    const { from, value: inner } = value as Record<string, unknown>;
    return typeof from === 'string' && typeof inner === 'string' ? { from, value: inner } : undefined;
  } catch {
    return undefined;
  }
}
