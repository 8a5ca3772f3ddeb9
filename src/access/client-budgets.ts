/**
 * Per-client daily budgets of counted upstream requests, carved out of the
 * plan's allowance (a client key may carry one; the sum may not pass the
 * plan's daily allowance).
 *
 * An operation holds its estimate before it runs, so concurrent operations
 * of one client cannot pass the budget together, and is charged what it
 * really spent when it ends. Spending is per UTC day, like the upstream's
 * allowance, and is written to `DATA_DIR/client-budgets.json` after every
 * charge so that a restart keeps it. The file is a few bytes and the write
 * is synchronous: the charge is on disk before the response leaves.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { nextResetAt, planAllowances, type Plan } from '../upstream/assumptions.js';
import type { ClientKey } from './client-keys.js';

export interface BudgetHold {
  /** Charges what the operation spent, frees the rest of the hold; returns the budget left. */
  settle(spent: number): number;
}

interface PersistedBudgets {
  resetsAt: number;
  spent: Record<string, number>;
}

export interface ClientBudgetsOptions {
  keys: readonly ClientKey[];
  file: string;
  /** @default Date.now */
  now?: () => number;
  /** Told when spending could not be written; counting goes on in memory. */
  onPersistError?: (error: unknown) => void;
}

export class ClientBudgets {
  private readonly budgets: ReadonlyMap<string, number>;
  private spent = new Map<string, number>();
  private readonly held = new Map<string, number>();
  private resetsAt: number;
  private readonly file: string;
  private readonly now: () => number;
  private readonly onPersistError: (error: unknown) => void;

  constructor(options: ClientBudgetsOptions) {
    this.budgets = new Map(options.keys.filter((k) => k.budget !== undefined).map((k) => [k.name, k.budget ?? 0]));
    this.file = options.file;
    this.now = options.now ?? Date.now;
    this.onPersistError = options.onPersistError ?? (() => undefined);
    this.resetsAt = nextResetAt(this.now());
    this.restore();
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
  hold(client: string, units: number): BudgetHold | undefined {
    const left = this.remaining(client) ?? 0;
    if (units > left) return undefined;
    this.held.set(client, (this.held.get(client) ?? 0) + units);
    let settled = false;
    return {
      settle: (spent) => {
        if (!settled) {
          settled = true;
          this.held.set(client, Math.max(0, (this.held.get(client) ?? 0) - units));
          if (spent > 0) {
            this.rollOver();
            this.spent.set(client, (this.spent.get(client) ?? 0) + spent);
            this.persist();
          }
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
    if (now < this.resetsAt) return;
    this.spent = new Map();
    this.resetsAt = nextResetAt(now);
    this.persist();
  }

  private restore(): void {
    try {
      const saved = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<PersistedBudgets>;
      if (typeof saved.resetsAt === 'number' && saved.resetsAt > this.now() && typeof saved.spent === 'object' && saved.spent !== null) {
        this.resetsAt = saved.resetsAt;
        for (const [client, spent] of Object.entries(saved.spent)) {
          if (typeof spent === 'number' && spent > 0) this.spent.set(client, spent);
        }
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.onPersistError(error);
    }
  }

  private persist(): void {
    const state: PersistedBudgets = { resetsAt: this.resetsAt, spent: Object.fromEntries(this.spent) };
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(state));
      renameSync(tmp, this.file);
    } catch (error) {
      this.onPersistError(error);
    }
  }
}

/**
 * Budgets are carved out of the plan's allowance: their sum may not pass it.
 * @returns the configuration problem, or undefined.
 */
export function budgetProblem(keys: readonly ClientKey[], plan: Plan): string | undefined {
  const total = keys.reduce((sum, key) => sum + (key.budget ?? 0), 0);
  const allowance = planAllowances[plan];
  if (total <= allowance) return undefined;
  return `client key budgets add up to ${total} requests a day, more than the ${plan} plan's daily allowance of ${allowance} (GATEWAY_CLIENT_KEYS / GATEWAY_CLIENT_KEYS_FILE)`;
}
