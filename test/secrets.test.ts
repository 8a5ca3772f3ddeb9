/**
 * The API key appears in no response, error, log line or metric, and a
 * client's own `x-api-key` never reaches the upstream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { clearFaults, gql, injectFault } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const CANARY = 'canary-KEY-5f1d2c7e9a';

describe('the upstream API key', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ sandbox: { apiKey: CANARY } });
  });
  afterAll(() => stack.close());

  it('appears in no response, error, log line or metric', async () => {
    const outputs: string[] = [];
    const query = `{ sports { sport } quota { used } v1 { hockey {
      standings { entries { competitor { name image { url } } } }
      lines(gameId: ${hockeyV1Ids.firstGameId}) { gameId }
      athlete(id: ${hockeyV1Ids.firstAthleteId}) { name raw }
    } } }`;
    outputs.push((await gql(stack.gateway.url, query)).text);
    for (const fault of [
      { status: 401 },
      { status: 403 },
      { status: 502 },
      { kind: 'reset' as const },
      { kind: 'malformed' as const },
    ]) {
      await injectFault(stack.sandbox.url, { route: 'GET /v1/hockey/athletes', ...fault });
      outputs.push(
        (
          await gql(
            stack.gateway.url,
            `{ v1 { hockey { athlete(id: ${hockeyV1Ids.firstAthleteId + 50 + outputs.length}) { name } } } }`,
          )
        ).text,
      );
      await clearFaults(stack.sandbox.url);
    }
    outputs.push(await (await fetch(`${stack.gateway.url}/metrics`)).text());
    outputs.push(await (await fetch(`${stack.gateway.url}/graphql`, { headers: { accept: 'text/html' } })).text());
    outputs.push(...stack.logs);
    expect(stack.logs.length).toBeGreaterThan(0);
    for (const output of outputs) expect(output).not.toContain(CANARY);
  });

  it("a client's x-api-key is never forwarded: the gateway's own key is sent, or none", async () => {
    const result = await gql(
      stack.gateway.url,
      `{ v1 { hockey { athlete(id: ${hockeyV1Ids.firstAthleteId + 60}) { name } } } }`,
      undefined,
      { 'x-api-key': 'client-supplied-key' },
    );
    expect(result.errors).toBeUndefined();
    const log = (await (await fetch(`${stack.sandbox.url}/__sandbox/requests/log`)).json()) as Array<{
      path: string;
      key: string;
    }>;
    expect(log.length).toBeGreaterThan(0);
    for (const entry of log) {
      expect(entry.key).not.toBe('other');
      if (entry.path === '/reference/sports') expect(entry.key).toBe('none');
      if (entry.path.startsWith('/v1/hockey/')) expect(entry.key).toBe('valid');
    }
  });
});
