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

interface Latest {
  generatedAt: string;
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
});
