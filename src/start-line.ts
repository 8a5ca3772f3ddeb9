/**
 * The gateway's first log line: the upstream, the plan (and whether it was
 * chosen or defaulted), and where the allowance ledger lives. Someone whose
 * operations answer QUOTA_EXHAUSTED reads here which file holds the count.
 */
import { resolve } from 'node:path';
import type { Config } from './config.js';
import { STATE_FILE } from './state/local/local-state.js';
import { planAllowances } from './upstream/assumptions.js';

export interface StartLine {
  readonly fields: {
    upstream: string;
    sandbox: boolean;
    plan: string;
    allowance: number;
    planFrom: string;
    ledger: string;
  };
  readonly message: string;
}

/** `sandboxUrl`: the embedded sandbox's address, when it is the upstream. */
export function startLine(config: Config, sandboxUrl: string | undefined): StartLine {
  // The origin only: a base URL may carry credentials in its user part.
  const upstream = sandboxUrl ?? new URL(config.baseUrl ?? 'http://invalid').origin;
  const allowance = planAllowances[config.plan];
  const ledger =
    config.cluster.redisUrl === undefined
      ? resolve(config.dataDir, STATE_FILE)
      : 'Redis (REDIS_URL), shared by the cluster';
  const why =
    config.planFrom === 'default'
      ? sandboxUrl === undefined
        ? 'SPORTS_API_PLAN unset'
        : 'the largest: SPORTS_API_PLAN unset on the sandbox'
      : 'SPORTS_API_PLAN';
  const where =
    sandboxUrl === undefined
      ? `upstream ${upstream}`
      : `embedded sandbox upstream at ${upstream} (no SPORTS_API_BASE_URL)`;
  return {
    fields: {
      upstream,
      sandbox: sandboxUrl !== undefined,
      plan: config.plan,
      allowance,
      planFrom: config.planFrom,
      ledger,
    },
    message: `${where}; plan ${config.plan}, ${allowance.toLocaleString('en-US')} counted requests a day (${why}); allowance ledger in ${ledger}`,
  };
}
