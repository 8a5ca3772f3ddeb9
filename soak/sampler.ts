/**
 * One sample of the gateway's health, read from outside the process: its own
 * `/metrics` (prom-client default metrics, prefix `sports_graph_`), and the
 * kernel's TCP table for the sockets it holds to the upstream port (HTTP
 * pool and odds WebSockets alike; /proc/net/tcp, Linux only).
 */
import { readFile } from 'node:fs/promises';

export interface Sample {
  /** Seconds since the soak started. */
  t: number;
  phase: 'warm-up' | 'load' | 'drained';
  rssBytes: number;
  heapUsedBytes: number;
  /** Event-loop delay p99 since the previous scrape (prom-client resets its histogram on each scrape). */
  eventLoopP99Ms: number;
  /** `sports_graph_upstream_open_sockets`: undici pool connections. */
  upstreamPoolSockets: number;
  /** ESTABLISHED TCP connections to the upstream's port (pool + odds WebSockets); null where /proc is missing. */
  upstreamTcpSockets: number | null;
  activeHandles: number;
  /** `process_cpu_seconds_total`: CPU the gateway used so far (user + system). */
  cpuSeconds: number;
}

/** Prometheus text -> metric name (labels dropped, label series summed) -> value. */
export function parseMetrics(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (match === null) continue;
    const value = Number(match[3]);
    if (!Number.isFinite(value)) continue;
    const name = match[1]!;
    values.set(name, (values.get(name) ?? 0) + value);
  }
  return values;
}

function metric(values: Map<string, number>, name: string): number {
  const value = values.get(name);
  if (value === undefined) throw new Error(`the gateway's /metrics has no ${name}`);
  return value;
}

/** ESTABLISHED (state 01) IPv4 and IPv6 connections whose remote port is `port`. */
export async function establishedTo(port: number): Promise<number | null> {
  let count = 0;
  let readAny = false;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      continue;
    }
    readAny = true;
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const remote = fields[2];
      if (remote === undefined || fields[3] !== '01') continue;
      if (Number.parseInt(remote.slice(remote.lastIndexOf(':') + 1), 16) === port) count++;
    }
  }
  return readAny ? count : null;
}

export async function takeSample(
  gatewayUrl: string,
  upstreamPort: number,
  t: number,
  phase: Sample['phase'],
): Promise<Sample> {
  const response = await fetch(`${gatewayUrl}/metrics`);
  if (!response.ok) throw new Error(`/metrics answered ${response.status}`);
  const values = parseMetrics(await response.text());
  return {
    t,
    phase,
    rssBytes: metric(values, 'sports_graph_process_resident_memory_bytes'),
    heapUsedBytes: metric(values, 'sports_graph_nodejs_heap_size_used_bytes'),
    eventLoopP99Ms: metric(values, 'sports_graph_nodejs_eventloop_lag_p99_seconds') * 1000,
    upstreamPoolSockets: metric(values, 'sports_graph_upstream_open_sockets'),
    upstreamTcpSockets: await establishedTo(upstreamPort),
    activeHandles: metric(values, 'sports_graph_nodejs_active_handles_total'),
    cpuSeconds: metric(values, 'sports_graph_process_cpu_seconds_total'),
  };
}
