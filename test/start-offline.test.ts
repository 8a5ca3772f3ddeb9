/**
 * `npm start` as a new user runs it: the gateway (dist/main.js, in a child
 * process) on its embedded sandbox, with no SPORTS_API_* variable set.
 *
 * - The plan is the largest, and the first log line says so and where the
 *   allowance ledger lives (no free-plan allowance to spend by exploring).
 * - Live matches move on their own: an `oddsChanges` subscription gets
 *   changes every few seconds. The spec's cadence alone sends a frame every
 *   24 to 149 s, so two frames with changes within 30 s are the sandbox's
 *   own match events, not the cadence (the tests' sandboxes have none:
 *   SandboxOptions.matchEventMs defaults to 0).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { readClusterSettings, sandboxDefaults } from '../scripts/cluster-settings.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { gql } from './support/client.js';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process.js';
import { subscribe } from './support/odds-stream.js';

describe('npm start with nothing configured', () => {
  let gateway: GatewayProcess;
  let lines: string[] = [];
  let dataDir = '';

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sports-graph-start-'));
    let output = '';
    // Empty values count as unset, whatever the test runner's environment holds.
    gateway = await startGatewayProcess(
      {
        SPORTS_API_PLAN: '',
        SPORTS_API_BASE_URL: '',
        SPORTS_API_KEY: '',
        SANDBOX_PORT: '0',
        SANDBOX_MATCH_EVENT_MS: '',
        LOG_LEVEL: 'info',
      },
      {
        dataDir,
        onOutput: (chunk) => {
          output += chunk;
        },
      },
    );
    lines = output.split('\n').filter((line) => line.startsWith('{'));
  }, 60_000);
  afterAll(async () => {
    await gateway?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('runs on the largest plan, and its first log line says which plan and where the ledger lives', async () => {
    const first = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    expect(first).toMatchObject({ sandbox: true, plan: 'mega', allowance: 150_000, planFrom: 'default' });
    expect(first['msg']).toMatch(
      /^embedded sandbox upstream at http:\/\/127\.0\.0\.1:\d+ \(no SPORTS_API_BASE_URL\); plan mega, 150,000 counted requests a day \(the largest: SPORTS_API_PLAN unset on the sandbox\); allowance ledger in \/.+\/quota\.json$/,
    );
    expect(first['ledger']).toBe(join(dataDir, 'quota.json'));
    const quota = await gql<{ quota: { plan: string; limit: number } }>(gateway.url, '{ quota { plan limit } }');
    expect(quota.data?.quota).toEqual({ plan: 'MEGA', limit: 150_000 });
  });

  it('an oddsChanges subscription gets price changes on its own, every few seconds', async () => {
    const client: Client = createClient({
      url: `${gateway.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      lazy: true,
      retryAttempts: 0,
    });
    const { stream, stop } = subscribe<{ kind: string }>(
      client,
      'subscription { oddsChanges(matchId: "930001") { kind marketId price } }',
      {},
      'oddsChanges',
    );
    try {
      // Each match event moves every open price: one frame brings several changes. Two frames' worth, well before any cadence frame could.
      await stream.until((values) => values.filter((change) => change.kind === 'PRICE_MOVED').length >= 2 * 10, 30_000);
      expect(stream.error).toBeUndefined();
    } finally {
      stop();
      await client.dispose();
    }
  }, 40_000);
});

describe('the plan when SPORTS_API_PLAN is unset', () => {
  const real = { SPORTS_API_BASE_URL: 'https://api.example.org', SPORTS_API_KEY: 'k' };

  it('is the largest on the embedded sandbox, free on a real upstream, and what was set when set', () => {
    expect(loadConfig({})).toMatchObject({ plan: 'mega', planFrom: 'default' });
    expect(loadConfig({ SPORTS_API_PLAN: '' })).toMatchObject({ plan: 'mega', planFrom: 'default' });
    expect(loadConfig(real)).toMatchObject({ plan: 'free', planFrom: 'default' });
    expect(loadConfig({ SPORTS_API_PLAN: 'Pro' })).toMatchObject({ plan: 'pro', planFrom: 'SPORTS_API_PLAN' });
    expect(loadConfig({ ...real, SPORTS_API_PLAN: 'ultra' })).toMatchObject({
      plan: 'ultra',
      planFrom: 'SPORTS_API_PLAN',
    });
  });

  it('npm run cluster follows the same rule', () => {
    expect(readClusterSettings({}, []).plan).toBe('mega');
    // The same live sandbox as npm start: games that play, odds that move, and the replicas' World Cup TTL of the sandbox.
    expect(readClusterSettings({}, [])).toMatchObject({ matchEventMs: 3_000, matchMinuteMs: 10_000 });
    expect(readClusterSettings({ SANDBOX_MATCH_MINUTE_MS: '0' }, []).matchMinuteMs).toBe(0);
    expect(sandboxDefaults({})).toEqual({ CACHE_TTL_WORLDCUP: '10' });
    expect(sandboxDefaults({ CACHE_TTL_WORLDCUP: '5' })).toEqual({});
    expect(readClusterSettings({ SPORTS_API_BASE_URL: 'https://api.example.org' }, []).plan).toBe('free');
    expect(readClusterSettings({ SPORTS_API_PLAN: 'pro' }, []).plan).toBe('pro');
  });

  it('a wrong plan or match-event interval stops start-up naming the variable', () => {
    expect(() => loadConfig({ SPORTS_API_PLAN: 'gold' })).toThrow(
      /SPORTS_API_PLAN must be one of free, pro, ultra, mega, got "gold"/,
    );
    expect(() => loadConfig({ SANDBOX_MATCH_EVENT_MS: 'often' })).toThrow(ConfigError);
    expect(() => loadConfig({ SANDBOX_MATCH_EVENT_MS: '-5' })).toThrow(
      /SANDBOX_MATCH_EVENT_MS must be an integer >= 0/,
    );
    expect(loadConfig({ SANDBOX_MATCH_EVENT_MS: '0' }).sandbox.matchEventMs).toBe(0);
    expect(() => loadConfig({ SANDBOX_MATCH_MINUTE_MS: 'fast' })).toThrow(
      /SANDBOX_MATCH_MINUTE_MS must be an integer >= 0/,
    );
  });

  it('on the embedded sandbox the games play (a minute every 10 s) and the World Cup lists stay fresh 10 s, not 30', () => {
    expect(loadConfig({})).toMatchObject({ sandbox: { matchMinuteMs: 10_000 }, cacheTtls: { worldCup: 10 } });
    expect(loadConfig({ SANDBOX_MATCH_MINUTE_MS: '0', CACHE_TTL_WORLDCUP: '20' })).toMatchObject({
      sandbox: { matchMinuteMs: 0 },
      cacheTtls: { worldCup: 20 },
    });
    expect(loadConfig({ SPORTS_API_BASE_URL: 'https://api.example.org', SPORTS_API_KEY: 'k' }).cacheTtls.worldCup).toBe(
      30,
    );
  });
});
