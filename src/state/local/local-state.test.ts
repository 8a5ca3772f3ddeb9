/**
 * State files are never trusted blindly (issue 12): each finding of the
 * hardening review is one test here, against real files in a temporary
 * DATA_DIR.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nextResetAt } from '../../upstream/assumptions.js';
import { DataDirInUseError } from '../data-dir-lock.js';
import { openLocalState, type LocalState } from './local-state.js';
import { StateFileError } from '../state-file.js';
import { StateDocument } from '../state-document.js';

const logger = pino({ level: 'silent' });
const route = { version: 'v1', route: '/v1/hockey/standings' };
const DAY = 24 * 3600 * 1000;

describe('local state files', () => {
  let dataDir: string;
  const opened: LocalState[] = [];
  const open = async (
    options: { plan?: 'free' | 'pro'; budget?: number; now?: () => number } = {},
  ): Promise<LocalState> => {
    const state = await openLocalState({
      dataDir,
      plan: options.plan ?? 'pro',
      clientKeys:
        options.budget === undefined ? [] : [{ name: 'alice', key: 'alice-key-0001', budget: options.budget }],
      logger,
      purpose: 'test',
      ...(options.now === undefined ? {} : { now: options.now }),
    });
    opened.push(state);
    return state;
  };
  const reopen = async (state: LocalState, options: Parameters<typeof open>[0] = {}): Promise<LocalState> => {
    await state.close();
    return open(options);
  };
  const quotaFile = (): string => join(dataDir, 'quota.json');
  const saved = async (): Promise<Record<string, unknown>> =>
    JSON.parse(await readFile(quotaFile(), 'utf8')) as Record<string, unknown>;
  /** What a process restarted after a crash right now would read (the newest copy: file or write-ahead). */
  const afterCrash = async (section: string): Promise<unknown> =>
    (await StateDocument.open({ file: quotaFile(), remedy: '' })).loaded(section);
  const refusal = async (): Promise<StateFileError> => {
    const error = await open().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StateFileError);
    return error as StateFileError;
  };

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'local-state-'));
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((state) => state.close()));
    await rm(dataDir, { recursive: true, force: true });
  });

  for (const [name, content] of [
    ['empty', ''],
    ['truncated', '{"version":2,"allowance":{"limit":100,"us'],
    ['not JSON', 'used=12\n'],
    ['a JSON array', '[1,2]'],
  ] as const) {
    it(`a quota.json that is ${name} stops start-up with a message naming the file and what to do`, async () => {
      await writeFile(quotaFile(), content);
      const error = await refusal();
      expect(error.message).toContain(quotaFile());
      expect(error.message).toMatch(/move it .*away/);
      expect(error.code).toBe('STATE_FILE_INVALID');
    });
  }

  for (const [name, used] of [
    ['negative', -5000],
    ['a string', '12'],
    ['a fraction', 1.5],
    ['null', null],
  ] as const) {
    it(`a ${name} "used" is refused, not believed and not read as 0`, async () => {
      await writeFile(quotaFile(), JSON.stringify({ limit: 7500, used, resetsAt: nextResetAt(Date.now()) }));
      expect((await refusal()).message).toMatch(/allowance\.used/);
    });
  }

  it('a "used" past GraphQL\'s Int reads as all spent, and every figure stays an Int', async () => {
    await writeFile(quotaFile(), JSON.stringify({ limit: 7500, used: 1e12, resetsAt: nextResetAt(Date.now()) }));
    const { ledger } = await open();
    expect(ledger.snapshot()).toMatchObject({ limit: 7500, used: 7500, remaining: 0 });
    expect(ledger.available()).toBe(0);
  });

  it("rate-limit headers past GraphQL's Int are not believed", async () => {
    const { ledger } = await open();
    const headers: Record<string, string> = {
      'x-ratelimit-requests-limit': '1e12',
      'x-ratelimit-requests-remaining': '99999999999',
      'x-ratelimit-requests-reset': '60',
    };
    ledger.reserve(route).commit((header) => headers[header]);
    const snapshot = ledger.snapshot();
    expect(snapshot.limit).toBe(7500);
    expect(Number.isInteger(snapshot.used) && snapshot.used <= 2_147_483_647).toBe(true);
  });

  it('a reset a year ahead (a clock that was wrong) is read as the next daily reset', async () => {
    const now = Date.now();
    await writeFile(
      quotaFile(),
      JSON.stringify({
        version: 2,
        allowance: { limit: 7500, used: 7500, resetsAt: now + 365 * DAY },
        clients: { resetsAt: now, spent: {} },
      }),
    );
    const { ledger } = await open();
    expect(ledger.snapshot().resetsAt).toBe(nextResetAt(now));
  });

  it('a clock that jumps back at run time cannot lock the gateway out past a day', async () => {
    let now = Date.UTC(2027, 5, 1, 12);
    const state = await open({ now: () => now });
    state.ledger.markExhausted(undefined);
    now -= 365 * DAY;
    expect(state.ledger.snapshot().resetsAt - now).toBeLessThanOrEqual(DAY);
  });

  it('reads a version-1 quota.json and client-budgets.json, folds them into one file and removes the old one', async () => {
    const resetsAt = nextResetAt(Date.now());
    await writeFile(quotaFile(), JSON.stringify({ limit: 7500, used: 40, resetsAt }));
    await writeFile(join(dataDir, 'client-budgets.json'), JSON.stringify({ resetsAt, spent: { alice: 7 } }));
    const { ledger, budgets } = await open({ budget: 30 });
    expect(ledger.snapshot().used).toBe(40);
    expect(budgets.remaining('alice')).toBe(23);
    expect(await readdir(dataDir)).not.toContain('client-budgets.json');
    expect(await saved()).toMatchObject({ version: 2, allowance: { used: 40 }, clients: { spent: { alice: 7 } } });
  });

  it('a truncated version-1 client-budgets.json stops start-up instead of giving every client its full budget again', async () => {
    await writeFile(join(dataDir, 'client-budgets.json'), '{"resetsAt":17');
    const error = await open({ budget: 30 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StateFileError);
    expect((error as Error).message).toContain('client-budgets.json');
  });

  it('client spending lives in the same file as the allowance, so one cannot be lost without the other', async () => {
    let state = await open({ budget: 30 });
    const hold = state.budgets.holdNow('alice', 5);
    hold?.settle(4);
    state = await reopen(state, { budget: 30 });
    expect(state.budgets.remaining('alice')).toBe(26);
    expect(await readdir(dataDir)).not.toContain('client-budgets.json');
  });

  it("a running operation's hold reaches the disk with its first counted request: a crash counts it as spent", async () => {
    const state = await open({ budget: 30 });
    state.budgets.holdNow('alice', 6);
    await state.ledger.reserve(route).durable;
    expect(await afterCrash('allowance')).toMatchObject({ used: 1 });
    expect(await afterCrash('clients')).toMatchObject({ spent: { alice: 6 } });
  });

  it('after a crash the write-ahead copy, newer than quota.json, is what a restart reads', async () => {
    const state = await open();
    for (let i = 0; i < 3; i += 1) await state.ledger.reserve(route).durable;
    // No clean close: quota.json may lag (it is written within the persist window); the write-ahead copy may not.
    const restarted = await StateDocument.open({ file: quotaFile(), remedy: '' });
    expect(restarted.source).toBe(`${quotaFile()}.wal`);
    expect(restarted.loaded('allowance')).toMatchObject({ used: 3 });
  });

  it("a clean close leaves quota.json alone as the truth: an operator's edit of a stopped gateway's file holds", async () => {
    const state = await open();
    await state.ledger.reserve(route).durable;
    await state.close();
    expect(await readdir(dataDir)).not.toContain('quota.json.wal');
    const written = await saved();
    await writeFile(
      quotaFile(),
      JSON.stringify({ ...written, allowance: { ...(written['allowance'] as object), used: 40 } }),
    );
    expect((await open()).ledger.snapshot().used).toBe(40);
  });

  it('a damaged write-ahead copy stops start-up naming it', async () => {
    await writeFile(`${quotaFile()}.wal`, '{"version":2,"seq":9,"allow');
    expect((await refusal()).message).toContain(`${quotaFile()}.wal: is not valid JSON`);
  });

  it('wrong types in the clients section stop start-up', async () => {
    await writeFile(
      quotaFile(),
      JSON.stringify({ version: 2, clients: { resetsAt: nextResetAt(Date.now()), spent: { alice: '3' } } }),
    );
    const error = await open({ budget: 30 }).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/clients\.spent\.alice/);
  });

  it('removes temporary files a crashed process left, and leaves none of its own', async () => {
    await writeFile(join(dataDir, 'quota.json.4242.tmp'), '{"half":');
    await writeFile(join(dataDir, 'quota.json.4243.abcd1234.tmp'), '');
    const { ledger } = await open();
    for (let i = 0; i < 20; i += 1) await ledger.reserve(route).durable;
    await ledger.flush();
    expect((await readdir(dataDir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('a second process on the same DATA_DIR is refused while the first holds it, and may start once it closed', async () => {
    const first = await open();
    const error = await open().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DataDirInUseError);
    expect((error as Error).message).toContain(dataDir);
    expect((error as Error).message).toMatch(/pid \d+/);
    await first.close();
    await expect(open()).resolves.toBeDefined();
  });
});
