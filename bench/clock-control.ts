/**
 * The bench's hand on the gateway's cache clock (the `cacheClock` seam of
 * createGateway), over the IPC channel of a gateway the bench spawned, as
 * bench/control.ts's probes are: `{ type: 'bench_clock', nowMs }` sets the
 * clock and is answered `{ type: 'bench_clock_set', nowMs }` once set.
 *
 * Until the first command the clock is the wall clock; after it, it stands
 * where the bench put it, so a simulated day moves only when the bench says
 * (bench/scenarios/matchday.ts: freshness is decided on this clock, and the
 * sandbox's clock is moved with it). Only bench/gateway-main.ts installs it,
 * when its probes are enabled (`BENCH_CONTROL=on` and an IPC channel).
 */

export interface ClockCommand {
  readonly type: 'bench_clock';
  readonly nowMs: number;
}

export interface ClockReply {
  readonly type: 'bench_clock_set';
  readonly nowMs: number;
}

/** A clock the bench sets over the IPC channel: the wall clock until it does. */
export function benchClock(): () => number {
  let setMs: number | undefined;
  process.on('message', (command: unknown) => {
    if (typeof command !== 'object' || command === null) return;
    if ((command as { type?: unknown }).type !== 'bench_clock') return;
    const nowMs = (command as { nowMs?: unknown }).nowMs;
    if (typeof nowMs !== 'number' || !Number.isFinite(nowMs)) return;
    setMs = nowMs;
    const reply: ClockReply = { type: 'bench_clock_set', nowMs };
    process.send?.(reply);
  });
  return () => setMs ?? Date.now();
}
