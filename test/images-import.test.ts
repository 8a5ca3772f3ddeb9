/**
 * The image importer against the sandbox, as the build ships it
 * (`node dist/images-import.js`, what an operator runs in the container;
 * `npm run images:import` runs the same sources under tsx): 200 entities, every available
 * logo with the fewest counted requests (V1 first), a second run spends
 * nothing, the gateway then serves them from the store, and a run stops
 * before the allowance runs out.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportSummary as Summary } from '../src/images/importer.js';
import { importEntities } from '../sandbox/fixtures/images.js';
import { requestCounts, resetCounts, setSandboxQuota } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

function runImporter(
  env: Record<string, string>,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/images-import.js', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const countedImageRequests = (byRoute: Record<string, number>): number =>
  Object.entries(byRoute)
    .filter(([route]) => /^GET \/v[26]\/[^/]+\/images\//.test(route))
    .reduce((sum, [, n]) => sum + n, 0);

describe('images:import', () => {
  let stack: TestStack;
  let work: string;
  let listFile: string;
  const entities = importEntities();
  beforeAll(async () => {
    stack = await startStack();
    work = await mkdtemp(join(tmpdir(), 'images-import-'));
    listFile = join(work, 'entities.json');
    await writeFile(
      listFile,
      JSON.stringify(
        entities.map((e) => ({
          name: e.name,
          v1: e.v1Id,
          v2Sport: e.v2Sport,
          v2: e.v2Id,
          v6Sport: e.v6Sport,
          v6: e.v6File,
        })),
      ),
    );
  });
  afterAll(async () => {
    await stack.close();
    await rm(work, { recursive: true, force: true });
  });

  it('imports 200 logos V1 first with the fewest counted requests, and a second run spends nothing', async () => {
    await stack.stopGateway();
    await resetCounts(stack.sandbox.url);
    const env = {
      SPORTS_API_BASE_URL: stack.sandbox.url,
      SPORTS_API_KEY: stack.apiKey,
      SPORTS_API_PLAN: 'pro',
      DATA_DIR: stack.dataDir,
    };

    const first = await runImporter(env, [listFile, '--json']);
    expect(first.stderr).toContain('200/200');
    const summary = JSON.parse(first.stdout.trim().split('\n').pop() ?? '{}') as Summary;
    // Fixtures: 150 on V1, 25 more on V2, 12 more on V6, 13 nowhere.
    expect(summary).toMatchObject({ total: 200, v1: 150, v2: 25, v6: 12, missing: 13, failed: 0, alreadyStored: 0 });
    expect(first.code).toBe(0);
    const counts = await requestCounts(stack.sandbox.url);
    // Only V1 placeholders (50) reach V2; only V2 misses (25) reach V6.
    expect(countedImageRequests(counts.byRoute)).toBe(75);
    expect(summary.allowanceSpent).toBe(75);
    expect(counts.total).toBe(200 + 75);

    await resetCounts(stack.sandbox.url);
    const second = await runImporter(env, [listFile, '--json']);
    const again = JSON.parse(second.stdout.trim().split('\n').pop() ?? '{}') as Summary;
    expect(again).toMatchObject({ alreadyStored: 187, missing: 13, allowanceSpent: 0 });
    const secondCounts = await requestCounts(stack.sandbox.url);
    expect(countedImageRequests(secondCounts.byRoute)).toBe(0);

    // The gateway serves what the importer stored, without asking the upstream.
    await stack.restartGateway();
    await resetCounts(stack.sandbox.url);
    const v2Stored = entities[4]!;
    const response = await fetch(`${stack.gateway.url}/images/v2/${v2Stored.v2Sport}/teams/${v2Stored.v2Id}`);
    expect(response.status).toBe(200);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  }, 30_000);

  it('stops before the allowance runs out', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'images-import-quota-'));
    try {
      await resetCounts(stack.sandbox.url);
      await setSandboxQuota(stack.sandbox.url, { limit: 7_500, used: 7_490 });
      const env = {
        SPORTS_API_BASE_URL: stack.sandbox.url,
        SPORTS_API_KEY: stack.apiKey,
        SPORTS_API_PLAN: 'pro',
        DATA_DIR: dataDir,
      };
      const run = await runImporter(env, [listFile, '--json']);
      const summary = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as Summary;
      expect(summary.stoppedEarly).toBe(true);
      expect(summary.notAttempted).toBeGreaterThan(0);
      expect(summary.allowanceSpent).toBeLessThanOrEqual(10);
      expect(summary.failed).toBe(0);
      expect(run.code).toBe(1);
      // Never answered 429: every counted request found a unit.
      const counts = await requestCounts(stack.sandbox.url);
      expect(countedImageRequests(counts.byRoute)).toBe(summary.allowanceSpent);
    } finally {
      await setSandboxQuota(stack.sandbox.url, { used: 0 });
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
