/**
 * Estimates kept for reuse (estimate-memo.ts): never handed to another
 * schema, cost table, operation or set of variables, never after anything
 * known changed, and never past their age bound. Each case fails if its
 * part of the key or of the validity check is dropped.
 */
import { buildSchema, getOperationAST, parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { knownStateChanged } from '../../upstream/known-state.js';
import { EstimateMemo, type MemoKey } from './estimate-memo.js';
import type { FieldCost } from './cost-rule.js';

const schema = buildSchema('type Query { team(id: ID!): String }');
const operationOf = (text: string): OperationDefinitionNode => getOperationAST(parse(text))!;
const costs: Readonly<Record<string, FieldCost>> = {};
const twoRequests = { requests: 2, unanswerable: 1 };

function kept(memo: EstimateMemo, key: MemoKey, estimate = twoRequests): void {
  memo.keep(key, estimate, memo.start(key));
}

describe('EstimateMemo', () => {
  it('answers the same operation and variables, and nothing that differs in any part of the key', () => {
    const memo = new EstimateMemo();
    const operation = operationOf('query ($id: ID!) { team(id: $id) }');
    const key: MemoKey = { schema, costs, operation, variables: { id: '7' } };
    kept(memo, key);
    expect(memo.get({ ...key, variables: { id: '7' } })).toEqual(twoRequests);

    expect(memo.get({ ...key, variables: { id: '8' } })).toBeUndefined();
    // The same text parsed again is another document (yoga's parse cache hands out one per text).
    expect(memo.get({ ...key, operation: operationOf('query ($id: ID!) { team(id: $id) }') })).toBeUndefined();
    expect(memo.get({ ...key, schema: buildSchema('type Query { team(id: ID!): String }') })).toBeUndefined();
    expect(memo.get({ ...key, costs: {} })).toBeUndefined();
  });

  it('answers nothing once anything known has changed, or when it changed while the walk ran', () => {
    const memo = new EstimateMemo();
    const key: MemoKey = { schema, costs, operation: operationOf('{ team(id: "1") }'), variables: {} };
    kept(memo, key);
    expect(memo.get(key)).toEqual(twoRequests);
    knownStateChanged();
    expect(memo.get(key)).toBeUndefined();

    const start = memo.start(key);
    knownStateChanged();
    memo.keep(key, twoRequests, start);
    expect(memo.get(key)).toBeUndefined();
  });

  it('answers nothing at or past its age bound, counted from the start of the walk', () => {
    let now = 1_000;
    const memo = new EstimateMemo({ maxAgeMs: 500, now: () => now });
    const key: MemoKey = { schema, costs, operation: operationOf('{ team(id: "2") }'), variables: {} };
    const start = memo.start(key);
    now += 100;
    memo.keep(key, twoRequests, start);
    now += 399;
    expect(memo.get(key)).toEqual(twoRequests);
    now += 1;
    expect(memo.get(key)).toBeUndefined();
  });

  it('keeps a bounded number of variable sets per operation, the oldest out first', () => {
    const memo = new EstimateMemo({ perOperation: 2 });
    const operation = operationOf('query ($id: ID!) { team(id: $id) }');
    const key = (id: string): MemoKey => ({ schema, costs, operation, variables: { id } });
    kept(memo, key('a'), { requests: 1, unanswerable: 0 });
    kept(memo, key('b'), { requests: 2, unanswerable: 0 });
    kept(memo, key('c'), { requests: 3, unanswerable: 0 });
    expect(memo.get(key('a'))).toBeUndefined();
    expect(memo.get(key('b'))).toEqual({ requests: 2, unanswerable: 0 });
    expect(memo.get(key('c'))).toEqual({ requests: 3, unanswerable: 0 });
  });

  it('never keeps variables JSON cannot carry whole', () => {
    const memo = new EstimateMemo();
    const key: MemoKey = { schema, costs, operation: operationOf('{ team(id: "3") }'), variables: { big: 10n } };
    kept(memo, key);
    expect(memo.get(key)).toBeUndefined();
  });
});
