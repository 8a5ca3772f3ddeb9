/**
 * `quota` shows the allowance as it stands after the operation's own
 * counted requests, as `extensions.cost.allowanceRemaining` does. graphql-js
 * resolves root fields side by side, so the `quota` resolver reads the
 * ledger before its siblings' requests have been sent: `{ athlete(...) {
 * name } quota { used } }` would show what the operation found, not what
 * it left. Once execution is done, the operation's `quota` selections (with
 * their aliases, fragments and directives) are executed again on their own
 * and their values replace the early ones.
 */
import {
  executeSync,
  getOperationAST,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type InlineFragmentNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { perOperation } from './per-operation.js';

const QUOTA_FIELD = 'quota';

/** The root selections that reach `quota`, nothing else; fragment spreads at the root become inline fragments holding only those. */
function quotaSelections(
  selectionSet: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  seen: ReadonlySet<string>,
): SelectionNode[] {
  const kept: SelectionNode[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value === QUOTA_FIELD) kept.push(selection);
      continue;
    }
    let inner: SelectionSetNode;
    let inline: Omit<InlineFragmentNode, 'selectionSet'>;
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      inner = selection.selectionSet;
      inline = selection;
    } else {
      const fragment = fragments.get(selection.name.value);
      // A cycle or an unknown fragment never passed validation; nothing to add either way.
      if (fragment === undefined || seen.has(fragment.name.value)) continue;
      inner = fragment.selectionSet;
      inline = {
        kind: Kind.INLINE_FRAGMENT,
        typeCondition: fragment.typeCondition,
        directives: selection.directives ?? [],
      };
      seen = new Set([...seen, fragment.name.value]);
    }
    const selections = quotaSelections(inner, fragments, seen);
    if (selections.length > 0) kept.push({ ...inline, selectionSet: { kind: Kind.SELECTION_SET, selections } });
  }
  return kept;
}

/** A document running only the operation's `quota` selections (its fragments kept for what `quota { ... }` spreads), or undefined when there are none. */
export function quotaOnlyDocument(
  document: DocumentNode,
  operationName: string | null | undefined,
): DocumentNode | undefined {
  const operation = getOperationAST(document, operationName);
  if (operation === null || operation === undefined || operation.operation !== 'query') return undefined;
  const fragmentDefinitions = document.definitions.filter(
    (definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION,
  );
  const fragments = new Map(fragmentDefinitions.map((fragment) => [fragment.name.value, fragment]));
  const selections = quotaSelections(operation.selectionSet, fragments, new Set());
  if (selections.length === 0) return undefined;
  return {
    kind: Kind.DOCUMENT,
    definitions: [{ ...operation, selectionSet: { kind: Kind.SELECTION_SET, selections } }, ...fragmentDefinitions],
  };
}

/** Once per document (src/plugins/per-operation.ts): every executed operation asks, and most have no `quota`. */
const quotaOnly = perOperation(quotaOnlyDocument);

export function useQuotaAfterSpend(): Plugin {
  return {
    onExecute({ args }) {
      const document = quotaOnly(args.document, args.operationName);
      if (document === undefined) return undefined;
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result || result.data === null || result.data === undefined) return;
          // The quota resolvers read the ledger synchronously.
          const again = executeSync({ ...args, document });
          if (again.data === null || again.data === undefined || again.errors !== undefined) return;
          const data: Record<string, unknown> = { ...result.data };
          for (const [key, value] of Object.entries(again.data)) if (key in data) data[key] = value;
          setResult({ ...result, data });
        },
      };
    },
  };
}
