/**
 * The example operations of examples/operations/ (GraphiQL's first tabs and
 * the documented examples): one per version and headline feature, each run
 * against the sandbox with its own variables, with no error. The
 * subscription's first event counts as its answer.
 */
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadExampleOperations, type ExampleOperation } from '../src/graphiql/example-operations.js';
import { gql } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

interface Answer {
  data?: Record<string, unknown> | null;
  errors?: ReadonlyArray<{ message: string }>;
}

/** What each example's comment promises, beyond "no error". */
const promised: Record<string, Record<string, unknown>> = {
  HockeyNight: {
    v1: {
      hockey: {
        standings: { entries: expect.arrayContaining([expect.objectContaining({ position: 1 })]) },
        lines: { moneyline: expect.any(Object) },
      },
    },
  },
  WorldCup: {
    worldCup: {
      v1: { matches: expect.arrayContaining([expect.objectContaining({ groupName: 'Group A' })]) },
      v2: { info: { numberOfTeams: 48 } },
    },
  },
  V2Discovery: {
    v2: {
      football: {
        competitions: {
          nodes: expect.arrayContaining([
            expect.objectContaining({ tier: 1, categoryInfo: expect.objectContaining({ alpha2: 'NL' }) }),
          ]),
        },
        leagues: expect.arrayContaining([expect.any(Object)]),
      },
    },
  },
  V6TeamStats: {
    v6: {
      football: {
        teamStats: {
          teams: expect.arrayContaining([
            expect.objectContaining({
              shots: { stat: expect.objectContaining({ foldedFrom: 183 }) },
              fullMatch: expect.objectContaining({
                stats: expect.arrayContaining([expect.objectContaining({ statId: 130, provided: false, value: null })]),
              }),
            }),
          ]),
        },
      },
    },
  },
  LogoFallback: { fromV2: { version: 'V2' }, fromV6: { version: 'V6' } },
  OddsSnapshots: { oddsSnapshots: { matchId: '920001', markets: expect.arrayContaining([expect.any(Object)]) } },
  Allowance: { quota: { plan: 'PRO', limit: 7_500 } },
};

describe('example operations (examples/operations/)', async () => {
  const examples = await loadExampleOperations();
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  /** The first event of a subscription over graphql-ws, as GraphiQL opens it. */
  async function firstEvent(example: ExampleOperation): Promise<Answer> {
    const client = createClient({
      url: `${stack.gateway.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    try {
      return await new Promise<Answer>((resolve, reject) => {
        client.subscribe(
          { query: example.document, operationName: example.name, variables: { ...example.variables } },
          {
            next: (event) => resolve(event as Answer),
            error: reject,
            complete: () => reject(new Error(`${example.name} completed without an event`)),
          },
        );
      });
    } finally {
      await client.dispose();
    }
  }

  it('one named, described operation for each headline, in order', () => {
    expect(examples.map((example) => `${example.type} ${example.name}`)).toEqual([
      'query HockeyNight',
      'query WorldCup',
      'query V2Discovery',
      'query V6TeamStats',
      'query LogoFallback',
      'subscription OddsSnapshots',
      'query Allowance',
    ]);
    for (const example of examples) expect(example.document, example.file).toMatch(/^# \S.*\n(#.*\n)+/);
  });

  it.each(examples.map((example) => [example.name, example] as const))(
    '%s answers on the sandbox with no error, and shows what its comment says',
    async (_name, example) => {
      const answer: Answer =
        example.type === 'subscription'
          ? await firstEvent(example)
          : await gql(stack.gateway.url, example.document, { ...example.variables });
      expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
      expect(answer.data).toEqual(expect.any(Object));
      // Every top-level field answered something: no example shows an empty screen.
      for (const [field, value] of Object.entries(answer.data ?? {}))
        expect(value, `${example.name}.${field}`).not.toBeNull();
      expect(answer.data).toMatchObject(promised[example.name] ?? { missing: `a promise for ${example.name}` });
    },
  );
});
