/**
 * The estimate's per-document plan (src/spend/estimate/costed-selections.ts): made
 * once per document, it must never hand one document, schema or cost
 * table another's decision, and what is left to the request (variables,
 * `@skip`/`@include`, what is cached) must still change the estimate.
 */
import { makeExecutableSchema } from '@graphql-tools/schema';
import { getOperationAST, parse, print, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvers } from '../resolvers/index.js';
import { costedOperation } from '../src/spend/estimate/costed-selections.js';
import { fieldCosts } from '../src/spend/estimate/cost-table.js';
import { subgraphFieldCosts } from '../src/federation/entity-cost.js';
import { loadTypeDefs } from '../src/gateway/schema.js';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const schema = makeExecutableSchema({ typeDefs: loadTypeDefs(), resolvers });
const operationOf = (document: ReturnType<typeof parse>): OperationDefinitionNode => getOperationAST(document)!;

describe('the costed part of a document', () => {
  const text = `query ($skip: Boolean!) {
    v1 { hockey {
      standings(competition: 11) @skip(if: $skip) { entries { position competitor { name } } }
      ...News @include(if: true)
    } }
    sports { sport }
  }
  fragment News on V1Hockey { news(competitionId: 303, limit: 10) { articles { title } } }`;

  it('keeps the costed fields with their directives, inlines spreads with theirs, drops the rest', () => {
    const document = parse(text);
    const printed = print(costedOperation(schema, fieldCosts, document, operationOf(document)));
    expect(printed).toContain('standings(competition: 11) @skip(if: $skip)');
    expect(printed).toContain('... on V1Hockey @include(if: true)');
    expect(printed).toContain('news(competitionId: 303, limit: 10)');
    expect(printed).not.toContain('position');
    expect(printed).not.toContain('title');
    expect(printed).not.toContain('...News');
  });

  it('is made once per document, and another document, cost table or schema gets its own', () => {
    const document = parse(text);
    const operation = operationOf(document);
    const first = costedOperation(schema, fieldCosts, document, operation);
    expect(costedOperation(schema, fieldCosts, document, operation)).toBe(first);

    // The same text parsed again is another document: its own plan, equal in content.
    const again = parse(text);
    const second = costedOperation(schema, fieldCosts, again, operationOf(again));
    expect(second).not.toBe(first);
    expect(print(second)).toBe(print(first));

    // A table without the V1 hockey entries: nothing of the hockey selection is costed any more.
    const withoutHockey = Object.fromEntries(
      Object.entries(fieldCosts).filter(([key]) => !key.startsWith('V1Hockey.')),
    );
    const otherTable = costedOperation(schema, withoutHockey, document, operation);
    expect(print(otherTable)).not.toContain('standings');
    // And the first table's plan is not overwritten for good: asked again, it is right again.
    expect(print(costedOperation(schema, fieldCosts, document, operation))).toContain('standings');

    // Another schema object (as /subgraph has) with its own table.
    const otherSchema = makeExecutableSchema({ typeDefs: loadTypeDefs(), resolvers });
    const onOther = costedOperation(otherSchema, subgraphFieldCosts, document, operation);
    expect(onOther).not.toBe(first);
    expect(print(costedOperation(otherSchema, subgraphFieldCosts, document, operation))).toBe(print(onOther));
  });
});

describe('one document, different variables, through the gateway', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // Every answer executed: the estimate runs on each request.
    stack = await startStack({ env: { RESULT_CACHE: 'false' } });
  });
  afterAll(() => stack.close());

  const cost = (extensions: Record<string, unknown> | undefined) =>
    extensions?.['cost'] as { estimated: number; upstreamRequests: number };

  it('answers and estimates each request from its own variables', async () => {
    const query = `query ($skip: Boolean!, $game: ID!) {
      v1 { hockey {
        standings(competition: 11) @skip(if: $skip) { entries { position } }
        ...Lines
      } }
    }
    fragment Lines on V1Hockey { lines(gameId: $game) { moneyline { home } } }`;
    await resetCounts(stack.sandbox.url);

    const skipped = await gql<{ v1: { hockey: { standings?: unknown; lines: unknown } } }>(stack.gateway.url, query, {
      skip: true,
      game: String(hockeyV1Ids.firstGameId),
    });
    expect(skipped.errors).toBeUndefined();
    expect(skipped.data?.v1.hockey.standings).toBeUndefined();
    expect(cost(skipped.extensions)).toMatchObject({ estimated: 1, upstreamRequests: 1 });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(1);

    // Same text (the same parsed document and plan), other variables: standings now counts, lines is cached.
    const included = await gql<{ v1: { hockey: { standings: { entries: unknown[] }; lines: unknown } } }>(
      stack.gateway.url,
      query,
      { skip: false, game: String(hockeyV1Ids.firstGameId) },
    );
    expect(included.errors).toBeUndefined();
    expect(included.data?.v1.hockey.standings.entries.length).toBeGreaterThan(0);
    expect(cost(included.extensions)).toMatchObject({ estimated: 1, upstreamRequests: 1 });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(2);

    // Another game through the spread's variable: one more request, estimated as such.
    const otherGame = await gql(stack.gateway.url, query, { skip: false, game: String(hockeyV1Ids.firstGameId + 1) });
    expect(otherGame.errors).toBeUndefined();
    expect(cost(otherGame.extensions)).toMatchObject({ estimated: 1, upstreamRequests: 1 });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(3);
    expect(otherGame.text).not.toBe(included.text);
  });
});
