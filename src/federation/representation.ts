/**
 * What a router's entity representation names: the global ID of the entity
 * it stands for, read from either key of the subgraph (src/federation/subgraph-sdl.ts):
 *
 * - `{ __typename, id }`: the global ID itself. `__typename` may be the
 *   entity's type or an interface it implements (`Team`, `Node`); the ID's
 *   own type must be that type or one of its implementations.
 * - `{ __typename, ref: { version, nativeId, sport } }`: the upstream's own
 *   ID, for the types in `nativeKeyTypes`. The version must be the type's;
 *   the sport is the version's slug (`ice-hockey` on V2), and may be left
 *   null on types served under one slug only.
 *
 * Both become the same global ID that `node(id:)` takes, so an entity is
 * found by the same sources, loaders, cache and ledger whatever the key;
 * and the version stays part of it, so equal native IDs of two versions
 * never meet.
 */
import { isAbstractType, isObjectType, type GraphQLSchema } from 'graphql';
import { fromGlobalId, toGlobalId, type GlobalId } from '../model/global-id.js';
import { ErrorCode, GatewayError } from '../upstream/errors.js';
import { nativeKeyTypes } from './subgraph-sdl.js';

/** Whether `typeName` is `abstractName` or one of its implementations. */
export type IsPossibleType = (abstractName: string, typeName: string) => boolean;

const bad = (message: string): GatewayError => new GatewayError(ErrorCode.BadUserInput, message);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The representation's `__typename`, or BAD_USER_INPUT. */
export function representedType(representation: unknown): string {
  if (!isRecord(representation) || typeof representation['__typename'] !== 'string') {
    throw bad('An entity representation must be an object with a `__typename`.');
  }
  return representation['__typename'];
}

/** The type's native key; own entries only, so a client's `__typename` of `constructor` finds none. */
const nativeKeyOf = (typeName: string): (typeof nativeKeyTypes)[string] | undefined =>
  Object.hasOwn(nativeKeyTypes, typeName) ? nativeKeyTypes[typeName] : undefined;

function fromRef(typeName: string, ref: unknown): GlobalId {
  const key = nativeKeyOf(typeName);
  if (key === undefined) throw bad(`${typeName} has no \`ref\` key: represent it by its \`id\`.`);
  if (!isRecord(ref))
    throw bad(`The \`ref\` of a ${typeName} representation must be an object { version nativeId sport }.`);
  const { version, nativeId, sport } = ref;
  if (version !== key.version.toUpperCase()) {
    throw bad(
      `A ${typeName} is a ${key.version.toUpperCase()} entity: its \`ref.version\` must be ${key.version.toUpperCase()}.`,
    );
  }
  if (typeof nativeId !== 'string' || nativeId === '')
    throw bad(`The \`ref.nativeId\` of a ${typeName} representation must be a non-empty string.`);
  if (sport !== null && sport !== undefined && typeof sport !== 'string')
    throw bad(`The \`ref.sport\` of a ${typeName} representation must be a string.`);
  const slug = sport ?? key.sport;
  if (slug === undefined || slug === '')
    throw bad(`A ${typeName} representation needs \`ref.sport\`: the ${key.version.toUpperCase()} slug of its sport.`);
  if (key.sport !== undefined && slug !== key.sport)
    throw bad(`A ${typeName} is served under the sport \`${key.sport}\` only.`);
  const id: GlobalId = { version: key.version, sport: slug, typeName, nativeId };
  // Through the ID's own parser, so that a sport slug it would refuse is refused here too.
  return fromGlobalId(toGlobalId(id));
}

/**
 * The global ID a representation names, or BAD_USER_INPUT saying what is
 * wrong with it. Nothing is loaded.
 */
export function representedId(representation: unknown, isPossibleType: IsPossibleType): GlobalId {
  const typeName = representedType(representation);
  const fields = representation as Record<string, unknown>;
  if (fields['id'] !== undefined && fields['id'] !== null) {
    if (typeof fields['id'] !== 'string') throw bad(`The \`id\` of a ${typeName} representation must be a string.`);
    const id = fromGlobalId(fields['id']);
    if (!isPossibleType(typeName, id.typeName)) throw bad(`This ID names a ${id.typeName}, not a ${typeName}.`);
    return id;
  }
  if (fields['ref'] !== undefined && fields['ref'] !== null) return fromRef(typeName, fields['ref']);
  throw bad(
    nativeKeyOf(typeName) === undefined
      ? `A ${typeName} representation needs its \`id\`.`
      : `A ${typeName} representation needs its \`id\` or its \`ref { version nativeId sport }\`.`,
  );
}

/**
 * Whether `typeName` is `abstractName` or one of its implementations, in
 * `schema` (whose type map has no prototype: a client's `constructor` is
 * no type). The estimate and execution ask the same schema.
 */
export const possibleInSchema =
  (schema: GraphQLSchema): IsPossibleType =>
  (abstractName, typeName) => {
    if (abstractName === typeName) return true;
    const abstract = schema.getType(abstractName);
    const concrete = schema.getType(typeName);
    return (
      abstract !== undefined &&
      abstract !== null &&
      isAbstractType(abstract) &&
      isObjectType(concrete) &&
      schema.isSubType(abstract, concrete)
    );
  };

/** The global ID as text (what `nodes(ids:)` takes), or undefined when the representation is refused. */
export function representedGlobalId(representation: unknown, isPossibleType: IsPossibleType): string | undefined {
  try {
    return toGlobalId(representedId(representation, isPossibleType));
  } catch {
    return undefined;
  }
}
