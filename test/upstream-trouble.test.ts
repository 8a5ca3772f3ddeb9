/**
 * Issue 29, item 4: the operator sees the upstream. Each trouble state
 * (src/upstream/trouble.ts), brought about with the sandbox's fault
 * injection, is logged exactly once when it starts however many requests
 * fail, shows on /healthz (`degraded`, its code) and on /metrics
 * (`sports_graph_upstream_trouble{state}` 1) while /readyz stays 200, and is
 * logged exactly once when it ends, after which /healthz is `ok` and the
 * series 0 again.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../src/net/free-port.js';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { imageIds } from '../sandbox/fixtures/images.js';
import { startSandbox, type SandboxHandle } from '../sandbox/server.js';
import { clearFaults, gql, injectFault, requestCounts, resetCounts, setSandboxQuota } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const API_KEY = 'trouble-key-5d10c7';
/** Requests sent while a state holds: each could have logged, none but the first may. */
const MANY = 6;

interface LogLine {
  readonly msg: string;
  readonly trouble?: string;
  readonly code?: string;
  readonly route?: string;
  readonly status?: number | string;
  readonly subject?: string;
}

interface Health {
  readonly status: string;
  readonly reasons: readonly string[];
  readonly troubles: ReadonlyArray<{
    code: string;
    state: string;
    subject: string;
    route: string;
    status: number | string;
  }>;
}

const athlete = (offset: number): string =>
  `{ v1 { hockey { athlete(id: ${hockeyV1Ids.firstAthleteId + offset}) { name } } } }`;
const STANDINGS = '{ v1 { hockey { standings { entries { position } } } } }';
const CYCLING = '{ v3 { cycling(window: TODAY) { window } } }';

describe('upstream trouble states: one line at the start, one at the end, /healthz and /metrics between', () => {
  let stack: TestStack;
  let cyclingPort: number;
  let logsFrom = 0;
  let nextAthlete = 1;

  beforeAll(async () => {
    cyclingPort = await freePort();
    stack = await startStack({
      sandbox: { apiKey: API_KEY },
      env: {
        OPERATION_TIMEOUT_MS: '3000',
        // Nothing listens here until the test that needs it starts a sandbox there.
        SPORTS_API_V3_CYCLING_BASE_URL: `http://127.0.0.1:${cyclingPort}`,
      },
    });
  });
  afterAll(() => stack.close());
  beforeEach(async () => {
    await clearFaults(stack.sandbox.url);
    await resetCounts(stack.sandbox.url);
    await setSandboxQuota(stack.sandbox.url, { used: 0 });
    // A fresh gateway: no state, cache or ledger left by the test before.
    await stack.stopGateway();
    await stack.restartGateway({}, { freshData: true });
    logsFrom = stack.logs.length;
  });

  const lines = (phase: 'started' | 'ended', state: string): LogLine[] =>
    stack.logs
      .slice(logsFrom)
      .map((line) => JSON.parse(line) as LogLine)
      .filter((line) => line.trouble === state && line.msg.startsWith(`upstream trouble ${phase}`));

  const health = async (): Promise<Health> => (await (await fetch(`${stack.gateway.url}/healthz`)).json()) as Health;

  const metric = async (state: string): Promise<number> => {
    const text = await (await fetch(`${stack.gateway.url}/metrics`)).text();
    const line = text
      .split('\n')
      .find((l) => l.startsWith('sports_graph_upstream_trouble{') && l.includes(`state="${state}"`));
    if (line === undefined) throw new Error(`no sports_graph_upstream_trouble series for ${state}`);
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  };

  const readyz = async (): Promise<number> => (await fetch(`${stack.gateway.url}/readyz`)).status;

  /** While the state holds: /healthz degraded with its code, the metric 1, /readyz 200. */
  async function expectActive(state: string, code: string): Promise<Health> {
    const body = await health();
    expect(body.status).toBe('degraded');
    expect(body.troubles.map((t) => t.code)).toEqual([code]);
    expect(body.reasons.some((reason) => reason.startsWith(`${code}: `))).toBe(true);
    expect(await metric(state)).toBe(1);
    expect(await readyz()).toBe(200);
    return body;
  }

  async function expectEnded(state: string): Promise<void> {
    expect(lines('ended', state)).toHaveLength(1);
    const body = await health();
    expect(body).toMatchObject({ status: 'ok', reasons: [], troubles: [] });
    expect(await metric(state)).toBe(0);
  }

  it('is ok with nothing wrong: every series 0, no reason', async () => {
    expect((await gql(stack.gateway.url, STANDINGS)).errors).toBeUndefined();
    expect(await health()).toMatchObject({ status: 'ok', reasons: [], troubles: [] });
    for (const state of ['key_refused', 'unreachable', 'allowance_spent', 'image_incident', 'payload_invalid'])
      expect(await metric(state)).toBe(0);
  });

  it('key refused (403): one start line naming SPORTS_API_KEY, the route and the status; it ends at the next keyed 2xx', async () => {
    await injectFault(stack.sandbox.url, { route: '*', status: 403, body: { error: 'Invalid API key' } });
    const answers = await Promise.all(
      Array.from({ length: MANY }, () => gql(stack.gateway.url, athlete(nextAthlete++))),
    );
    for (const answer of answers) expect(answer.errors?.[0]?.extensions?.['code']).toBe('UPSTREAM_AUTH');
    expect((await requestCounts(stack.sandbox.url)).total).toBe(MANY);

    const started = lines('started', 'key_refused');
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ code: 'UPSTREAM_KEY_REFUSED', route: '/v1/hockey/athletes', status: 403 });
    expect(started[0]?.msg).toContain('SPORTS_API_KEY');
    const body = await expectActive('key_refused', 'UPSTREAM_KEY_REFUSED');
    expect(body.troubles[0]).toMatchObject({ route: '/v1/hockey/athletes', status: 403 });

    await clearFaults(stack.sandbox.url);
    expect((await gql(stack.gateway.url, athlete(nextAthlete++))).errors).toBeUndefined();
    await expectEnded('key_refused');
  });

  it('key refused, for real: a gateway started with a key the upstream does not know says so once', async () => {
    await stack.stopGateway();
    await stack.restartGateway({ SPORTS_API_KEY: 'not-the-sandbox-key' });
    for (let i = 0; i < 3; i += 1)
      expect((await gql(stack.gateway.url, athlete(nextAthlete++))).errors?.[0]?.extensions?.['code']).toBe(
        'UPSTREAM_AUTH',
      );
    expect(lines('started', 'key_refused')).toHaveLength(1);
    await expectActive('key_refused', 'UPSTREAM_KEY_REFUSED');
    // The key itself is in no line.
    expect(stack.logs.slice(logsFrom).filter((line) => line.includes('not-the-sandbox-key'))).toEqual([]);
  });

  it("unreachable: one start line for the origin that refused connections; it ends at that origin's next answer", async () => {
    const origin = `http://127.0.0.1:${cyclingPort}`;
    for (let i = 0; i < MANY; i += 1)
      expect((await gql(stack.gateway.url, CYCLING)).errors?.[0]?.extensions?.['code']).toBe('UPSTREAM_UNREACHABLE');
    // The main origin answering meanwhile does not end the cycling origin's state.
    expect((await gql(stack.gateway.url, STANDINGS)).errors).toBeUndefined();

    const started = lines('started', 'unreachable');
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({
      code: 'UPSTREAM_UNREACHABLE',
      subject: origin,
      route: '{v3_cycling_base_url}/api/v1/cycling/{window}',
    });
    expect(started[0]?.msg).toContain('SPORTS_API_V3_CYCLING_BASE_URL');
    const body = await expectActive('unreachable', 'UPSTREAM_UNREACHABLE');
    expect(body.troubles[0]?.subject).toBe(origin);

    let cycling: SandboxHandle | undefined;
    try {
      cycling = await startSandbox({ port: cyclingPort, apiKey: API_KEY, allowance: 7_500 });
      expect((await gql(stack.gateway.url, CYCLING)).errors).toBeUndefined();
      await expectEnded('unreachable');
    } finally {
      await cycling?.close();
    }
  });

  it('unreachable, timing out: a 504 starts it too, and the next answer ends it', async () => {
    await injectFault(stack.sandbox.url, {
      route: 'GET /v1/hockey/athletes',
      status: 504,
      body: { code: 'upstream_timeout' },
    });
    for (let i = 0; i < MANY; i += 1)
      expect((await gql(stack.gateway.url, athlete(nextAthlete++))).errors?.[0]?.extensions?.['code']).toBe(
        'UPSTREAM_TIMEOUT',
      );
    expect(lines('started', 'unreachable')).toHaveLength(1);
    expect(lines('started', 'unreachable')[0]).toMatchObject({ status: 504, subject: stack.sandbox.url });
    await expectActive('unreachable', 'UPSTREAM_UNREACHABLE');
    await clearFaults(stack.sandbox.url);
    expect((await gql(stack.gateway.url, athlete(nextAthlete++))).errors).toBeUndefined();
    await expectEnded('unreachable');
  });

  it("allowance spent (429): one start line with the reset; it ends when the ledger resets (here the 429's Retry-After)", async () => {
    // A cached answer: what the gateway can still serve while the allowance is spent.
    expect((await gql(stack.gateway.url, STANDINGS)).errors).toBeUndefined();
    await injectFault(stack.sandbox.url, {
      route: '*',
      status: 429,
      headers: { 'retry-after': '2' },
      body: { error: 'quota' },
    });
    const answers = [];
    for (let i = 0; i < MANY; i += 1) answers.push(await gql(stack.gateway.url, athlete(nextAthlete++)));
    for (const answer of answers) expect(answer.errors?.[0]?.extensions?.['code']).toBe('QUOTA_EXHAUSTED');
    // The first was sent and answered 429; the ledger refused the others without sending.
    expect((await requestCounts(stack.sandbox.url)).byRoute['GET /v1/hockey/athletes']).toBe(1);

    const started = lines('started', 'allowance_spent');
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ code: 'ALLOWANCE_SPENT', route: '/v1/hockey/athletes', status: 429 });
    expect(started[0]?.msg).toContain('SPORTS_API_PLAN');
    await expectActive('allowance_spent', 'ALLOWANCE_SPENT');
    // /readyz stays 200 because this still answers.
    expect((await gql(stack.gateway.url, STANDINGS)).errors).toBeUndefined();

    await clearFaults(stack.sandbox.url);
    // The ledger resets by itself after Retry-After; /healthz reads it. A condition, asked until it holds.
    const until = Date.now() + 15_000;
    while ((await health()).status !== 'ok' && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 100));
    await expectEnded('allowance_spent');
    expect((await gql(stack.gateway.url, athlete(nextAthlete++))).errors).toBeUndefined();
  });

  it("allowance spent, the ledger at 0: the upstream's rate-limit headers saying 0 left start it without a 429", async () => {
    await setSandboxQuota(stack.sandbox.url, { used: 7_499 });
    expect((await gql(stack.gateway.url, athlete(nextAthlete++))).errors).toBeUndefined();
    for (let i = 0; i < MANY; i += 1)
      expect((await gql(stack.gateway.url, athlete(nextAthlete++))).errors?.[0]?.extensions?.['code']).toBe(
        'QUOTA_EXHAUSTED',
      );
    expect((await requestCounts(stack.sandbox.url)).total).toBe(1);
    const started = lines('started', 'allowance_spent');
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ route: '/v1/hockey/athletes', status: 'ledger at 0' });
    await expectActive('allowance_spent', 'ALLOWANCE_SPENT');
  });

  it('image incident (502 IMAGE_UPSTREAM_UNAVAILABLE): one start line for V2 images; the next V2 image ends it', async () => {
    const id = imageIds.v2Hockey.team;
    const path = `/images/v2/hockey/teams/${id}`;
    await injectFault(stack.sandbox.url, {
      route: `GET /v2/hockey/images/teams/${id}`,
      status: 502,
      body: { error: 'Image delivery layer unavailable', code: 'IMAGE_UPSTREAM_UNAVAILABLE' },
    });
    for (let i = 0; i < MANY; i += 1) {
      const answer = await fetch(`${stack.gateway.url}${path}`);
      expect(answer.status).toBe(502);
      await answer.body?.cancel();
    }
    // Data routes are another layer: they answer, and the state holds.
    expect((await gql(stack.gateway.url, STANDINGS)).errors).toBeUndefined();
    const started = lines('started', 'image_incident');
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({
      code: 'IMAGE_INCIDENT',
      subject: 'v2',
      route: '/v2/{sport}/images/{type}/{id}',
      status: 502,
    });
    await expectActive('image_incident', 'IMAGE_INCIDENT');

    await clearFaults(stack.sandbox.url);
    const recovered = await fetch(`${stack.gateway.url}${path}`);
    expect(recovered.status).toBe(200);
    await recovered.body?.cancel();
    await expectEnded('image_incident');
  });

  it('a route whose payloads keep failing their check: one start line at the third failure in a row; the next good payload ends it', async () => {
    await injectFault(stack.sandbox.url, { route: 'GET /v1/hockey/standings', kind: 'malformed' });
    for (let i = 0; i < MANY; i += 1) {
      expect((await gql(stack.gateway.url, STANDINGS)).errors?.[0]?.extensions?.['code']).toBe(
        'UPSTREAM_INVALID_RESPONSE',
      );
      // Two failures are a blip, not a state.
      if (i === 1) expect(lines('started', 'payload_invalid')).toHaveLength(0);
    }
    expect((await requestCounts(stack.sandbox.url)).byRoute['GET /v1/hockey/standings']).toBe(MANY);
    const started = lines('started', 'payload_invalid');
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({
      code: 'UPSTREAM_PAYLOAD_INVALID',
      subject: '/v1/hockey/standings',
      route: '/v1/hockey/standings',
    });
    await expectActive('payload_invalid', 'UPSTREAM_PAYLOAD_INVALID');

    await clearFaults(stack.sandbox.url);
    expect((await gql(stack.gateway.url, STANDINGS)).errors).toBeUndefined();
    await expectEnded('payload_invalid');
  });
});
