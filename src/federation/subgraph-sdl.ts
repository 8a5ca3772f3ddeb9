/**
 * The subgraph's SDL: the stand-alone schema's own type definitions
 * (schema/*.graphql, untouched) with the Federation v2 directives a router
 * composes from, added here so that `/graphql` stays free of them.
 *
 * - `@link` to Federation v2.3, the first version with `@key` on interfaces.
 * - `@key(fields: "id")` on every type that implements `Node` (the global ID
 *   says version, type and native ID, so any one ID finds its entity), and on
 *   every interface whose implementations are all `Node` types (`Node`,
 *   `Team`, `Person`, ...): another subgraph may hold a `Team` by its ID
 *   through `@interfaceObject` without knowing which version it is.
 * - `@key(fields: "ref { version nativeId sport }")` on the types another
 *   subgraph can know by the upstream's own ID (`nativeKeyTypes`).
 * - `@shareable` on value types that other subgraphs may define alike.
 * - `@tag(name:)` on each group of fields (`fieldGroups`), and
 *   `@inaccessible` on the groups the configuration hides
 *   (`FEDERATION_HIDDEN`), which keeps them out of the supergraph's API.
 */
import {
  concatAST,
  Kind,
  parse,
  visit,
  type ConstDirectiveNode,
  type DocumentNode,
  type FieldDefinitionNode,
  type InterfaceTypeDefinitionNode,
  type ObjectTypeDefinitionNode,
} from 'graphql';
import { FIELD_GROUPS, type FieldGroup } from '../config/federation.js';
import type { Version } from '../upstream/routes/route.js';

export const FEDERATION_SPEC_URL = 'https://specs.apollo.dev/federation/v2.3';

/** The version-native key: what the schema's `Ref` offers, as other subgraphs store it. */
export const NATIVE_KEY_FIELDS = 'ref { version nativeId sport }';

/**
 * Node types that the upstream's own ID finds again with nothing else (a
 * route of their own), with their version and, where the type has one, the
 * only sport slug it is served under. Types found only inside a listing or a
 * parent (a V1 hockey competitor in its league table, a venue in its team,
 * a V3 team in its event) have no native key: their global `id` carries
 * where they were listed.
 */
export const nativeKeyTypes: Readonly<Record<string, { readonly version: Version; readonly sport?: string }>> = {
  V1HockeyAthlete: { version: 'v1', sport: 'hockey' },
  V1WorldCupMatch: { version: 'v1', sport: 'football' },
  V1WorldCupGame: { version: 'v1', sport: 'football' },
  V1FootballCompetitor: { version: 'v1', sport: 'football' },
  V2Team: { version: 'v2' },
  V2Player: { version: 'v2' },
  V2Tournament: { version: 'v2' },
  V2Manager: { version: 'v2' },
  V2Event: { version: 'v2' },
  AussieRulesCoach: { version: 'v2', sport: 'aussie-rules' },
  AussieRulesUmpire: { version: 'v2', sport: 'aussie-rules' },
  AussieRulesGround: { version: 'v2', sport: 'aussie-rules' },
  MotorsportStage: { version: 'v2', sport: 'motorsport' },
  V3Event: { version: 'v3' },
  V6BaseballMatch: { version: 'v6', sport: 'baseball' },
  V6MatchTeamStats: { version: 'v6', sport: 'football' },
};

/** Value types without identity, which another subgraph may also resolve (`@shareable`). */
export const shareableTypes: readonly string[] = [
  'Ref',
  'Image',
  'Coordinates',
  'EventStatus',
  'PageInfo',
  // Money-like odds values.
  'Moneyline',
  'PuckLine',
  'TotalGoals',
  'OddsOutcome',
  'V4Outcome',
  'V4BestPrice',
];

export { FIELD_GROUPS, type FieldGroup };

interface GroupMembers {
  /** `Type.field` */
  readonly fields?: readonly string[];
  /** Every field of this name, on any type. */
  readonly fieldNamed?: string;
  /** Types reached only through the group's fields. */
  readonly types?: readonly string[];
}

/**
 * - `operational`: the gateway's own state (the allowance, what a query
 *   would cost), which means nothing to a supergraph's clients.
 * - `raw`: the upstream payload as JSON, beside the modelled fields.
 */
export const fieldGroups: Readonly<Record<FieldGroup, GroupMembers>> = {
  operational: {
    fields: ['Query.quota', 'Subscription.quotaUpdates', 'HockeyV2Team.seasonAggregatesCost'],
    types: ['Quota', 'Plan', 'HockeySeasonAggregatesCost'],
  },
  raw: { fieldNamed: 'raw' },
};

export interface SubgraphSdlOptions {
  /** Groups marked `@inaccessible`. */
  readonly hidden: readonly FieldGroup[];
}

const stringArg = (name: string, value: string) =>
  ({
    kind: Kind.ARGUMENT,
    name: { kind: Kind.NAME, value: name },
    value: { kind: Kind.STRING, value },
  }) as const;

function directive(name: string, args: Readonly<Record<string, string>> = {}): ConstDirectiveNode {
  return {
    kind: Kind.DIRECTIVE,
    name: { kind: Kind.NAME, value: name },
    arguments: Object.entries(args).map(([argName, value]) => stringArg(argName, value)),
  };
}

const implementsNode = (node: ObjectTypeDefinitionNode): boolean =>
  (node.interfaces ?? []).some((i) => i.name.value === 'Node');

/** Interfaces whose implementations all implement `Node` (and `Node` itself): each gets the `id` key. */
function entityInterfaces(document: DocumentNode): Set<string> {
  const interfaces = new Set<string>();
  const notEntity = new Set<string>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.INTERFACE_TYPE_DEFINITION) interfaces.add(definition.name.value);
    if (definition.kind === Kind.OBJECT_TYPE_DEFINITION && !implementsNode(definition)) {
      for (const implemented of definition.interfaces ?? []) notEntity.add(implemented.name.value);
    }
    if (
      definition.kind === Kind.INTERFACE_TYPE_DEFINITION &&
      !(definition.fields ?? []).some((f) => f.name.value === 'id')
    ) {
      notEntity.add(definition.name.value);
    }
  }
  return new Set([...interfaces].filter((name) => !notEntity.has(name)));
}

/** `typeDefs` (the stand-alone schema's) as a Federation v2 subgraph document. */
export function subgraphDocument(typeDefs: readonly string[], options: SubgraphSdlOptions): DocumentNode {
  const document = concatAST(typeDefs.map((source) => parse(source, { noLocation: true })));
  const interfaceEntities = entityInterfaces(document);
  const hidden = new Set(options.hidden);
  const groupsOfField = (typeName: string, field: FieldDefinitionNode): FieldGroup[] =>
    FIELD_GROUPS.filter((group) => {
      const members = fieldGroups[group];
      return (
        members.fields?.includes(`${typeName}.${field.name.value}`) === true || members.fieldNamed === field.name.value
      );
    });
  const groupsOfType = (typeName: string): FieldGroup[] =>
    FIELD_GROUPS.filter((group) => fieldGroups[group].types?.includes(typeName) === true);
  const marks = (groups: readonly FieldGroup[]): ConstDirectiveNode[] => [
    ...groups.map((group) => directive('tag', { name: group })),
    ...(groups.some((group) => hidden.has(group)) ? [directive('inaccessible')] : []),
  ];
  const withFieldMarks = (typeName: string, fields: readonly FieldDefinitionNode[] | undefined) =>
    fields?.map((field) => {
      const added = marks(groupsOfField(typeName, field));
      return added.length === 0 ? field : { ...field, directives: [...(field.directives ?? []), ...added] };
    });
  const keysOf = (typeName: string, isEntity: boolean): ConstDirectiveNode[] => {
    if (!isEntity) return [];
    const keys = [directive('key', { fields: 'id' })];
    if (nativeKeyTypes[typeName] !== undefined) keys.push(directive('key', { fields: NATIVE_KEY_FIELDS }));
    return keys;
  };
  const typeDirectives = (typeName: string, isEntity: boolean, isDefinition: boolean): ConstDirectiveNode[] => [
    ...(isDefinition ? keysOf(typeName, isEntity) : []),
    // On every definition and extension: `@shareable` on a type covers the fields declared beside it only.
    ...(shareableTypes.includes(typeName) ? [directive('shareable')] : []),
    ...(isDefinition ? marks(groupsOfType(typeName)) : []),
  ];

  const federated = visit(document, {
    ObjectTypeDefinition: (node) => ({
      ...node,
      directives: [...(node.directives ?? []), ...typeDirectives(node.name.value, implementsNode(node), true)],
      fields: withFieldMarks(node.name.value, node.fields),
    }),
    ObjectTypeExtension: (node) => ({
      ...node,
      directives: [...(node.directives ?? []), ...typeDirectives(node.name.value, false, false)],
      fields: withFieldMarks(node.name.value, node.fields),
    }),
    InterfaceTypeDefinition: (node: InterfaceTypeDefinitionNode) => ({
      ...node,
      directives: [
        ...(node.directives ?? []),
        ...(interfaceEntities.has(node.name.value) ? [directive('key', { fields: 'id' })] : []),
      ],
      fields: withFieldMarks(node.name.value, node.fields),
    }),
    EnumTypeDefinition: (node) => ({
      ...node,
      directives: [...(node.directives ?? []), ...marks(groupsOfType(node.name.value))],
    }),
  });
  const link = parse(
    `extend schema @link(url: "${FEDERATION_SPEC_URL}", import: ["@key", "@shareable", "@inaccessible", "@tag"])`,
    {
      noLocation: true,
    },
  );
  return concatAST([link, federated]);
}
