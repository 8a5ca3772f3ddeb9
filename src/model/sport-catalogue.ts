/**
 * Which `/reference/sports` entry a field's sport arguments name, and that
 * entry's slug on one version. The catalogue is the only source of slugs
 * (free, cached a day): no slug is ever derived from an enum name.
 *
 * A catalogue key stands for a `Sport` enum value when it is the same words
 * whatever the case and separators (`ice_hockey`, `ice-hockey`, `Ice Hockey`
 * are all ICE_HOCKEY). A key spelled otherwise (`icehockey`, `padel`) is a
 * sport the enum does not know: still listed by `sports`, and reached by
 * `sportKey`, the key exactly as the catalogue gives it.
 */
import { isEnumType, type GraphQLSchema } from 'graphql';
import type { LoaderPort } from '../loaders/loader-ports.js';
import { ErrorCode, GatewayError } from '../upstream/errors.js';
import { referenceRoutes, type SportReference } from '../upstream/routes/reference.js';
import { nearestName } from './nearest-name.js';

export type SlugVersion = keyof SportReference['slugs'];

/** What a field's arguments named: a `Sport` enum value or a catalogue key, never both. */
export type SportChoice =
  | { readonly sport: string; readonly key?: undefined }
  | { readonly key: string; readonly sport?: undefined };

/** A catalogue entry and the enum value it stands for (null when the enum has none). */
export interface CatalogueSport {
  readonly entry: SportReference;
  readonly sport: string | null;
}

/** The enum spelling of a catalogue key: `ice-hockey` -> `ICE_HOCKEY`. */
export function enumSpelling(key: string): string {
  return key
    .trim()
    .toUpperCase()
    .replace(/[\s_-]+/g, '_');
}

/** The entry of an enum value: its own lower-case key first, then a key spelled with other case or separators. */
export function entryOfSport(entries: readonly SportReference[], sport: string): SportReference | undefined {
  const own = sport.toLowerCase();
  return entries.find((entry) => entry.sport === own) ?? entries.find((entry) => enumSpelling(entry.sport) === sport);
}

/** The entry a choice names, if the catalogue lists it: a key exactly, an enum value as `entryOfSport` finds it. */
export function findEntry(entries: readonly SportReference[], choice: SportChoice): SportReference | undefined {
  return choice.key !== undefined
    ? entries.find((entry) => entry.sport === choice.key)
    : entryOfSport(entries, choice.sport);
}

/** The enum value an entry stands for: its spelling, when the enum has it and no other entry claims it first. */
export function sportOfEntry(
  entries: readonly SportReference[],
  entry: SportReference,
  enumValues: ReadonlySet<string>,
): string | null {
  const spelled = enumSpelling(entry.sport);
  return enumValues.has(spelled) && entryOfSport(entries, spelled) === entry ? spelled : null;
}

const enumValuesBySchema = new WeakMap<GraphQLSchema, ReadonlySet<string>>();

/** The values of the schema's `Sport` enum. */
export function sportEnumValues(schema: GraphQLSchema): ReadonlySet<string> {
  let values = enumValuesBySchema.get(schema);
  if (values === undefined) {
    const type = schema.getType('Sport');
    values = new Set(isEnumType(type) ? type.getValues().map((value) => value.name) : []);
    enumValuesBySchema.set(schema, values);
  }
  return values;
}

export async function catalogueEntries(ctx: LoaderPort): Promise<readonly SportReference[]> {
  return (await ctx.upstream.load(referenceRoutes.sports, {})).sports;
}

export interface SportArgNames {
  readonly sport: string;
  readonly sportKey: string;
}

const SPORT_ARGS: SportArgNames = { sport: 'sport', sportKey: 'sportKey' };

/** Exactly one of the enum and the key: BAD_USER_INPUT otherwise, before anything is requested. */
export function sportChoice(
  args: { readonly sport?: string | null | undefined; readonly sportKey?: string | null | undefined },
  names: SportArgNames = SPORT_ARGS,
): SportChoice {
  const { sport, sportKey } = args;
  if (sport != null && sportKey != null) {
    throw new GatewayError(ErrorCode.BadUserInput, `Give ${names.sport} or ${names.sportKey}, not both.`);
  }
  if (sport != null) return { sport };
  if (sportKey == null) {
    throw new GatewayError(
      ErrorCode.BadUserInput,
      `Give ${names.sport} (a Sport value) or ${names.sportKey} (a catalogue key, as \`sports { key }\` lists it).`,
    );
  }
  if (sportKey.trim() === '') throw new GatewayError(ErrorCode.BadUserInput, `${names.sportKey} must not be empty.`);
  return { key: sportKey };
}

const suggestion = (wanted: string, entries: readonly SportReference[]): string => {
  const nearest = nearestName(
    wanted,
    entries.map((entry) => entry.sport),
  );
  return nearest === undefined
    ? 'see `sports { key }`'
    : `nearest key: \`${nearest}\`, query it with sportKey: "${nearest}"`;
};

/**
 * The entry a choice names. A key the catalogue does not list is the
 * client's mistake (BAD_USER_INPUT); an enum value it does not list is a
 * sport the upstream does not carry under that name (NOT_SUPPORTED, naming
 * the key that was looked for).
 */
export async function chosenEntry(
  ctx: LoaderPort,
  choice: SportChoice,
  version?: SlugVersion,
): Promise<SportReference> {
  const entries = await catalogueEntries(ctx);
  const entry = findEntry(entries, choice);
  if (entry !== undefined) return entry;
  if (choice.key !== undefined) {
    throw new GatewayError(
      ErrorCode.BadUserInput,
      `The sport catalogue has no key \`${choice.key}\` (${suggestion(choice.key, entries)}).`,
    );
  }
  const key = choice.sport.toLowerCase();
  throw new GatewayError(
    ErrorCode.NotSupported,
    `The sport catalogue (/reference/sports) has no entry for ${choice.sport}: looked for key \`${key}\` (${suggestion(key, entries)}).`,
    {
      ...(version === undefined ? {} : { version }),
      alternative: 'sports { key sport slugs { v1 v2 v3 v4 v6 } }',
      catalogueEntry: { key, listed: false, ...(version === undefined ? {} : { slugField: `slugs.${version}` }) },
    },
  );
}

/** The entry's slug on a version; NOT_SUPPORTED naming the entry and its empty slug field when the version does not carry it. */
export function slugOf(entry: SportReference, version: SlugVersion): string {
  const slug = entry.slugs[version];
  if (slug == null || slug === '') {
    const slugField = `slugs.${version}`;
    throw new GatewayError(
      ErrorCode.NotSupported,
      `${version.toUpperCase()} does not carry ${entry.name}: catalogue entry \`${entry.sport}\` has no ${slugField}.`,
      {
        version,
        alternative: `sports { key slugs { ${version} } }`,
        catalogueEntry: { key: entry.sport, listed: true, slugField },
      },
    );
  }
  return slug;
}

/** The version's slug for a choice, read from the catalogue. */
export async function slugOn(ctx: LoaderPort, choice: SportChoice, version: SlugVersion): Promise<string> {
  return slugOf(await chosenEntry(ctx, choice, version), version);
}

/** The entry a choice names and the enum value it stands for (for an enum choice, the given one). */
export async function chosenSport(
  ctx: LoaderPort,
  choice: SportChoice,
  schema: GraphQLSchema,
  version?: SlugVersion,
): Promise<CatalogueSport> {
  const entry = await chosenEntry(ctx, choice, version);
  return { entry, sport: sportOfEntry(await catalogueEntries(ctx), entry, sportEnumValues(schema)) };
}
