/**
 * Setup file (vitest.config.ts `setupFiles`): every operation any test of
 * this file runs is checked against the estimate's bound
 * (src/spend/estimate/estimate-bound.ts). Gateways started in this process, and
 * gateway processes it spawns with its environment, append each operation
 * outside the bound to one file; the file's last hook fails the test file
 * when there is any, naming the operations, so a violation anywhere in the
 * suite fails the run.
 *
 * Strict by default, so a violation fails CI. `ESTIMATE_BOUND=report` only
 * prints them (the first few lines), for local work on the estimate.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { ESTIMATE_CHECK_ENV } from '../../src/spend/estimate/estimate-bound.js';

const file = join(
  tmpdir(),
  `sports-graph-estimate-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.jsonl`,
);
process.env[ESTIMATE_CHECK_ENV] = file;

afterAll(() => {
  if (!existsSync(file)) return;
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  rmSync(file, { force: true });
  if (lines.length === 0) return;
  const message = `${lines.length} operation(s) outside the estimate bound (estimated >= needed, <= 1.5 x needed + 2):\n${lines.join('\n')}`;
  if (process.env['ESTIMATE_BOUND'] !== 'report') throw new Error(message);
  console.warn(message.split('\n').slice(0, 4).join('\n'));
});
