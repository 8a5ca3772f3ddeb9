/**
 * A decision that depends on the parsed document and the operation name
 * alone, made once per document instead of on every request: yoga's parse
 * cache hands every request with the same query text the same DocumentNode,
 * so the executing gateway walked the same tree again for each operation
 * (whether it is introspection only, its `quota` selections).
 *
 * Keyed by the document object (a WeakMap: a document yoga's cache drops
 * takes its decisions with it), then by operation name. No schema goes into
 * a decision made here; one that reads the schema does not belong here.
 * Documents are never mutated once parsed (graphql-js's AST is read-only by
 * contract), so a document object's decisions cannot go stale.
 */
import type { DocumentNode } from 'graphql';

/** Operation names kept per document: a client may send one document with any name, and a name it does not define decides nothing new. */
const MAX_NAMES_PER_DOCUMENT = 8;

export type OperationDecision<T> = (document: DocumentNode, operationName: string | null | undefined) => T;

export function perOperation<T>(decide: OperationDecision<T>): OperationDecision<T> {
  // Boxed: a decision may itself be undefined (no `quota` selections).
  const byDocument = new WeakMap<DocumentNode, Map<string | null, { readonly decided: T }>>();
  return (document, operationName) => {
    const name = operationName ?? null;
    let byName = byDocument.get(document);
    if (byName === undefined) {
      byName = new Map();
      byDocument.set(document, byName);
    }
    const known = byName.get(name);
    if (known !== undefined) return known.decided;
    const decided = decide(document, operationName);
    if (byName.size < MAX_NAMES_PER_DOCUMENT) byName.set(name, { decided });
    return decided;
  };
}
