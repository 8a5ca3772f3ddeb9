/**
 * The matchday bench (bench/scenarios/matchday.ts), shortened to its first
 * hour: the same scripted day on two fresh stacks, one with every route
 * class pinned at its TTL (no answer follows its match's state) and one with
 * the freshness policy. Time is the gateway's cache clock and the sandbox's
 * clock, moved together by the scenario; the counts are the sandbox's, exact.
 */
import { describe, expect, it } from 'vitest';
import { defaultCacheTtls, defaultMatchStateTtls } from '../src/upstream/cache-ttls.js';
import {
  classTtlEnv,
  MATCHDAY_GATEWAY_ENV,
  planMatchday,
  runMatchday,
  type MatchdayRun,
} from '../bench/scenarios/matchday.js';
import { startStack } from './support/servers.js';

/** The first hour: the three games in progress end, the postponed game is in its pre-match window. */
const HOURS = 1;

async function day(env: Record<string, string>): Promise<MatchdayRun> {
  let clock = 0;
  const stack = await startStack({
    env: { ...MATCHDAY_GATEWAY_ENV, ...env, LOG_LEVEL: 'warn' },
    seams: { cacheClock: () => clock },
    sandbox: { clock: () => clock },
  });
  try {
    const target = {
      gatewayUrl: stack.gateway.url,
      sandboxUrl: stack.sandbox.url,
      sandboxApiKey: stack.apiKey,
      setClock: (nowMs: number) => {
        clock = nowMs;
        return Promise.resolve();
      },
    };
    const plan = await planMatchday(target, { hours: HOURS });
    clock = plan.t0;
    return await runMatchday(target, plan);
  } finally {
    await stack.close();
  }
}

describe('the matchday bench, shortened', () => {
  it('spends fewer upstream requests under the policy than under the class TTLs, with no older live answers', async () => {
    const [classTtls, policy] = [await day(classTtlEnv(defaultCacheTtls)), await day({})];
    expect(policy.operations).toBe(classTtls.operations);
    // Every request the sandbox counted is one an operation of the day reports as fetched: nothing else asked.
    for (const run of [classTtls, policy]) {
      expect(Object.values(run.upstreamByWidget).reduce((a, b) => a + b, 0)).toBe(run.upstreamRequests);
    }
    expect({ classTtls: classTtls.upstreamRequests, policy: policy.upstreamRequests }).toEqual({
      classTtls: 1170,
      policy: 1043,
    });
    // Ended games' pages (a scoreboard and a detail each): every view past 30 s under the class TTLs; under the
    // policy each of the 24 games ended before the day once per route, and the 3 that end in the hour once more.
    expect(classTtls.upstreamByWidget['finished']).toBe(240);
    expect(policy.upstreamByWidget['finished']).toBe(24 * 2 + 3 * 2);
    // The allowance goes where data changes: the live scoreboards (read every 10 s) are fetched more often, not less.
    expect({
      classTtls: classTtls.upstreamByWidget['liveScoreboard'],
      policy: policy.upstreamByWidget['liveScoreboard'],
    }).toEqual({ classTtls: 180, policy: 270 });
    // Live answers: never older than the in-play freshness, and no older than under the class TTLs.
    expect(policy.liveAge.maxSeconds).toBeLessThan(defaultMatchStateTtls.inPlay);
    expect(policy.liveAge.p95Seconds).toBeLessThanOrEqual(classTtls.liveAge.p95Seconds);
  }, 180_000);
});
