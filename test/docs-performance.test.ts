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

interface Latest {
  generatedAt: string;
  peers?: { hive: { measuredAt: string; cases: Record<string, PeerCase> } };
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
});
