/**
 * The suite's charge check (test/support/charge-audit.ts): every unit the
 * ledger keeps for a counted request is charged to someone, exactly. When
 * SPORTS_GRAPH_CHARGE_AUDIT is set (the setup file sets it), each gateway
 * and importer started in this process counts, on the ledger it hands to
 * its upstream client, the reservations it took and did not give back, and
 * registers that count beside its charge tally (src/spend/charge-tally.ts).
 * The setup file's last hook compares the two for every one of them.
 *
 * The ledger's count is taken at the ledger's door, independently of the
 * payers: a counted request sent with no payer on its meter shows as a
 * difference.
 */
import type { Ledger, Reservation } from './ledger.js';
import type { ChargeTally } from './charge-tally.js';

export const CHARGE_AUDIT_ENV = 'SPORTS_GRAPH_CHARGE_AUDIT';

export interface ChargeAuditEntry {
  /** Who kept the ledger ("gateway", "importer"), for the report. */
  readonly label: string;
  /** Reservations taken and not given back. */
  readonly reserved: () => number;
  readonly tally: ChargeTally;
}

const REGISTRY = Symbol.for('sports-graph.charge-audit');

type Registry = Set<ChargeAuditEntry>;

/** The entries of this process (one module instance or several: the registry is the process's). */
export function chargeAuditEntries(): Registry {
  const holder = globalThis as { [REGISTRY]?: Registry };
  holder[REGISTRY] ??= new Set();
  return holder[REGISTRY];
}

/**
 * `ledger`, counted for the charge check when the audit is on (registered
 * under `label` with `tally`); `ledger` itself otherwise.
 */
export function auditedLedger(
  ledger: Ledger,
  tally: ChargeTally,
  label: string,
  env: NodeJS.ProcessEnv = process.env,
): Ledger {
  const on = env[CHARGE_AUDIT_ENV];
  if (on === undefined || on === '') return ledger;
  let reserved = 0;
  chargeAuditEntries().add({ label, reserved: () => reserved, tally });
  return {
    get plan() {
      return ledger.plan;
    },
    snapshot: () => ledger.snapshot(),
    available: () => ledger.available(),
    reserve: (context): Reservation => {
      const reservation = ledger.reserve(context);
      reserved += 1;
      let given = false;
      const giveBack = (): void => {
        if (given) return;
        given = true;
        reserved -= 1;
      };
      // A unit the ledger could not hold durably is given back by the ledger itself.
      reservation.durable.catch(giveBack);
      return {
        durable: reservation.durable,
        commit: (headers) => reservation.commit(headers),
        release: () => {
          giveBack();
          reservation.release();
        },
      };
    },
    markExhausted: (seconds) => ledger.markExhausted(seconds),
    onChange: (listener) => ledger.onChange(listener),
    flush: () => ledger.flush(),
  };
}
