/**
 * Which operations the result cache may keep: queries only, and none that
 * selects a field whose value does not come from the upstream cache alone
 * (the allowance, the live ticker's clock, the image store, what the cache
 * holds right now). Such fields are matched by name at any depth: a field of
 * another type that happens to share a name is only left uncached.
 */
import { getOperationAST, Kind, type DocumentNode, type SelectionSetNode } from 'graphql';

/** Fields whose value changes without any upstream resource changing. */
export const uncacheableFields: ReadonlySet<string> = new Set([
  // The allowance ledger: every counted request moves it.
  'quota',
  // `fetchedAt` is the time of the query, `pollIntervalMs` the ticker's plan.
  'liveTicker',
  // The image service loads through the fetcher directly and keeps its own store.
  'logo',
  // Counts what the upstream cache holds at the moment of the query.
  'seasonAggregatesCost',
  // Read through the gateway-wide V6 mapping pin (src/model/v6-mapping-pin.ts),
  // which another operation moves to a new generation without any resource expiring.
  'statMapping',
  'teamStats',
]);

/** Per document, per operation name: parsed documents are reused by yoga's parse cache. */
const verdicts = new WeakMap<DocumentNode, Map<string, boolean>>();

export function isCacheableOperation(document: DocumentNode, operationName: string | null | undefined): boolean {
  let byName = verdicts.get(document);
  if (byName === undefined) {
    byName = new Map();
    verdicts.set(document, byName);
  }
  const name = operationName ?? '';
  let verdict = byName.get(name);
  if (verdict === undefined) {
    verdict = judge(document, operationName);
    byName.set(name, verdict);
  }
  return verdict;
}

function judge(document: DocumentNode, operationName: string | null | undefined): boolean {
  const operation = getOperationAST(document, operationName);
  if (operation == null || operation.operation !== 'query') return false;
  const fragments = new Map<string, SelectionSetNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition.selectionSet);
  }
  const visited = new Set<string>();
  const clean = (selectionSet: SelectionSetNode): boolean =>
    selectionSet.selections.every((selection) => {
      switch (selection.kind) {
        case Kind.FIELD:
          return (
            !uncacheableFields.has(selection.name.value) &&
            (selection.selectionSet === undefined || clean(selection.selectionSet))
          );
        case Kind.INLINE_FRAGMENT:
          return clean(selection.selectionSet);
        // The third and last kind: Kind.FRAGMENT_SPREAD.
        default: {
          const name = selection.name.value;
          if (visited.has(name)) return true;
          visited.add(name);
          const fragment = fragments.get(name);
          // An unknown fragment fails validation before execution; refuse to be safe.
          return fragment !== undefined && clean(fragment);
        }
      }
    });
  return clean(operation.selectionSet);
}
