/**
 * What each fan-out subscriber holds in the gateway: a heap snapshot with no
 * subscriber and one with N (the fanout scenario's clients and query, on a
 * fresh gateway), their difference grouped by constructor (V8's node name:
 * the class of an object, `(closure)` for functions, `system / ...` for
 * V8's own), over N; beside it the gateway's `process.memoryUsage()`
 * difference over N (after a full collection: the gateway runs with
 * `--expose-gc`), which also counts what lives outside the JS heap
 * (socket buffers, libuv handles, the allocator's slack).
 *
 *   HEAP_SUBSCRIBERS=10000 node --max-old-space-size=8192 --import tsx bench/heap-per-subscriber.ts
 *
 * `HEAP_GATEWAY_SCRIPT` names another build of the bench's gateway entry
 * (default this checkout's, dist-bench/gateway/gateway.js: bench/compile.ts);
 * `HEAP_DIR` keeps the snapshots (default: a temporary directory, removed);
 * `HEAP_SNAPSHOTS=0` takes none and prints only the `memoryUsage` figures.
 * Separate from the fanout scenario: writing a snapshot grows the process,
 * so its RSS figure would no longer be the subscribers'. A snapshot is
 * written synchronously by the gateway on its pinned core: on a shared,
 * busy machine the second one took more than five minutes at 2,000
 * subscribers (2026-11-24), so the `process.memoryUsage()` figures are
 * printed first.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HeapSnapshotReply, MemoryReply } from './control.js';
import { askGateway } from './gateway-memory.js';
import { ClientProcess, FANOUT_QUERY } from './scenarios/fanout.js';
import { startBenchStack } from './stack.js';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Self size and count per group. */
type Groups = Map<string, { bytes: number; count: number }>;

const GROUPED_BY_NAME = new Set(['object', 'native', 'hidden', 'array', 'code', 'synthetic', 'object shape']);

function groups(snapshot: Snapshot): Groups {
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const out: Groups = new Map();
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + typeAt]!] ?? '?';
    const name = GROUPED_BY_NAME.has(type)
      ? `${type === 'object' ? '' : `(${type}) `}${snapshot.strings[snapshot.nodes[i + nameAt]!] ?? '?'}`
      : `(${type})`;
    const group = out.get(name) ?? { bytes: 0, count: 0 };
    group.bytes += snapshot.nodes[i + sizeAt]!;
    group.count += 1;
    out.set(name, group);
  }
  return out;
}

const readGroups = async (path: string): Promise<Groups> =>
  groups(JSON.parse(await readFile(path, 'utf8')) as Snapshot);

const subscribers = Number(process.env['HEAP_SUBSCRIBERS'] ?? '10000');
const keepDir = process.env['HEAP_DIR'];
const snapshots = process.env['HEAP_SNAPSHOTS'] !== '0';
const dir = keepDir ?? (await mkdtemp(join(tmpdir(), 'sports-graph-heap-')));
const stack = await startBenchStack(20);
try {
  const gateway = await stack.startGateway(
    'heap',
    { BENCH_CONTROL: 'on' },
    ['--expose-gc'],
    process.env['HEAP_GATEWAY_SCRIPT'],
  );
  const clients = [new ClientProcess(stack.pinning), new ClientProcess(stack.pinning)];
  await Promise.all(clients.map((client) => client.request(undefined)));
  await sleep(500);
  const memory = async (): Promise<NodeJS.MemoryUsage> =>
    (await askGateway<MemoryReply>(gateway.child, { type: 'bench_memory', gc: true }, 'bench_memory')).usage;
  const snapshot = async (name: string): Promise<string> =>
    (
      await askGateway<HeapSnapshotReply>(
        gateway.child,
        { type: 'bench_heap_snapshot', path: join(dir, name) },
        'bench_heap_snapshot_done',
      )
    ).path;
  const empty = snapshots ? await snapshot('0.heapsnapshot') : undefined;
  const before = await memory();
  const wsUrl = `${gateway.url.replace(/^http/, 'ws')}/graphql`;
  const per = Math.ceil(subscribers / clients.length);
  const ready = await Promise.all(
    clients.map((client, i) =>
      client.request({
        type: 'start',
        url: wsUrl,
        count: Math.min(per, subscribers - i * per),
        query: FANOUT_QUERY,
        variables: { match: '940001' },
      }),
    ),
  );
  const subscribed = ready.reduce((sum, reply) => sum + (reply.type === 'ready' ? reply.subscribed : 0), 0);
  await sleep(1_000);
  const after = await memory();
  const per1 = (bytes: number): number => Math.round(bytes / Math.max(1, subscribed));
  // Printed before the second snapshot, which takes minutes on a busy core.
  process.stdout.write(`subscribers ${subscribed}\n`);
  for (const key of ['rss', 'heapUsed', 'external', 'arrayBuffers'] as const)
    process.stdout.write(`${key}: ${per1(after[key] - before[key])} bytes per subscriber\n`);
  const full = snapshots ? await snapshot('N.heapsnapshot') : undefined;
  await Promise.all(clients.map((client) => client.request({ type: 'close' })));
  await Promise.all(clients.map((client) => client.stop()));
  if (empty !== undefined && full !== undefined) {
    const [a, b] = [await readGroups(empty), await readGroups(full)];
    const rows = [...b].map(([name, group]) => ({
      name,
      bytes: group.bytes - (a.get(name)?.bytes ?? 0),
      count: group.count - (a.get(name)?.count ?? 0),
    }));
    const total = rows.reduce((sum, row) => sum + row.bytes, 0);
    process.stdout.write(
      `heap snapshot difference: ${per1(total)} bytes per subscriber\n\n| bytes/subscriber | objects/subscriber | constructor |\n|---:|---:|---|\n`,
    );
    for (const row of rows.sort((x, y) => y.bytes - x.bytes).filter((row) => Math.abs(row.bytes) >= subscribed * 8)) {
      process.stdout.write(
        `| ${per1(row.bytes)} | ${(row.count / Math.max(1, subscribed)).toFixed(2)} | ${row.name} |\n`,
      );
    }
  }
} finally {
  await stack.close();
  if (keepDir === undefined) await rm(dir, { recursive: true, force: true });
}
