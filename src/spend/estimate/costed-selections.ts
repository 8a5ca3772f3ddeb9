/**
 * The part of an operation the estimate (estimate.ts) can find a cost in,
 * computed once per document and reused by every request that sends it.
 *
 * The estimate walks every selected field; a field with no cost-table
 * entry and nothing costed below it always adds 0, whatever the variables
 * and the cache hold. Such fields are dropped here, fragment spreads become
 * inline fragments (same type condition, the spread's own `@skip`/
 * `@include`), and what is left is what the estimate needs to walk: for the
 * bench's representative query, a few fields out of about seventy.
 * Everything that depends on variables or on what is cached (arguments,
 * `@skip`/`@include`, list sizes, probes) is still decided per request by
 * the estimate itself, on this smaller tree.
 *
 * Keyed by the document object (yoga's parse cache hands the same object
 * to every request with the same text), then by operation name, and
 * checked against the schema and cost table it was made for, so that
 * another schema (/subgraph's) or table is never served this one's plan.
 */
import {
  getNamedType,
  isAbstractType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  typeFromAST,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import type { FieldCost } from './cost-rule.js';

interface Plan {
  readonly schema: GraphQLSchema;
  readonly costs: Readonly<Record<string, FieldCost>>;
  /** The operation as parsed, and its costed part. */
  readonly source: OperationDefinitionNode;
  readonly operation: OperationDefinitionNode;
}

const plans = new WeakMap<DocumentNode, Map<string | null, Plan>>();

/**
 * `operation` with only its costed selections, spreads inlined: walked by
 * estimateOperation with no fragments, it gives the estimate the whole
 * operation would.
 */
export function costedOperation(
  schema: GraphQLSchema,
  costs: Readonly<Record<string, FieldCost>>,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): OperationDefinitionNode {
  const name = operation.name?.value ?? null;
  let byName = plans.get(document);
  const known = byName?.get(name);
  if (known !== undefined && known.schema === schema && known.costs === costs && known.source === operation)
    return known.operation;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const root = schema.getRootType(operation.operation);
  const selectionSet =
    (root == null ? undefined : costedSet({ schema, costs, fragments }, root, operation.selectionSet, new Set())) ??
    emptySet;
  const costed: OperationDefinitionNode = { ...operation, selectionSet };
  if (byName === undefined) {
    byName = new Map();
    plans.set(document, byName);
  }
  byName.set(name, { schema, costs, source: operation, operation: costed });
  return costed;
}

const emptySet: SelectionSetNode = { kind: Kind.SELECTION_SET, selections: [] };

interface Scope {
  readonly schema: GraphQLSchema;
  readonly costs: Readonly<Record<string, FieldCost>>;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
}

/** The costed selections of `set` on `type`, or undefined when none is. `inFragments`: spreads being expanded (a cycle ends there). */
function costedSet(
  scope: Scope,
  type: GraphQLCompositeType,
  set: SelectionSetNode,
  inFragments: ReadonlySet<string>,
): SelectionSetNode | undefined {
  const selections: SelectionNode[] = [];
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const field = isObjectType(type) || isInterfaceType(type) ? type.getFields()[selection.name.value] : undefined;
      if (field === undefined) continue;
      const returned = getNamedType(field.type);
      const children =
        selection.selectionSet !== undefined && isCompositeType(returned)
          ? costedSet(scope, returned, selection.selectionSet, inFragments)
          : undefined;
      if (hasEntries(scope, type, selection.name.value)) {
        // Its own cost counts; an empty selection set keeps it a composite field with children costing 0.
        selections.push(
          selection.selectionSet === undefined ? selection : { ...selection, selectionSet: children ?? emptySet },
        );
      } else if (children !== undefined) {
        selections.push({ ...selection, selectionSet: children });
      }
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const on = selection.typeCondition === undefined ? type : typeFromAST(scope.schema, selection.typeCondition);
      const children =
        on !== undefined && isCompositeType(on) ? costedSet(scope, on, selection.selectionSet, inFragments) : undefined;
      if (children !== undefined) selections.push({ ...selection, selectionSet: children });
    } else {
      const fragment = scope.fragments.get(selection.name.value);
      if (fragment === undefined || inFragments.has(fragment.name.value)) continue;
      const on = typeFromAST(scope.schema, fragment.typeCondition);
      const children =
        on !== undefined && isCompositeType(on)
          ? costedSet(scope, on, fragment.selectionSet, new Set([...inFragments, fragment.name.value]))
          : undefined;
      if (children !== undefined) {
        selections.push({
          kind: Kind.INLINE_FRAGMENT,
          typeCondition: fragment.typeCondition,
          ...(selection.directives === undefined ? {} : { directives: selection.directives }),
          selectionSet: children,
        });
      }
    }
  }
  return selections.length === 0 ? undefined : { kind: Kind.SELECTION_SET, selections };
}

/** As the estimate finds entries: the type's own, or any implementation's. */
function hasEntries(scope: Scope, type: GraphQLCompositeType, name: string): boolean {
  const types = isAbstractType(type) ? scope.schema.getPossibleTypes(type) : [type];
  return types.some((t) => scope.costs[`${t.name}.${name}`] !== undefined);
}
