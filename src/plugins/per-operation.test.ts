/**
 * Decisions made once per document (per-operation.ts): a document's
 * decision is kept for that document object and operation name only, so a
 * changed document (or the same text parsed again into a new document) and
 * another operation of the same document are decided afresh, never handed
 * the first one's.
 */
import { parse, print, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { perOperation } from './per-operation.js';
import { isIntrospectionOnly } from './use-introspection-bounds.js';
import { quotaOnlyDocument } from './use-quota-after-spend.js';

/** `decide` wrapped to count how often it really runs. */
function counted<T>(decide: (document: DocumentNode, operationName: string | null | undefined) => T) {
  const calls = { count: 0 };
  const memo = perOperation((document: DocumentNode, operationName: string | null | undefined) => {
    calls.count += 1;
    return decide(document, operationName);
  });
  return { memo, calls };
}

describe('perOperation', () => {
  it('decides once per document and operation name, and again for a changed document', () => {
    const { memo, calls } = counted(isIntrospectionOnly);
    const introspection = parse('{ __typename __schema { queryType { name } } }');
    expect(memo(introspection, undefined)).toBe(true);
    expect(memo(introspection, null)).toBe(true);
    expect(calls.count).toBe(1);

    // The document changed: its own decision, not the introspection one.
    const changed = parse('{ __typename quota { remaining } }');
    expect(memo(changed, undefined)).toBe(false);
    expect(calls.count).toBe(2);
    // The same text parsed again is another document: decided again.
    expect(memo(parse('{ __typename quota { remaining } }'), undefined)).toBe(false);
    expect(calls.count).toBe(3);
    expect(memo(introspection, undefined)).toBe(true);
    expect(calls.count).toBe(3);
  });

  it('keeps each operation of one document apart', () => {
    const { memo, calls } = counted(isIntrospectionOnly);
    const both = parse('query Schema { __schema { queryType { name } } } query Quota { quota { remaining } }');
    expect(memo(both, 'Schema')).toBe(true);
    expect(memo(both, 'Quota')).toBe(false);
    expect(memo(both, 'Schema')).toBe(true);
    // No name on a two-operation document picks none.
    expect(memo(both, undefined)).toBe(false);
    expect(calls.count).toBe(3);
  });

  it('keeps an undefined decision (no quota selections) and a derived document per document', () => {
    const { memo, calls } = counted(quotaOnlyDocument);
    const none = parse('{ __typename }');
    expect(memo(none, undefined)).toBeUndefined();
    expect(memo(none, undefined)).toBeUndefined();
    expect(calls.count).toBe(1);

    const remaining = parse('{ __typename quota { remaining } }');
    const derived = memo(remaining, undefined);
    expect(derived === undefined ? undefined : print(derived)).toBe('{\n  quota {\n    remaining\n  }\n}');
    expect(memo(remaining, undefined)).toBe(derived);
    // The quota selection changed: a derived document of its own.
    const used = memo(parse('{ __typename quota { used } }'), undefined);
    expect(used === undefined ? undefined : print(used)).toBe('{\n  quota {\n    used\n  }\n}');
    expect(calls.count).toBe(3);
  });

  it('bounds the names it keeps for one document, and still decides the rest right', () => {
    const { memo, calls } = counted(isIntrospectionOnly);
    const document = parse('query Schema { __schema { queryType { name } } }');
    const names = Array.from({ length: 12 }, (_, i) => `Unknown${i}`);
    for (const name of names) expect(memo(document, name)).toBe(false);
    expect(calls.count).toBe(12);
    // The first 8 are kept; the names after them are decided each time.
    for (const name of names) expect(memo(document, name)).toBe(false);
    expect(calls.count).toBe(16);
    expect(memo(document, 'Schema')).toBe(true);
  });
});
