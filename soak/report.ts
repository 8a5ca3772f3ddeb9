/**
 * The verdict and its presentation. "Flat" is decided by fixed rules on the
 * samples taken under load after the warm-up and on the sample taken after
 * the load stopped and the gateway idled past its odds linger and the pools'
 * keep-alive. Start is the median of the first three samples under load, end
 * the median of the last three, except for memory: RSS and heap are a
 * sawtooth (they climb until a major GC), so their start and end are the
 * floors (minimum) of the first and last third of the samples, which span
 * several GCs: what survives collection is what a leak would make grow.
 *
 * - RSS floor:        end <= start x 1.2 + 20 MiB
 * - heap used floor:  end <= start x 1.2 + 20 MiB
 * - upstream sockets (pool gauge and kernel TCP count): drained <= start
 * - active handles (sockets, servers, timers held by the gateway): drained <= start
 * - event-loop delay p99: below 100 ms in every sample under load
 * - no HTTP 5xx, no transport error, no GraphQL error, no failed churn cycle
 */
import type { ChurnStats } from './churn.js';
import type { LoadStats } from './load.js';
import type { Sample } from './sampler.js';

const MiB = 1024 * 1024;

export interface Check {
  readonly name: string;
  readonly start: number | null;
  readonly end: number | null;
  readonly max: number | null;
  readonly drained: number | null;
  readonly unit: 'MiB' | 'ms' | 'count';
  readonly rule: string;
  readonly ok: boolean;
}

export interface Verdict {
  readonly flat: boolean;
  readonly checks: Check[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Least-squares slope of `value` over `t`, per minute. */
export function slopePerMinute(samples: readonly Sample[], value: (sample: Sample) => number): number {
  if (samples.length < 2) return 0;
  const n = samples.length;
  const meanT = samples.reduce((sum, s) => sum + s.t, 0) / n;
  const meanV = samples.reduce((sum, s) => sum + value(s), 0) / n;
  let numerator = 0;
  let denominator = 0;
  for (const s of samples) {
    numerator += (s.t - meanT) * (value(s) - meanV);
    denominator += (s.t - meanT) ** 2;
  }
  return denominator === 0 ? 0 : (numerator / denominator) * 60;
}

export function judge(samples: readonly Sample[], load: LoadStats, churn: ChurnStats): Verdict {
  const under = samples.filter((s) => s.phase === 'load');
  if (under.length < 2) throw new Error('too few samples under load to judge: run longer or sample more often');
  const first = under.slice(0, 3);
  const last = under.slice(-3);
  const drained = samples.find((s) => s.phase === 'drained');
  const window = (value: (s: Sample) => number) => ({
    start: median(first.map(value)),
    end: median(last.map(value)),
    max: Math.max(...under.map(value)),
  });

  const third = Math.max(3, Math.floor(under.length / 3));
  const floors = (value: (s: Sample) => number) => ({
    start: Math.min(...under.slice(0, third).map(value)),
    end: Math.min(...under.slice(-third).map(value)),
    max: Math.max(...under.map(value)),
  });
  const rss = floors((s) => s.rssBytes / MiB);
  const heap = floors((s) => s.heapUsedBytes / MiB);
  const loop = window((s) => s.eventLoopP99Ms);
  const pool = window((s) => s.upstreamPoolSockets);
  const hasTcp = under.every((s) => s.upstreamTcpSockets !== null);
  const tcp = hasTcp ? window((s) => s.upstreamTcpSockets!) : undefined;
  const graphqlErrors = Object.values(load.graphqlErrors).reduce((sum, n) => sum + n, 0);

  const checks: Check[] = [
    {
      name: 'RSS, floor',
      ...rss,
      drained: drained === undefined ? null : drained.rssBytes / MiB,
      unit: 'MiB',
      rule: 'end <= start x 1.2 + 20 MiB',
      ok: rss.end <= rss.start * 1.2 + 20,
    },
    {
      name: 'Heap used, floor',
      ...heap,
      drained: drained === undefined ? null : drained.heapUsedBytes / MiB,
      unit: 'MiB',
      rule: 'end <= start x 1.2 + 20 MiB',
      ok: heap.end <= heap.start * 1.2 + 20,
    },
    {
      name: 'Event-loop delay p99',
      ...loop,
      drained: drained?.eventLoopP99Ms ?? null,
      unit: 'ms',
      rule: 'max < 100 ms',
      ok: loop.max < 100,
    },
    {
      name: 'Upstream sockets (pool gauge)',
      ...pool,
      drained: drained?.upstreamPoolSockets ?? null,
      unit: 'count',
      rule: 'drained <= start',
      ok: drained !== undefined && drained.upstreamPoolSockets <= pool.start,
    },
  ];
  if (tcp !== undefined) {
    checks.push({
      name: 'Upstream sockets (TCP, pool + odds WS)',
      ...tcp,
      drained: drained?.upstreamTcpSockets ?? null,
      unit: 'count',
      rule: 'drained <= start',
      ok:
        drained?.upstreamTcpSockets !== null &&
        drained?.upstreamTcpSockets !== undefined &&
        drained.upstreamTcpSockets <= tcp.start,
    });
  }
  const handles = window((s) => s.activeHandles);
  checks.push({
    name: 'Active handles (sockets, servers, timers)',
    ...handles,
    drained: drained?.activeHandles ?? null,
    unit: 'count',
    rule: 'drained <= start',
    ok: drained !== undefined && drained.activeHandles <= handles.start,
  });
  const otherErrors = load.httpOther + load.transportErrors + graphqlErrors + churn.errors;
  checks.push(
    counter('HTTP 5xx', load.http5xx),
    counter('Other errors (HTTP, transport, GraphQL, churn)', otherErrors),
  );
  return { flat: checks.every((check) => check.ok), checks };
}

/** A counter that must stay at 0; its total shows in the "end" column. */
function counter(name: string, count: number): Check {
  return { name, start: null, end: count, max: null, drained: null, unit: 'count', rule: '0', ok: count === 0 };
}

function format(value: number | null, unit: Check['unit']): string {
  if (value === null) return '';
  if (unit === 'count') return String(Math.round(value));
  return value.toFixed(1);
}

export function table(verdict: Verdict): string {
  const header = ['Metric', 'Start', 'End', 'Max', 'Drained', 'Rule', 'OK'];
  const rows = verdict.checks.map((check) => [
    check.unit === 'count' ? check.name : `${check.name} (${check.unit})`,
    format(check.start, check.unit),
    format(check.end, check.unit),
    format(check.max, check.unit),
    format(check.drained, check.unit),
    check.rule,
    check.ok ? 'yes' : 'NO',
  ]);
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
