/**
 * Issue 35 item 4: disk faults are survived, not fatal; issue 29 item 7:
 * nothing paid for is lost to a crash. The gateway runs as `npm start` runs
 * it (the build's output, `node dist/main.js`; `npm run build` first) on a
 * DATA_DIR that is a small tmpfs of its own, so a full disk and a read-only
 * one are the kernel's real answers (ENOSPC, EROFS; root ignores file
 * permissions, a read-only mount it cannot). The sandbox runs in this
 * process, so it outlives the gateway's crashes and counts every request.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hockeyV2Ids } from '../sandbox/fixtures/hockey-v2.js';
import { startSandbox, type SandboxHandle } from '../sandbox/server.js';
import { CACHE_STORE_FILE } from '../src/state/cache-store-file.js';
import { gql, requestCounts, resetCounts, type GraphQLResponse } from './support/client.js';
import { cacheFileSettled } from './support/cache-file.js';
import { freePort } from '../src/net/free-port.js';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process.js';
import { reapOnExit } from './support/reap-on-exit.js';
import { zeroEntryPages } from './support/lmdb-pages.js';
import { mountTmpfs, tmpfsUnavailable, type Tmpfs } from './support/tmpfs.js';

const API_KEY = 'disk-faults-key';
const root = fileURLToPath(new URL('../', import.meta.url));
const noMount = tmpfsUnavailable();
if (noMount !== undefined) process.stderr.write(`disk-faults.test.ts: skipped, ${noMount}\n`);

const TEAM_AND_NEWS = `{
  v1 { hockey { news(limit: 3) { articles { title } } } }
  v2(sport: ICE_HOCKEY) { hockey { team(id: "${hockeyV2Ids.firstTeam + 1}") { detail { name } roster { position } } } }
}`;
const NEWS = '{ v1 { hockey { news(limit: 2) { articles { title } } } } }';
const STANDINGS = '{ v1 { hockey { standings { entries { position } } } } }';
const TEAMS = `{ v2(sport: ICE_HOCKEY) { hockey { a: team(id: "${hockeyV2Ids.firstTeam}") { detail { name } } b: team(id: "${hockeyV2Ids.firstTeam + 2}") { detail { name } } } } }`;

const upstreamRequestsOf = (response: GraphQLResponse): number =>
  (response.extensions!['cost'] as { upstreamRequests: number }).upstreamRequests;
const countOf = (text: string, needle: string): number => text.split(needle).length - 1;

/**
 * Runs the build's gateway, expected to refuse to start: its exit code and
 * everything it wrote. One that starts instead (it answers /healthz) is
 * stopped, and the result says so.
 */
async function startFailure(env: Record<string, string>): Promise<{ code: number | null | 'started'; output: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  reapOnExit(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve();
    }),
  );
  while (exitCode === undefined) {
    const answered = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) {
      child.kill('SIGKILL');
      await exited;
      return { code: 'started', output };
    }
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 100))]);
  }
  return { code: exitCode, output };
}

/** Resolves once the gateway has written `text`; fails after `boundMs` with what it wrote. */
async function outputContains(gateway: GatewayProcess, text: string, boundMs = 15_000): Promise<void> {
  const giveUpAt = Date.now() + boundMs;
  while (!gateway.tail().includes(text)) {
    if (Date.now() > giveUpAt)
      throw new Error(`the gateway did not log "${text}" within ${boundMs} ms:\n${gateway.tail()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(noMount !== undefined)('disk faults and crashes (the build, on a tmpfs DATA_DIR)', () => {
  let sandbox: SandboxHandle;
  let disk: Tmpfs;
  let gateway: GatewayProcess | undefined;
  const env = (): Record<string, string> => ({
    SPORTS_API_BASE_URL: sandbox.url,
    SPORTS_API_KEY: API_KEY,
    SPORTS_API_PLAN: 'pro',
    LOG_LEVEL: 'warn',
  });
  const start = async (): Promise<GatewayProcess> => {
    gateway = await startGatewayProcess(env(), { dataDir: disk.dir });
    return gateway;
  };
  const spent = async (): Promise<number> => (await requestCounts(sandbox.url)).total;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, apiKey: API_KEY, allowance: 7_500 });
  });
  afterAll(() => sandbox.close());
  beforeEach(async () => {
    disk = await mountTmpfs(8 * 1024 * 1024);
    await resetCounts(sandbox.url);
  });
  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
    await disk.unmount();
  });

  describe('at start', () => {
    it('a read-only DATA_DIR: exit 2 with one line naming it and the fix, before the embedded sandbox starts', async () => {
      disk.remount({ ro: true });
      // No SPORTS_API_BASE_URL: the embedded sandbox would start first, and its start line is logged at info.
      const { code, output } = await startFailure({ DATA_DIR: disk.dir, LOG_LEVEL: 'info' });
      expect(code).toBe(2);
      const lines = output.trim().split('\n');
      expect(lines, output).toHaveLength(1);
      expect(lines[0]).toContain(`DATA_DIR ${disk.dir}`);
      expect(lines[0]).toMatch(/not writable \(EROFS\)/);
      expect(lines[0]).toMatch(/write access/);
      expect(output).not.toMatch(/embedded sandbox|\bat \w+ \(/);
    });

    it('a full DATA_DIR: exit 2 with one line naming it and saying it has no space', async () => {
      await disk.fill();
      const { code, output } = await startFailure({ ...env(), DATA_DIR: disk.dir, LOG_LEVEL: 'info' });
      expect(code).toBe(2);
      const lines = output.trim().split('\n');
      expect(lines, output).toHaveLength(1);
      expect(lines[0]).toContain(`DATA_DIR ${disk.dir} has no space left`);
    });
  });

  describe('while running', () => {
    it('DATA_DIR fills up: the gateway keeps answering (memory and upstream), logs the cache file and the ledger once each', async () => {
      await start();
      const first = await gql(gateway!.url, NEWS);
      expect(first.errors).toBeUndefined();
      await cacheFileSettled(gateway!.url, 1);
      await disk.fill();

      // New resources: their cache write and the ledger's writes meet ENOSPC.
      const paid = await spent();
      const full = await gql(gateway!.url, TEAM_AND_NEWS).catch((error: unknown) => {
        throw new Error(`the gateway did not answer (${String(error)}):\n${gateway!.tail()}`);
      });
      expect(full.errors).toBeUndefined();
      expect(upstreamRequestsOf(full)).toBe((await spent()) - paid);
      for (const query of [STANDINGS, TEAMS]) expect((await gql(gateway!.url, query)).errors).toBeUndefined();

      // Still serving from memory: the same operation again costs nothing.
      const before = await spent();
      const again = await gql(gateway!.url, TEAM_AND_NEWS);
      expect(again.data).toEqual(full.data);
      expect(upstreamRequestsOf(again)).toBe(0);
      expect(await spent()).toBe(before);

      expect(gateway!.exit()).toBeUndefined();
      const metrics = await (await fetch(`${gateway!.url}/metrics`)).text();
      expect(metrics, gateway!.tail()).toMatch(/^sports_graph_cache_file_enabled(\{[^}]*\})? 0$/m);
      // The cache file's failure is logged before the answer that met it (its write is awaited); quota.json is
      // rewritten within its persist window (1 s) of the last change, so its line may come a little after.
      await outputContains(gateway!, 'could not write the allowance ledger');
      const log = gateway!.tail();
      expect(countOf(log, 'could not write to the upstream cache file'), log).toBe(1);
      expect(countOf(log, 'could not write the allowance ledger'), log).toBe(1);
    });

    it('a zeroed page in the cache file: no field fails, the file is turned off (logged once) and set aside at the next start', async () => {
      await start();
      const answer = await gql(gateway!.url, TEAM_AND_NEWS);
      expect(answer.errors).toBeUndefined();
      const paid = await spent();
      await gateway!.stop();
      const zeroed = await zeroEntryPages(join(disk.dir, CACHE_STORE_FILE));
      expect(zeroed).toBeGreaterThan(0);

      await start();
      for (let i = 0; i < 3; i += 1) {
        const again = await gql(gateway!.url, TEAM_AND_NEWS);
        expect(again.errors).toBeUndefined();
        expect(again.data).toEqual(answer.data);
      }
      // Fetched again once (the file could not give them), then answered from memory.
      expect(await spent()).toBeLessThanOrEqual(2 * paid);
      expect((await gql(gateway!.url, STANDINGS)).errors).toBeUndefined();
      const log = gateway!.tail();
      expect(countOf(log, 'the upstream cache file is damaged'), log).toBe(1);
      expect(log).not.toContain('MDB_BAD_TXN');
      await gateway!.stop();

      await start();
      expect(gateway!.tail()).toContain('the upstream cache file cannot be used: moved aside');
      expect(gateway!.tail()).toContain('damaged while the gateway ran');
      expect((await readdir(disk.dir)).filter((name) => name.startsWith(`${CACHE_STORE_FILE}.unusable-`))).toHaveLength(
        1,
      );
      expect((await gql(gateway!.url, NEWS)).errors).toBeUndefined();
    });
  });

  it('kill -9 right after an answer: after the restart the same operation spends 0 requests', async () => {
    await start();
    const answer = await gql(gateway!.url, TEAM_AND_NEWS);
    expect(answer.errors).toBeUndefined();
    const paid = await spent();
    expect(paid).toBeGreaterThanOrEqual(3);
    // At once: no waiting for a batch to commit.
    await gateway!.kill();

    await start();
    const again = await gql(gateway!.url, TEAM_AND_NEWS);
    expect(again.data).toEqual(answer.data);
    expect(upstreamRequestsOf(again)).toBe(0);
    expect(await spent()).toBe(paid);
  });
});

describe('quota.json without its clients part', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'quota-clients-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('is refused at start like any malformed state file (exit 2, naming it), not read as every budget in full', async () => {
    const file = join(dataDir, 'quota.json');
    await writeFile(
      file,
      JSON.stringify({ version: 2, seq: 4, allowance: { limit: 7500, used: 10, resetsAt: Date.now() + 3_600_000 } }),
    );
    const { code, output } = await startFailure({
      DATA_DIR: dataDir,
      GATEWAY_CLIENT_KEYS: 'alice:alice-key-0001:30',
      LOG_LEVEL: 'warn',
    });
    expect(code).toBe(2);
    expect(output).toContain(file);
    expect(output).toMatch(/"clients"/);
    expect(await readFile(file, 'utf8')).toContain('"seq":4');
  });
});
