/**
 * docs/performance.md's "Current figures" are bench/results/latest.json's:
 * every target the bench wrote, with its target, measured value and verdict,
 * and the date of the run. A new bench run without the page follows fails here.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tableUnder } from './support/markdown.js';

const root = resolve(import.meta.dirname, '..');

interface PeerCase {
  connections: number;
  gatewayRequestsPerSecond: number;
  hiveRequestsPerSecond: number;
  throughputRatio: { min: number; median: number; max: number };
  gatewayCpuMsPerOp: number;
  hiveCpuMsPerOp: number;
}

interface MatchdayRun {
  operations: number;
  upstreamRequests: number;
  upstreamByWidget: Record<string, number>;
  operationsByWidget: Record<string, number>;
  liveAge: { p95Seconds: number; maxSeconds: number };
}

interface Latest {
  generatedAt: string;
  peers?: { hive: { measuredAt: string; cases: Record<string, PeerCase> } };
  matchday?: {
    measuredAt: string;
    widgets: Record<string, string>;
    classTtls: MatchdayRun;
    policy: MatchdayRun;
    requestRatio: number;
  };
  targets: Array<{ name: string; target: string; measured: string; met: boolean }>;
}

describe('docs/performance.md', () => {
  const latest = JSON.parse(readFileSync(join(root, 'bench/results/latest.json'), 'utf8')) as Latest;
  const page = join(root, 'docs/performance.md');

  it('shows every target of the last bench run as latest.json has it', () => {
    const [header, ...rows] = tableUnder(page, 'Current figures');
    expect(header).toEqual(['figure', 'target', 'measured', 'met']);
    expect(rows).toEqual(latest.targets.map((t) => [`\`${t.name}\``, t.target, t.measured, t.met ? 'yes' : 'no']));
  });

  it('names the run it shows', () => {
    expect(readFileSync(page, 'utf8')).toContain(latest.generatedAt);
  });

  it('shows the last peers run (npm run bench:peers) as latest.json has it', () => {
    const hive = latest.peers?.hive;
    expect(hive).toBeDefined();
    if (hive === undefined) return;
    const rows = tableUnder(page, 'Against Hive Gateway').slice(1);
    expect(rows.map((row) => [row[0], row[2], row[3], row[4], row[5], row[6], row[7]])).toEqual(
      Object.entries(hive.cases).map(([name, c]) => [
        `\`${name}\``,
        String(c.connections),
        String(c.gatewayRequestsPerSecond),
        String(c.hiveRequestsPerSecond),
        `${c.throughputRatio.median} (${c.throughputRatio.min}–${c.throughputRatio.max})`,
        String(c.gatewayCpuMsPerOp),
        String(c.hiveCpuMsPerOp),
      ]),
    );
    expect(readFileSync(page, 'utf8')).toContain(hive.measuredAt);
  });

  it('shows the last matchday run (npm run bench:matchday) as latest.json has it', () => {
    const day = latest.matchday;
    expect(day).toBeDefined();
    if (day === undefined) return;
    const { classTtls, policy } = day;
    expect(tableUnder(page, 'A matchday').slice(1)).toEqual([
      ["upstream requests (the sandbox's count)", String(classTtls.upstreamRequests), String(policy.upstreamRequests)],
      ["live answers' age p95, s", String(classTtls.liveAge.p95Seconds), String(policy.liveAge.p95Seconds)],
      ["live answers' age max, s", String(classTtls.liveAge.maxSeconds), String(policy.liveAge.maxSeconds)],
      ['operations', String(classTtls.operations), String(policy.operations)],
    ]);
    // The per-widget table: the section's second, read as its lines.
    const text = readFileSync(page, 'utf8');
    const section = text.slice(text.indexOf('## A matchday'), text.indexOf('\n## ', text.indexOf('## A matchday') + 1));
    const cells = (name: string): string[] | undefined =>
      section
        .split('\n')
        .find((line) => line.startsWith(`| \`${name}\``))
        ?.split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
    for (const [name, every] of Object.entries(day.widgets)) {
      expect(cells(name)).toEqual([
        `\`${name}\``,
        every.replace('every ', ''),
        String(classTtls.operationsByWidget[name] ?? 0),
        String(classTtls.upstreamByWidget[name] ?? 0),
        String(policy.upstreamByWidget[name] ?? 0),
      ]);
    }
    expect(section).toContain(day.measuredAt);
    expect(section).toContain(`${day.requestRatio}×`);
  });
});
