/**
 * Issue 35 item 4: the ledger's writes meeting a full disk (a tmpfs of its
 * own, filled to the last byte: the kernel's real ENOSPC). What the README
 * promises: the failure is logged (once, not per counted request),
 * counting goes on in memory (the allowance is still refused past its
 * end), and once there is room again the count reaches the file.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { GatewayError } from '../upstream/errors.js';
import { mountTmpfs, tmpfsUnavailable, type Tmpfs } from '../../test/support/tmpfs.js';
import { openLocalState, type LocalState } from './local/local-state.js';

const route = { version: 'v1', route: '/v1/hockey/standings' };
const noMount = tmpfsUnavailable();
if (noMount !== undefined) process.stderr.write(`full-disk-ledger.test.ts: skipped, ${noMount}\n`);

describe.skipIf(noMount !== undefined)('the allowance ledger on a full disk', () => {
  let disk: Tmpfs;
  let lines: string[];
  let state: LocalState | undefined;
  const open = (): Promise<LocalState> =>
    openLocalState({
      dataDir: disk.dir,
      plan: 'free',
      clientKeys: [],
      logger: pino({ level: 'info' }, { write: (line: string) => lines.push(line) }),
      purpose: 'test',
    });
  const logged = (message: string): number => lines.filter((line) => line.includes(message)).length;

  beforeEach(async () => {
    disk = await mountTmpfs(1024 * 1024);
    lines = [];
  });
  afterEach(async () => {
    await state?.close();
    state = undefined;
    await disk.unmount();
  });

  it('keeps counting in memory, refuses past the allowance, logs once, and writes the count once there is room', async () => {
    state = await open();
    const spend = async (): Promise<void> => {
      const reservation = state!.ledger.reserve(route);
      await reservation.durable;
      reservation.commit(undefined);
    };
    for (let i = 0; i < 3; i += 1) await spend();
    await state.ledger.flush();
    await disk.fill();

    for (let i = 3; i < 100; i += 1) await spend();
    // The flush after a failed write resolves: waiters go on, the error is the log's.
    await state.ledger.flush();
    expect(state.ledger.snapshot()).toMatchObject({ used: 100, remaining: 0 });
    expect(() => state!.ledger.reserve(route)).toThrow(GatewayError);
    expect(logged('could not write the allowance ledger'), lines.join('')).toBe(1);
    expect(lines.join('')).toContain('ENOSPC');

    await disk.unfill();
    await state.close();
    expect(logged('the allowance ledger is written again')).toBe(1);
    state = await open();
    expect(state.ledger.snapshot().used).toBe(100);
  });
});
