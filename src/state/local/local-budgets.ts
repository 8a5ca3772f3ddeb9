/**
 * The single node's client budgets (src/spend/client-budgets.ts has the
 * contract and the rules).
 *
 * They live in the `clients` section of `DATA_DIR/quota.json`, beside the
 * allowance they are carved from (src/state/state-document.ts), so that the two
 * can never be lost or restored apart. What is written is spent *plus held*:
 * a hold reaches the disk with the first counted request of its operation
 * (that request waits for a durable write of the whole document), so after
 * a crash an operation that was running counts its whole estimate as spent,
 * never less than it really spent.
 */
import { nextResetAt } from '../../upstream/assumptions.js';
import type { StateDocument } from '../state-document.js';
import type { ClientKey } from '../../access/client-keys.js';
import type { BudgetHold, Budgets } from '../../spend/client-budgets.js';

/** The `clients` section of the state document. */
export interface PersistedBudgets {
  resetsAt: number;
  /** Spent today, plus what running operations held when it was written. */
  spent: Record<string, number>;
}

export const CLIENTS_SECTION = 'clients';

export interface LocalBudgetsOptions {
  keys: readonly ClientKey[];
  state: StateDocument;
  /** @default Date.now */
  now?: () => number;
  /** `clients` from a version-1 `client-budgets.json`, when the document has none yet. */
  legacy?: unknown;
}

/** The single-node budgets. */
export class LocalBudgets implements Budgets {
  private readonly budgets: ReadonlyMap<string, number>;
  private spent = new Map<string, number>();
  private readonly held = new Map<string, number>();
  private resetsAt: number;
  private readonly state: StateDocument;
  private readonly now: () => number;

  /** @throws StateFileError when the saved spending is not one the gateway can trust. */
  constructor(options: LocalBudgetsOptions) {
    this.budgets = new Map(options.keys.filter((k) => k.budget !== undefined).map((k) => [k.name, k.budget ?? 0]));
    this.state = options.state;
    this.now = options.now ?? Date.now;
    this.resetsAt = nextResetAt(this.now());
    const saved = parseBudgets(this.state, this.state.loaded(CLIENTS_SECTION) ?? options.legacy, this.now());
    if (saved !== undefined && saved.resetsAt > this.now()) {
      this.resetsAt = saved.resetsAt;
      for (const [client, spent] of Object.entries(saved.spent)) {
        const budget = this.budgets.get(client);
        // A client whose budget was removed needs no count; one past its budget has simply spent it.
        if (budget !== undefined && spent > 0) this.spent.set(client, Math.min(spent, budget));
      }
    }
    this.state.register(CLIENTS_SECTION, () => this.persisted());
    if (options.legacy !== undefined) this.state.soon();
  }

  /** True when `client` has a daily budget. */
  has(client: string | undefined): client is string {
    return client !== undefined && this.budgets.has(client);
  }

  /** Units left today, holds of running operations deducted; undefined for a client without a budget. */
  remaining(client: string | undefined): number | undefined {
    if (!this.has(client)) return undefined;
    this.rollOver();
    return Math.max(0, (this.budgets.get(client) ?? 0) - (this.spent.get(client) ?? 0) - (this.held.get(client) ?? 0));
  }

  /**
   * Holds `units` of `client`'s budget for an operation about to run;
   * undefined (nothing held) when they are not left.
   */
  hold(client: string, units: number): Promise<BudgetHold | undefined> {
    return Promise.resolve(this.holdNow(client, units));
  }

  /** `hold`, synchronously: the single-node budgets need no round trip. */
  holdNow(client: string, units: number): BudgetHold | undefined {
    const left = this.remaining(client) ?? 0;
    if (units > left) return undefined;
    this.held.set(client, (this.held.get(client) ?? 0) + units);
    if (units > 0) this.state.soon();
    let settled = false;
    return {
      settle: (spent) => {
        if (!settled) {
          settled = true;
          this.held.set(client, Math.max(0, (this.held.get(client) ?? 0) - units));
          if (spent > 0) {
            this.rollOver();
            this.spent.set(client, (this.spent.get(client) ?? 0) + spent);
          }
          if (spent > 0 || units > 0) this.state.soon();
        }
        return this.remaining(client) ?? 0;
      },
    };
  }

  get resetsAtIso(): string {
    this.rollOver();
    return new Date(this.resetsAt).toISOString();
  }

  private rollOver(): void {
    const now = this.now();
    // A reset more than a day ahead comes from a clock that was wrong: it would lock clients out for longer than a day.
    if (this.resetsAt > now + 24 * 60 * 60 * 1000) this.resetsAt = nextResetAt(now);
    if (now < this.resetsAt) return;
    this.spent = new Map();
    this.resetsAt = nextResetAt(now);
    this.state.soon();
  }

  private persisted(): PersistedBudgets {
    const spent: Record<string, number> = {};
    for (const client of new Set([...this.spent.keys(), ...this.held.keys()])) {
      const total = (this.spent.get(client) ?? 0) + (this.held.get(client) ?? 0);
      if (total > 0) spent[client] = total;
    }
    return { resetsAt: this.resetsAt, spent };
  }
}

/**
 * Saved spending, validated: wrong types stop start-up (naming the file);
 * a reset further away than the next daily one is read as the next daily one.
 */
function parseBudgets(state: StateDocument, raw: unknown, now: number): PersistedBudgets | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null) throw state.invalid('"clients" is not an object');
  const { resetsAt, spent } = raw as Record<string, unknown>;
  if (typeof resetsAt !== 'number' || !Number.isSafeInteger(resetsAt) || resetsAt < 0) {
    throw state.invalid(`"clients.resetsAt" must be epoch milliseconds, got ${JSON.stringify(resetsAt)}`);
  }
  if (typeof spent !== 'object' || spent === null || Array.isArray(spent))
    throw state.invalid('"clients.spent" is not an object');
  const checked: Record<string, number> = {};
  for (const [client, value] of Object.entries(spent)) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw state.invalid(
        `"clients.spent.${client}" must be a whole number of at least 0, got ${JSON.stringify(value)}`,
      );
    }
    checked[client] = value;
  }
  return { resetsAt: Math.min(resetsAt, nextResetAt(now)), spent: checked };
}
