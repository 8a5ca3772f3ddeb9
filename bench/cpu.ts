/**
 * CPU time of a bench child read from /proc around a piece of load, so that
 * a figure is the process's own work: a busy load generator (or another
 * program on the machine) changes how long a run takes, not how much CPU
 * the gateway spent on each operation.
 */
import { measuredPid, procStats, type Child } from './processes.js';
import { median, round } from './stats.js';

/** CPU milliseconds `child` spent while `run` ran, with `run`'s value. */
export async function cpuDuring<T>(child: Child, run: () => Promise<T>): Promise<{ value: T; cpuMs: number }> {
  const pid = measuredPid(child);
  const before = procStats(pid).cpuMs;
  const value = await run();
  return { value, cpuMs: procStats(pid).cpuMs - before };
}

/** Rounds of one figure: the middle value and the range around it. */
export interface Spread {
  readonly min: number;
  readonly median: number;
  readonly max: number;
}

export function spreadOf(values: readonly number[], digits = 3): Spread {
  return {
    min: round(Math.min(...values), digits),
    median: round(median(values), digits),
    max: round(Math.max(...values), digits),
  };
}
