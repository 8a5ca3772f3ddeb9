/**
 * The single-node state of a gateway (or of the image importer): the
 * DATA_DIR lock, then the allowance ledger and the client budgets on one
 * state document, `DATA_DIR/quota.json`. One place opens them, so the
 * rules of issue 12 hold for every process that spends the allowance:
 * one process per directory, files validated before they are believed,
 * leftovers of a crash removed, and nothing written that was not checked.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { ClientKey } from '../../access/client-keys.js';
import { LocalBudgets, CLIENTS_SECTION } from './local-budgets.js';
import type { Plan } from '../../upstream/assumptions.js';
import { LEDGER_REMEDY, legacyAllowance, LocalLedger } from './local-ledger.js';
import { lockDataDir, type DataDirLock } from '../data-dir-lock.js';
import { readJsonState, removeLeftoverTemporaries } from '../state-file.js';
import { StateDocument } from '../state-document.js';

export const STATE_FILE = 'quota.json';
/** Version 1 kept client spending in a file of its own; it is folded into quota.json once. */
const LEGACY_BUDGETS_FILE = 'client-budgets.json';

export interface LocalStateOptions {
  dataDir: string;
  plan: Plan;
  clientKeys: readonly ClientKey[];
  logger: Logger;
  /** Who holds the lock, for the message a second process prints. */
  purpose: string;
  /** @default Date.now */
  now?: () => number;
}

export interface LocalState {
  readonly lock: DataDirLock;
  readonly ledger: LocalLedger;
  readonly budgets: LocalBudgets;
  /** Writes what is pending and releases the lock. */
  close(): Promise<void>;
}

/**
 * @throws DataDirInUseError when another process holds DATA_DIR.
 * @throws StateFileError when a state file cannot be trusted (the message names it and says what to do).
 */
export async function openLocalState(options: LocalStateOptions): Promise<LocalState> {
  const { dataDir, logger } = options;
  const lock = lockDataDir(dataDir, options.purpose);
  try {
    const removed = await removeLeftoverTemporaries(dataDir);
    if (removed.length > 0) logger.warn({ files: removed }, 'removed temporary state files left by a crashed process');
    const state = await StateDocument.at(dataDir, STATE_FILE, {
      remedy: LEDGER_REMEDY,
      legacy: legacyAllowance,
      onPersistError: (error) =>
        logger.error(
          { err: error, file: join(dataDir, STATE_FILE) },
          'could not write the allowance ledger: counting goes on in memory, a crash now would forget it (logged once until writes succeed again)',
        ),
      onPersistRecovered: () =>
        logger.warn({ file: join(dataDir, STATE_FILE) }, 'the allowance ledger is written again'),
    });
    // Every process that writes quota.json (gateway, importer) writes both sections: one without its budgets was not written whole.
    if (state.format === 'current' && state.loaded(CLIENTS_SECTION) === undefined) {
      throw state.invalid(
        'has no "clients" section (the client budgets spent today), so every budget would start in full',
      );
    }
    const legacyBudgetsFile = join(dataDir, LEGACY_BUDGETS_FILE);
    const legacyBudgets =
      state.loaded(CLIENTS_SECTION) === undefined ? await readJsonState(legacyBudgetsFile, LEDGER_REMEDY) : undefined;
    const now = options.now === undefined ? {} : { now: options.now };
    const ledger = new LocalLedger({ plan: options.plan, state, ...now });
    const budgets = new LocalBudgets({
      keys: options.clientKeys,
      state,
      ...now,
      ...(legacyBudgets === undefined ? {} : { legacy: legacyBudgets }),
    });
    if (legacyBudgets !== undefined) {
      await state.flush();
      await rm(legacyBudgetsFile, { force: true });
    }
    return {
      lock,
      ledger,
      budgets,
      close: async () => {
        try {
          await state.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}
