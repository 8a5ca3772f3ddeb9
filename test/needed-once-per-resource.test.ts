/**
 * What an operation "needed" (src/spend/estimate/estimate-bound.ts) counts each
 * counted resource once, however its failure and its request's record are
 * ordered. At the operation deadline two timers fire: the fetcher's race
 * fails the load, and the dispatcher's abort ends the hung request, which is
 * only then recorded on the meter. A load that failed first looked "failed
 * before it left" and was counted again when its request's record landed:
 * needed 4 or 5 for 3 athletes (charge-doors.test.ts, one run in two).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UpstreamLoader } from '../src/loaders/upstream-loader.js';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { v1Routes } from '../src/upstream/routes/v1.js';
import type { Ledger } from '../src/spend/ledger.js';
import { clearFaults, injectFault, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const inFlight = (ledger: Ledger): number => ledger.snapshot().remaining - ledger.available();

describe('needed counts each counted resource once', () => {
  let stack: TestStack;
  let nextAthlete = hockeyV1Ids.firstAthleteId;

  beforeAll(async () => {
    stack = await startStack({ env: { SPORTS_API_PLAN: 'mega', UPSTREAM_HEADERS_TIMEOUT_MS: '5000' } });
  });
  afterAll(() => stack.close());

  it('three hung requests cut by the deadline: needed is 3 when the loads fail and still 3 once the requests are recorded', async () => {
    await resetCounts(stack.sandbox.url);
    await injectFault(stack.sandbox.url, { route: 'GET /v1/hockey/athletes', kind: 'hang' });
    try {
      const loader = new UpstreamLoader(stack.gateway.services.fetcher, Date.now() + 2_000);
      // Its payer, as an anonymous operation's (src/plugins/use-cost-limit.ts): every counted request is charged.
      loader.meter.guard = stack.gateway.services.spend.payerWithoutBudget(undefined);
      const loads = Array.from({ length: 3 }, () => loader.load(v1Routes.athletes, { athleteId: nextAthlete++ }));
      // Every request is at the hung upstream before the deadline comes.
      await vi.waitFor(async () => expect((await requestCounts(stack.sandbox.url)).total).toBe(3), {
        timeout: 20_000,
        interval: 50,
      });
      const outcomes = await Promise.allSettled(loads);
      expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
      // The moment the operation would end: its requests may or may not be recorded yet.
      expect(loader.trace.neededCounted).toBe(3);
      await vi.waitFor(() => expect(inFlight(stack.gateway.services.ledger)).toBe(0), {
        timeout: 20_000,
        interval: 50,
      });
      expect(loader.meter.counted).toBe(3);
      expect(loader.trace.neededCounted).toBe(3);
    } finally {
      await clearFaults(stack.sandbox.url);
    }
  });
});
