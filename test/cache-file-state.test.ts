/**
 * Issue 18, item 3: the upstream cache file under the state-file rules of
 * issue 12. A file the gateway cannot use (random bytes, another program's
 * LMDB databases, a file a previous start died reading) is moved aside with
 * a warning naming it, and the gateway starts with an empty cache: never a
 * crash, never a crash loop, never a silent reset (the file is kept for
 * the operator). The gateway runs in a child process (what `npm run dev`
 * runs), so that a crash would show as an exit, not as a test failure.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../sandbox/server.js';
import { CACHE_STORE_FILE } from '../src/state/cache-store-file.js';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { cacheFileSettled } from './support/cache-file.js';
import { gatewayStartFailure, startGatewayProcess, type GatewayProcess } from './support/gateway-process.js';

const API_KEY = 'cache-file-state-key';
const NEWS = '{ v1 { hockey { news(limit: 2) { articles { title } } } } }';

describe('the upstream cache file under the state-file rules', () => {
  let sandbox: SandboxHandle;
  let dataDir: string;
  let gateway: GatewayProcess | undefined;
  const env = (): Record<string, string> => ({
    SPORTS_API_BASE_URL: sandbox.url,
    SPORTS_API_KEY: API_KEY,
    SPORTS_API_PLAN: 'pro',
  });
  const file = (): string => join(dataDir, CACHE_STORE_FILE);
  const setAside = async (): Promise<string[]> =>
    (await readdir(dataDir)).filter((name) => name.startsWith(`${CACHE_STORE_FILE}.unusable-`));

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, apiKey: API_KEY, allowance: 7_500 });
  });
  afterAll(() => sandbox.close());
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cache-file-state-'));
    await resetCounts(sandbox.url);
  });
  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Starts on the bad file, checks the warning and the empty cache, and that the next start keeps the new file. */
  const startsEmptyWithWarning = async (problem: string, kept?: Buffer): Promise<void> => {
    gateway = await startGatewayProcess(env(), { dataDir });
    expect(gateway.tail()).toContain('the upstream cache file cannot be used: moved aside');
    expect(gateway.tail()).toContain(file());
    expect(gateway.tail()).toContain(problem);
    const aside = await setAside();
    expect(aside).toHaveLength(1);
    if (kept !== undefined) expect(await readFile(join(dataDir, aside[0]!))).toEqual(kept);

    // An empty cache that works: the operation pays once, and its answer is kept in the new file.
    const answer = await gql(gateway.url, NEWS);
    expect(answer.errors).toBeUndefined();
    expect((await requestCounts(sandbox.url)).total).toBe(1);
    await cacheFileSettled(gateway.url, 1);
    await gateway.kill();
    gateway = await startGatewayProcess(env(), { dataDir });
    expect(gateway.tail()).not.toContain('moved aside');
    expect((await gql(gateway.url, NEWS)).data).toEqual(answer.data);
    expect((await requestCounts(sandbox.url)).total).toBe(1);
    expect(await setAside()).toHaveLength(1);
  };

  it('random bytes (LMDB itself would die on them) are moved aside, not opened', async () => {
    const garbage = randomBytes(3 * 4096);
    await writeFile(file(), garbage);
    await startsEmptyWithWarning('is not an LMDB file', garbage);
  }, 90_000);

  it('an empty or truncated file is moved aside', async () => {
    await writeFile(file(), 'half a page');
    await startsEmptyWithWarning('is too short for an LMDB file');
  }, 90_000);

  it("another program's LMDB file is moved aside, and nothing is written into it", async () => {
    const foreign = open<string, string>({ path: file(), encoding: 'string' });
    await foreign.put('their-key', 'their data');
    await foreign.close();
    const before = await readFile(file());
    await startsEmptyWithWarning('holds databases this gateway does not write', before);
    const aside = await setAside();
    const reopened = open<string, string>({ path: join(dataDir, aside[0]!), encoding: 'string', readOnly: true });
    expect(reopened.get('their-key')).toBe('their data');
    await reopened.close();
  }, 90_000);

  it('a path that cannot be read as a file stops start-up with exit code 2 and a message naming it, not a stack', async () => {
    await mkdir(file());
    const refused = await gatewayStartFailure(env(), dataDir);
    expect(refused.code).toBe(2);
    expect(refused.output).toContain(`${file()}: cannot be read (EISDIR)`);
    expect(refused.output).not.toMatch(/\n\s+at /);
  }, 90_000);

  it('a file a previous start died reading (its opening marker left behind) is moved aside: one crash, never a loop', async () => {
    gateway = await startGatewayProcess(env(), { dataDir });
    await gql(gateway.url, NEWS);
    await cacheFileSettled(gateway.url, 1);
    await gateway.kill();
    // What a process that died inside LMDB's open or the index read leaves behind.
    await writeFile(`${file()}.opening`, '12345');
    await resetCounts(sandbox.url);
    await startsEmptyWithWarning('a previous start ended while reading it');
  }, 90_000);
});
