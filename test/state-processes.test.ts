/**
 * The state-file rules of issue 12 as an operator meets them, with the
 * gateway in processes of its own (dist/main.js, what `npm start` runs):
 * one process per DATA_DIR, a lock that `kill -9` does not leave held,
 * a damaged ledger that stops start-up with a message instead of a stack,
 * and spend that a `kill -9` at any moment cannot make the ledger forget.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { startSandbox, type SandboxHandle } from '../sandbox/server.js';
import { gql, requestCounts, resetCounts, setSandboxQuota } from './support/client.js';
import { gatewayStartFailure, startGatewayProcess, type GatewayProcess } from './support/gateway-process.js';

const API_KEY = 'state-processes-key';

describe('state across processes', () => {
  let sandbox: SandboxHandle;
  let dataDir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, apiKey: API_KEY, allowance: 7_500 });
    env = { SPORTS_API_BASE_URL: sandbox.url, SPORTS_API_KEY: API_KEY, SPORTS_API_PLAN: 'pro', RESULT_CACHE: 'false' };
  });
  afterAll(async () => {
    await sandbox.close();
  });
  const freshDataDir = async (): Promise<string> => {
    dataDir = await mkdtemp(join(tmpdir(), 'state-processes-'));
    return dataDir;
  };
  const removeDataDir = (): Promise<void> => rm(dataDir, { recursive: true, force: true });

  it('a second gateway on the same DATA_DIR refuses to start, naming it; after kill -9 of the first the directory is free', async () => {
    await freshDataDir();
    let first: GatewayProcess | undefined;
    let third: GatewayProcess | undefined;
    try {
      first = await startGatewayProcess(env, { dataDir });
      const second = await gatewayStartFailure(env, dataDir);
      expect(second.code).toBe(2);
      expect(second.output).toContain(
        `DATA_DIR ${dataDir} is in use by another sports-graph process (pid ${first.process.pid}`,
      );
      expect(second.output).not.toMatch(/\n\s+at /);
      // The first one is untouched by the attempt.
      expect((await fetch(`${first.url}/healthz`)).status).toBe(200);

      first.process.kill('SIGKILL');
      await new Promise((resolve) => first?.process.once('exit', resolve));
      third = await startGatewayProcess(env, { dataDir });
      expect((await fetch(`${third.url}/healthz`)).status).toBe(200);
    } finally {
      first?.process.kill('SIGKILL');
      await third?.stop();
      await removeDataDir();
    }
  }, 60_000);

  it('an empty quota.json stops start-up with exit code 2 and a message naming the file, not a SyntaxError stack', async () => {
    await freshDataDir();
    try {
      await writeFile(join(dataDir, 'quota.json'), '');
      const refused = await gatewayStartFailure(env, dataDir);
      expect(refused.code).toBe(2);
      expect(refused.output).toContain(`${join(dataDir, 'quota.json')}: is empty`);
      expect(refused.output).not.toContain('SyntaxError');
      expect(refused.output).not.toMatch(/\n\s+at /);
      // Nothing was overwritten: the operator still has the file to look at.
      expect(await readdir(dataDir)).toContain('quota.json');
    } finally {
      await removeDataDir();
    }
  }, 60_000);

  it('kill -9 under load: the ledger after restart is never behind the counted requests the upstream received', async () => {
    let athlete = hockeyV1Ids.firstAthleteId;
    const ATHLETE = (id: number) => `{ v1 { hockey { athlete(id: ${id}) { name } } } }`;
    // Three crashes at different moments of the load.
    for (const killAfter of [5, 23, 41]) {
      await freshDataDir();
      await resetCounts(sandbox.url);
      // The upstream's own count starts at 0 too: its rate-limit headers set the gateway's.
      await setSandboxQuota(sandbox.url, { used: 0 });
      let gateway: GatewayProcess | undefined;
      let restarted: GatewayProcess | undefined;
      try {
        gateway = await startGatewayProcess(env, { dataDir });
        const url = gateway.url;
        let answered = 0;
        let killed = false;
        const killed$ = new Promise<void>((resolve) => gateway?.process.once('exit', () => resolve()));
        // Eight clients, each asking for athletes nobody asked for yet: every one is a counted request.
        const client = async (): Promise<void> => {
          while (!killed) {
            athlete += 1;
            const response = await gql(url, ATHLETE(athlete)).catch(() => undefined);
            if (response === undefined) return;
            answered += 1;
            if (answered >= killAfter && !killed) {
              killed = true;
              gateway?.process.kill('SIGKILL');
            }
          }
        };
        await Promise.all(Array.from({ length: 8 }, client));
        await killed$;
        const received = (await requestCounts(sandbox.url)).total;
        expect(received).toBeGreaterThanOrEqual(killAfter);

        restarted = await startGatewayProcess(env, { dataDir });
        const quota = await gql<{ quota: { used: number } }>(restarted.url, '{ quota { used } }');
        expect(quota.data?.quota.used).toBeGreaterThanOrEqual(received);
        // The quota query itself asked the upstream nothing.
        expect((await requestCounts(sandbox.url)).total).toBe(received);
        // And no more than the requests that were in flight at the crash: at most one per client.
        expect(quota.data?.quota.used).toBeLessThanOrEqual(received + 8);
      } finally {
        gateway?.process.kill('SIGKILL');
        await restarted?.stop();
        await removeDataDir();
      }
    }
  }, 120_000);
});
