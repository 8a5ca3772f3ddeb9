import { CloseCode as GraphqlWsCloseCode } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import { CloseCode, closeCodes } from './close-codes.js';

describe('close codes', () => {
  it("a code named like one of graphql-ws's has graphql-ws's value", () => {
    const theirs = GraphqlWsCloseCode as unknown as Record<string, number | string>;
    const shared = Object.keys(closeCodes).filter((name) => typeof theirs[name] === 'number');
    expect(shared.length).toBeGreaterThanOrEqual(8);
    for (const name of shared) expect(closeCodes[name as keyof typeof closeCodes].code).toBe(theirs[name]);
  });

  it('each code is listed once, and its constant is its value', () => {
    const codes = Object.values(closeCodes).map((entry) => entry.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const [name, entry] of Object.entries(closeCodes))
      expect(CloseCode[name as keyof typeof CloseCode]).toBe(entry.code);
  });
});
