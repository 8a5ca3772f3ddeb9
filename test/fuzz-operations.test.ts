/**
 * Issue 8, item 5 (operations): property-based operations generated from the
 * gateway's own schema (introspected over HTTP), with random and edge-case
 * argument values and wrong types through variables. Whatever arrives, the
 * gateway answers below 500 with JSON, every error carries a code and none
 * is an unexpected exception (INTERNAL_SERVER_ERROR), no promise rejection
 * goes unhandled, and /healthz is still 200 afterwards.
 *
 * CI: fixed seed and a bounded run count (FUZZ_SEED / FUZZ_RUNS override them
 * for a longer local hunt).
 */
import fc from 'fast-check';
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { gql } from './support/client.js';
import { collectIds, expectCodedResponse, trackUnhandledRejections } from './support/fuzz.js';
import { operationArbitrary, type FuzzOperation } from './support/operation-arbitrary.js';
import { startStack, type TestStack } from './support/servers.js';

const SEED = Number(process.env['FUZZ_SEED'] ?? 20_261_122);
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 150);

describe('fuzzed operations against the schema', () => {
  let stack: TestStack;
  const rejections = trackUnhandledRejections();

  beforeAll(async () => {
    stack = await startStack({ env: { OPERATION_TIMEOUT_MS: '3000' } });
    rejections.start();
  });
  afterAll(async () => {
    rejections.stop();
    await stack.close();
  });

  it(`answers every generated operation with coded errors, below 500 (seed ${SEED}, ${RUNS} runs)`, {
    timeout: 60_000,
  }, async () => {
    const introspection = await gql<IntrospectionQuery>(stack.gateway.url, getIntrospectionQuery());
    const schema = buildClientSchema(introspection.data!);
    // Real IDs make the generated operations reach real payloads, not only NOT_FOUND.
    const harvest = await gql(
      stack.gateway.url,
      `{ v1 { hockey { standings { entries { competitor { id ref { nativeId } } } } news(limit: 3) { articles { id ref { nativeId } } } } } }`,
    );
    const knownIds = [
      ...collectIds(harvest.data).slice(0, 12),
      String(hockeyV1Ids.firstGameId),
      String(hockeyV1Ids.firstAthleteId),
      String(hockeyV1Ids.topLeague.standingsId),
    ];
    const operations = operationArbitrary(schema, { maxDepth: 4, maxFields: 3, knownIds });
    let executed = 0;
    const codes = new Map<string, number>();

    await fc.assert(
      fc.asyncProperty(operations, async (operation: FuzzOperation) => {
        const response = await fetch(`${stack.gateway.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
          body: JSON.stringify(operation),
        });
        const outcome = await expectCodedResponse(response, operation);
        if (outcome.executed) executed += 1;
        for (const code of outcome.errorCodes) codes.set(code, (codes.get(code) ?? 0) + 1);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );

    if (process.env['FUZZ_STATS'] !== undefined)
      process.stdout.write(`executed ${executed}/${RUNS}; codes ${JSON.stringify([...codes])}\n`);
    // A generator whose operations mostly fail validation would test nothing past the parser.
    expect(executed).toBeGreaterThan(RUNS / 2);
    expect((await fetch(`${stack.gateway.url}/healthz`)).status).toBe(200);
    expect(rejections.seen()).toEqual([]);
  });
});
