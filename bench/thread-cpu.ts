/**
 * A process's CPU time in nanoseconds, every thread summed, from
 * /proc/PID/task/TID/schedstat (Linux). /proc/PID/stat counts in clock
 * ticks (10 ms): too coarse for one fan-out frame of a few milliseconds,
 * which schedstat measures to the nanosecond. Read from the kernel, so a
 * busy load generator cannot change it.
 */
import { readdirSync, readFileSync } from 'node:fs';

export function threadCpuNs(pid: number): number {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read: its time is gone with it.
    }
  }
  return total;
}
