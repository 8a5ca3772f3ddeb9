/**
 * A dry run (resolve-known.ts) that breaks on a defect of its own costs the
 * field its bound, never nothing. The dry context reads the loader through
 * a proxy, so a loader method that touches a `#private` field throws a
 * TypeError there and nowhere else; counted as a failed field (cost 0), an
 * operation could spend more than its estimate let through the limit. A
 * field's own failure (a GatewayError) still costs nothing.
 */
import { buildSchema, getOperationAST, parse, type FieldNode, type GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ErrorCode, GatewayError } from '../../upstream/errors.js';
import type { EstimateContext } from './cost-rule.js';
import { resolveField, type Resolution } from './resolve-known.js';

/** The loader's surface the dry context wraps, with a private field as a class may grow one. */
class LoaderWithPrivateState {
  readonly #calls = 0;

  callsSoFar(): number {
    return this.#calls;
  }

  load(): Promise<never> {
    return Promise.reject(new Error('no route is loaded here'));
  }

  keepKnown(): void {}

  knownAnswers(): ReadonlyMap<string, unknown> {
    return new Map();
  }
}

const schema = buildSchema('type Query { usesLoaderState: Int, failsItsInput: Int }');
const operation = getOperationAST(parse('{ usesLoaderState failsItsInput }'))!;
const query = schema.getQueryType() as GraphQLObjectType;

function dryRun(fieldName: string, resolve: (context: EstimateContext) => unknown): Promise<Resolution> | Resolution {
  const loader = new LoaderWithPrivateState();
  // Only the parts a dry run reads: the loader and the cache it peeks.
  const context = {
    upstream: loader,
    upstreamCache: { keyOf: () => 'key', peekKey: () => Promise.resolve(undefined) },
  } as unknown as EstimateContext;
  const field = {
    ...query.getFields()[fieldName]!,
    resolve: (_: unknown, __: unknown, ctx: unknown) => resolve(ctx as EstimateContext),
  };
  const node = operation.selectionSet.selections.find(
    (selection): selection is FieldNode => selection.kind === 'Field' && selection.name.value === fieldName,
  )!;
  return resolveField({ schema, operation, fragments: {}, variables: {}, context }, query, field, node, {}, {}, 'dry');
}

describe('a dry run that breaks on a defect', () => {
  it('costs the bound (unknown, nothing missing) when a loader method reads a private field through the dry proxy', async () => {
    const calls = (context: EstimateContext): number =>
      (context.upstream as unknown as LoaderWithPrivateState).callsSoFar();
    expect(await dryRun('usesLoaderState', calls)).toEqual({ kind: 'unknown', missing: undefined });
  });

  it('works on the loader itself: the TypeError is the proxy’s, which only the dry run has', () => {
    expect(new LoaderWithPrivateState().callsSoFar()).toBe(0);
  });

  it('still costs nothing for a field that fails on its own input', async () => {
    const refuse = (): never => {
      throw new GatewayError(ErrorCode.BadUserInput, 'not a team ID');
    };
    expect(await dryRun('failsItsInput', refuse)).toEqual({ kind: 'failed' });
  });
});
