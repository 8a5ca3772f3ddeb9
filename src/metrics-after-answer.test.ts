import { setImmediate as nextCheckPhase } from 'node:timers/promises';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { AfterAnswer, AfterAnswerCounter, AfterAnswerHistogram } from './metrics-after-answer.js';

function metricsOn(registry: Registry): {
  queue: AfterAnswer;
  counter: AfterAnswerCounter<'route'>;
  histogram: AfterAnswerHistogram<'route'>;
} {
  const queue = new AfterAnswer();
  const counter = new AfterAnswerCounter(queue, {
    name: 'test_requests_total',
    help: 'requests',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const histogram = new AfterAnswerHistogram(queue, {
    name: 'test_duration_seconds',
    help: 'duration',
    labelNames: ['route'] as const,
    buckets: [0.1, 1],
    registers: [registry],
  });
  return { queue, counter, histogram };
}

interface HeldValue {
  readonly labels: Record<string, string>;
  readonly value: number;
}

/** The messages of the process warnings emitted while `run` runs. */
async function warningsDuring(run: () => Promise<void>): Promise<string[]> {
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => void warnings.push(warning.message);
  process.on('warning', onWarning);
  try {
    await run();
  } finally {
    process.off('warning', onWarning);
  }
  return warnings;
}

describe('metrics observed after the answer', () => {
  it('are not applied while the caller runs, and are applied in the check phase of the same turn', async () => {
    const registry = new Registry();
    const { counter, histogram } = metricsOn(registry);
    counter.inc({ route: '/a' });
    counter.labels({ route: '/a' }).inc(2);
    histogram.observe({ route: '/a' }, 0.5);
    histogram.startTimer({ route: '/b' })();
    // Read without collecting (as no scrape does): nothing applied yet.
    expect(Object.keys((counter as unknown as { hashMap: object }).hashMap)).toHaveLength(0);
    await nextCheckPhase();
    expect(Object.keys((counter as unknown as { hashMap: object }).hashMap)).toHaveLength(1);
    expect((await counter.get()).values).toEqual([expect.objectContaining({ labels: { route: '/a' }, value: 3 })]);
    const counts = (await histogram.get()).values.filter((value) => value.metricName === 'test_duration_seconds_count');
    expect(counts.map((value) => [value.labels['route'], value.value])).toEqual([
      ['/a', 1],
      ['/b', 1],
    ]);
  });

  it('are all visible to a scrape made before the check phase', async () => {
    const registry = new Registry();
    const { counter, histogram } = metricsOn(registry);
    counter.inc({ route: '/a' });
    histogram.observe({ route: '/a' }, 0.05);
    const text = await registry.metrics();
    expect(text).toContain('test_requests_total{route="/a"} 1');
    expect(text).toContain('test_duration_seconds_count{route="/a"} 1');
  });

  it('turn an observation prom-client refuses into a warning, not a thrown error, and keep the others', async () => {
    const registry = new Registry();
    const { queue, counter } = metricsOn(registry);
    const warnings = await warningsDuring(async () => {
      expect(() => counter.inc({ route: '/a' }, -1)).not.toThrow();
      counter.inc({ route: '/b' });
      queue.flush();
      await nextCheckPhase();
    });
    expect(warnings).toEqual(['It is not possible to decrease a counter']);
    expect((await counter.get()).values).toEqual([expect.objectContaining({ labels: { route: '/b' }, value: 1 })]);
  });

  it('tally increments of their one label per value, and still let prom-client judge anything else', async () => {
    const registry = new Registry();
    const { queue, counter } = metricsOn(registry);
    const warnings = await warningsDuring(async () => {
      for (let i = 0; i < 10; i += 1) counter.inc({ route: '/a' });
      counter.inc({ route: '/b' });
      counter.inc({ route: '/a', version: 'v1' } as unknown as { route: string });
      queue.flush();
      counter.inc({ route: '/a' });
      await nextCheckPhase();
      // Tallied: not applied by the check phase, only by a read.
      const held = Object.values((counter as unknown as { hashMap: Record<string, HeldValue> }).hashMap);
      expect(held.find((value) => value.labels.route === '/a')?.value).toBe(10);
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('version');
    const values = (await counter.get()).values.map((value) => [value.labels['route'], value.value]);
    expect(values).toEqual([
      ['/a', 11],
      ['/b', 1],
    ]);
  });

  it('tally a frozen label set by identity until a read, even past check phases that apply queued observations', async () => {
    const registry = new Registry();
    const queue = new AfterAnswer();
    const requests = new AfterAnswerCounter(queue, {
      name: 'test_upstream_total',
      help: 'requests',
      labelNames: ['route', 'status'] as const,
      registers: [registry],
    });
    const ok = Object.freeze({ route: '/a', status: '200' });
    const held = (): number => Object.keys((requests as unknown as { hashMap: object }).hashMap).length;
    for (let i = 0; i < 3; i += 1) requests.inc(ok);
    // Not frozen: queued and applied in the check phase, as before.
    requests.inc({ route: '/b', status: '200' });
    await nextCheckPhase();
    expect(held()).toBe(1);
    requests.inc(ok);
    const values = (await requests.get()).values.map((value) => [value.labels['route'], value.value]);
    expect(values).toEqual([
      ['/b', 1],
      ['/a', 4],
    ]);
    // A bad frozen set is judged when read: a warning, not a throw at the caller.
    const readWarnings = await warningsDuring(async () => {
      requests.inc(Object.freeze({ route: '/a', version: 'v1' }) as unknown as typeof ok);
      await registry.metrics();
      await nextCheckPhase();
    });
    expect(readWarnings).toHaveLength(1);
  });

  it('tally a counter without labels the same way', async () => {
    const registry = new Registry();
    const queue = new AfterAnswer();
    const hits = new AfterAnswerCounter(queue, { name: 'test_hits_total', help: 'hits', registers: [registry] });
    for (let i = 0; i < 5; i += 1) hits.inc();
    hits.inc(2);
    expect(await registry.metrics()).toContain('test_hits_total 7');
  });
});
