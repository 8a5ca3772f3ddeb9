/**
 * Gateway client keys: who may spend the upstream allowance through this
 * gateway. Configured in `GATEWAY_CLIENT_KEYS` (`name:key,name:key`, or
 * `name:key:budget` for a daily budget of counted upstream requests) or a
 * JSON file named by `GATEWAY_CLIENT_KEYS_FILE` (`[{"name","key","budget"?}]`);
 * off when neither is set. Keys are compared in constant time and never logged.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { planAllowances, type Plan } from '../upstream/assumptions.js';

export interface ClientKey {
  readonly name: string;
  readonly key: string;
  /** Counted upstream requests this client may spend per UTC day (client-budgets.ts); none = no own budget. */
  readonly budget?: number;
}

export type KeyCheck = { ok: true; client: string } | { ok: false; status: 401 | 403 };

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

export class ClientKeys {
  private readonly entries: ReadonlyArray<{ name: string; digest: Buffer }>;

  constructor(keys: readonly ClientKey[]) {
    this.entries = keys.map((k) => ({ name: k.name, digest: digest(k.key) }));
  }

  get enabled(): boolean {
    return this.entries.length > 0;
  }

  /** 401 when no key was presented, 403 when it is not one of ours. */
  check(presented: string | undefined): KeyCheck {
    if (presented === undefined || presented === '') return { ok: false, status: 401 };
    const candidate = digest(presented);
    let match: string | undefined;
    // Compare against every entry so the time taken does not say which matched.
    for (const entry of this.entries) {
      if (timingSafeEqual(entry.digest, candidate)) match = entry.name;
    }
    return match === undefined ? { ok: false, status: 403 } : { ok: true, client: match };
  }
}

/** Reads the configured keys; throws with a message naming the variable. */
export function parseClientKeys(env: Readonly<Record<string, string | undefined>>): ClientKey[] {
  {
    const keys: ClientKey[] = [];
    for (const pair of (env['GATEWAY_CLIENT_KEYS'] ?? '').split(',')) {
      const at = pair.indexOf(':');
      if (pair.trim() === '') continue;
      if (at <= 0 || at === pair.length - 1)
        throw new Error('GATEWAY_CLIENT_KEYS entries must be name:key or name:key:budget');
      const rest = pair.slice(at + 1).trim();
      // A trailing `:digits` is the budget; a key itself may hold other colons.
      const budgeted = /^(.+):(\d+)$/.exec(rest);
      const name = pair.slice(0, at).trim();
      keys.push(
        budgeted === null ? { name, key: rest } : { name, key: budgeted[1] ?? '', budget: Number(budgeted[2]) },
      );
    }
    const file = env['GATEWAY_CLIENT_KEYS_FILE'];
    if (file !== undefined && file !== '') {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (!Array.isArray(parsed)) throw new Error('GATEWAY_CLIENT_KEYS_FILE must hold a JSON array of {name, key}');
      for (const entry of parsed as Array<Partial<ClientKey>>) {
        if (typeof entry.name !== 'string' || typeof entry.key !== 'string' || entry.key === '') {
          throw new Error('GATEWAY_CLIENT_KEYS_FILE entries need a string name and a non-empty key');
        }
        if (entry.budget !== undefined && !(Number.isInteger(entry.budget) && entry.budget >= 0)) {
          throw new Error('GATEWAY_CLIENT_KEYS_FILE budget must be a whole number of requests >= 0');
        }
        keys.push(
          entry.budget === undefined
            ? { name: entry.name, key: entry.key }
            : { name: entry.name, key: entry.key, budget: entry.budget },
        );
      }
    }
    return keys;
  }
}

/** `Authorization: Bearer <key>` or `x-client-key: <key>`. */
export function presentedKey(header: (name: string) => string | null | undefined): string | undefined {
  const authorization = header('authorization');
  if (authorization != null && /^Bearer\s+/i.test(authorization))
    return authorization.replace(/^Bearer\s+/i, '').trim();
  return header('x-client-key') ?? undefined;
}

/** The configured keys; with none, a gateway on a real upstream warns that anyone who reaches it can spend. */
export function clientKeysFor(
  config: { readonly access: { readonly clientKeys: readonly ClientKey[] }; readonly baseUrl?: string | undefined },
  logger: Pick<Logger, 'warn'>,
): ClientKeys {
  const keys = new ClientKeys(config.access.clientKeys);
  if (!keys.enabled && config.baseUrl !== undefined) {
    logger.warn(
      'no gateway client keys are configured: anyone who reaches this gateway can spend the upstream allowance (set GATEWAY_CLIENT_KEYS)',
    );
  }
  return keys;
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
