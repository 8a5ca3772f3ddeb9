/**
 * Setup file (vitest.config.ts `setupFiles`): after every test file, each
 * gateway and importer the file started in this process must have charged
 * every ledger unit it kept to someone, exactly: the reservations its
 * ledger kept equal the units charged to clients (budgets, clients without
 * one, no client) plus the plan-only spend (polls, the importer)
 * (src/spend/charge-audit.ts, src/spend/charge-tally.ts). A difference
 * fails the file, naming what was off.
 */
import { afterAll, vi } from 'vitest';
import { CHARGE_AUDIT_ENV, chargeAuditEntries, type ChargeAuditEntry } from '../../src/spend/charge-audit.js';

process.env[CHARGE_AUDIT_ENV] = '1';

const describeEntry = (entry: ChargeAuditEntry): string =>
  `${entry.label}: ledger kept ${entry.reserved()} unit(s), charged ${entry.tally.total} (${JSON.stringify(entry.tally.charged)})`;

afterAll(async () => {
  const entries = [...chargeAuditEntries()];
  chargeAuditEntries().clear();
  const off = (): ChargeAuditEntry[] => entries.filter((entry) => entry.reserved() !== entry.tally.total);
  // A gateway a test left running may be between a charge and its reservation (one promise turn): give it that turn, no more.
  if (off().length > 0)
    await vi
      .waitFor(() => off().length === 0 || Promise.reject(new Error('off')), { timeout: 1_000, interval: 20 })
      .catch(() => undefined);
  const wrong = off();
  if (wrong.length > 0)
    throw new Error(
      `counted upstream requests not charged exactly to a payer:\n${wrong.map(describeEntry).join('\n')}`,
    );
});
