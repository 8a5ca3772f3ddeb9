/**
 * Introspection is bounded like any other selection, and answered from a
 * result computed once.
 *
 * - No alias on or inside `__schema` and `__type`: without aliases a second
 *   `__schema` (or `fields`, `types`...) has the same response key as the
 *   first and graphql-js merges them into one execution, so an operation
 *   introspects the schema at most once. Thirty aliased `__schema` were
 *   thirty full introspections (3.5 MB) for 6.5 KB of query. Introspection
 *   tools (GraphiQL, graphql-js's `getIntrospectionQuery`, codegen) use no
 *   aliases.
 * - Depth: `LIMIT_MAX_INTROSPECTION_DEPTH` (use-operation-limits.ts); list
 *   nesting (`fields { type { fields ...`): graphql-js's
 *   MaxIntrospectionDepthRule, one of its specified rules.
 * - An operation that only introspects (`__schema`, `__type`, `__typename`
 *   at its root) depends on the schema alone: its result is kept by query
 *   text, operation name and variables, and repeated asks (every GraphiQL
 *   page load) are answered from it without executing again.
 */
import {
  getOperationAST,
  GraphQLError,
  Kind,
  type ASTVisitor,
  type DocumentNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { Code } from '../codes/error-codes.js';
import { LIMIT_REFUSAL } from './use-error-codes.js';
import { perOperation } from './per-operation.js';

const introspectionRoots = new Set(['__schema', '__type']);

/** The first aliased field on or inside an introspection field of `selectionSet`, followed through fragments. */
function aliasedIntrospection(context: ValidationContext, selectionSet: SelectionSetNode): boolean {
  // Per fragment and mode, checked once: fragments spreading fragments twice would otherwise cost 2^n.
  const checked = new Set<string>();
  const pending: Array<{ selectionSet: SelectionSetNode; inside: boolean }> = [{ selectionSet, inside: false }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    for (const selection of next.selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const inside = next.inside || introspectionRoots.has(selection.name.value);
        if (inside && selection.alias !== undefined) return true;
        if (selection.selectionSet !== undefined) pending.push({ selectionSet: selection.selectionSet, inside });
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        pending.push({ selectionSet: selection.selectionSet, inside: next.inside });
      } else {
        const key = `${next.inside ? 'in' : 'out'}:${selection.name.value}`;
        if (checked.has(key)) continue;
        checked.add(key);
        const fragment = context.getFragment(selection.name.value);
        if (fragment !== undefined && fragment !== null)
          pending.push({ selectionSet: fragment.selectionSet, inside: next.inside });
      }
    }
  }
  return false;
}

/** Refuses an operation that aliases an introspection field or anything inside one. */
export function noAliasedIntrospectionRule(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(operation) {
      if (aliasedIntrospection(context, operation.selectionSet)) {
        context.reportError(
          new GraphQLError(
            `${LIMIT_REFUSAL} introspection fields cannot be aliased (one introspection per operation).`,
            {
              nodes: [operation],
              extensions: { code: Code.OPERATION_LIMIT_EXCEEDED },
            },
          ),
        );
      }
    },
  };
}

/** Whether the operation selects only `__schema`, `__type` and `__typename` at its root, and one of the first two. */
export function isIntrospectionOnly(document: DocumentNode, operationName: string | null | undefined): boolean {
  const operation = getOperationAST(document, operationName);
  if (operation === null || operation === undefined || operation.operation !== 'query') return false;
  let introspects = false;
  const fragments = new Map(
    document.definitions.flatMap((definition) =>
      definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition] as const] : [],
    ),
  );
  const seen = new Set<string>();
  const pending: SelectionSetNode[] = [operation.selectionSet];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    for (const selection of next.selections) {
      if (selection.kind === Kind.FIELD) {
        if (introspectionRoots.has(selection.name.value)) introspects = true;
        else if (selection.name.value !== '__typename') return false;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        pending.push(selection.selectionSet);
      } else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment === undefined) return false;
        pending.push(fragment.selectionSet);
      }
    }
  }
  return introspects;
}

/** Once per document (src/plugins/per-operation.ts): every executed operation asks. */
const introspectionOnly = perOperation(isIntrospectionOnly);

export interface IntrospectionBoundsOptions {
  /** Distinct introspection operations whose results are kept. @default 16 */
  maxStoredResults?: number;
}

interface IntrospectionContext {
  params?: { query?: string };
}

export function useIntrospectionBounds({
  maxStoredResults = 16,
}: IntrospectionBoundsOptions = {}): Plugin<IntrospectionContext> {
  // `data` only: the trace plugin (before this one, src/plugins/pipeline.ts) adds this operation's own `extensions.cost` to a hit.
  const results = new LRUCache<string, { readonly data: Record<string, unknown> }>({ max: maxStoredResults });
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(noAliasedIntrospectionRule);
    },
    onExecute({ args, setResultAndStopExecution }) {
      const query = args.contextValue.params?.query;
      if (query === undefined || !introspectionOnly(args.document, args.operationName)) return undefined;
      // Variables passed the input bounds before execution (src/transport/http/input-bounds.ts): stringifying them is safe.
      const key = JSON.stringify([query, args.operationName ?? null, args.variableValues ?? null]);
      const stored = results.get(key);
      if (stored !== undefined) {
        setResultAndStopExecution({ data: stored.data });
        return undefined;
      }
      return {
        onExecuteDone({ result }) {
          if (Symbol.asyncIterator in result) return;
          if ((result.errors !== undefined && result.errors.length > 0) || result.data == null) return;
          results.set(key, { data: result.data as Record<string, unknown> });
        },
      };
    },
  };
}
