/**
 * Field resolvers made aware of dropped payload parts
 * (src/upstream/degraded-parts.ts): a field that answers null where its
 * upstream part was malformed and dropped raises the coded
 * UPSTREAM_INVALID_RESPONSE error at its own path instead of a silent null.
 *
 * The part is found by the field's name on the parent, or on the parent's
 * `value` (the `{ slug, value }` models of V2 and V6 entities). A field read
 * from a part of another name reads it with `readPart` in its resolver.
 */
import { defaultFieldResolver, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import {
  anyDegradedParts,
  degradationError,
  degradedPart,
  firstDegradedPart,
  type DegradedPart,
} from '../upstream/degraded-parts.js';
import { isObject } from '../upstream/routes/route.js';
import { droppableKeyNames } from '../upstream/routes/shape.js';

/**
 * Fields computed from parts of other names (or from several parts), by
 * `Type.field`: each raises its part's error whenever one of them (or a part
 * inside one) was dropped, whatever it computed without it (a list that
 * would read as empty, an image URL without its version, a derived number).
 * Dotted names reach into nested parts.
 */
const FED_BY: Readonly<Record<string, readonly string[]>> = {
  'V1WorldCupMatch.venueName': ['venue'],
  'V1WorldCupMatch.minute': ['gameTime'],
  'V1FootballCompetitor.image': ['imageVersion'],
  'V1HockeyCompetitor.image': ['imageVersion'],
  'V1HockeyAthlete.image': ['imageVersion'],
  // The team is built in its parent's resolver: its image's version is the team's part.
  'V1HockeyAthlete.team': ['team'],
  'V1WorldCupGame.venue': ['game.venue'],
  'V6TeamStats.fullMatch': ['team.matchStats.0'],
  'V6TeamStats.firstHalf': ['team.matchStats.1'],
  'V6TeamStats.secondHalf': ['team.matchStats.2'],
  'V1HockeyAthlete.statistics': ['statistics'],
  'V1HockeyStandingsEntry.goalDifference': ['goalsFor', 'goalsAgainst'],
  'V1HockeyLines.moneyline': ['lines.markets.moneyline'],
  'V1HockeyLines.puckLine': ['lines.markets.puckLine'],
  'V1HockeyLines.totalGoals': ['lines.markets.totalGoals'],
  'V1LineupPlayer.position': ['formation'],
  'V2Tournament.categoryInfo': ['category'],
  'V2Event.status': ['status'],
  'V2Event.tournament': ['tournament.uniqueTournament'],
  'V2Event.winner': ['winnerCode'],
  'V2Event.homeScore': ['homeScore'],
  'V2Event.awayScore': ['awayScore'],
  'V2Event.homePeriodScores': ['homeScore'],
  'V2Event.awayPeriodScores': ['awayScore'],
  'V2Event.round': ['roundInfo'],
  'V2Rounds.current': ['currentRound'],
  'BaseballLineupPlayer.statistics': ['statistics'],
  'BaseballTeamLineup.supportStaff': ['supportStaff'],
};

/**
 * Fields of a droppable name (some payload check has an optional part of
 * that name elsewhere) whose parent values all come from payload checks
 * that hold that part strictly: no drop can land there, so the field keeps
 * no resolver, which graphql-jit reads as a property instead of calling a
 * resolver with a resolve info built per list item (32 standings entries,
 * 32 World Cup rows per operation of the bench's query). Where the values
 * come from is listed with each; strict-parts.test.ts refuses a payload of
 * each of those routes with the part malformed, so a check that made one
 * optional fails there instead of answering a silent null.
 */
export const STRICT_PARTS: ReadonlySet<string> = new Set([
  // V1 hockey standings entries (v1Routes.standings, also behind node(id:) of a competitor).
  'V1HockeyStandingsEntry.position',
  'V1HockeyCompetitor.name',
  // World Cup groups' rows: the standings routes and the hub, one row shape.
  'V1WorldCupStandingsRow.position',
]);

/** The dropped part at `path` below `owner`, or one inside the part there. */
function degradedBelow(owner: unknown, path: readonly string[]): DegradedPart | undefined {
  let parent = owner;
  for (const key of path.slice(0, -1)) parent = isObject(parent) ? parent[key] : undefined;
  const key = path[path.length - 1]!;
  return degradedPart(parent, key) ?? (isObject(parent) ? firstDegradedPart(parent[key]) : undefined);
}

/** The part's own holder, or the `{ slug, value }` model's value. */
function holders(source: unknown): unknown[] {
  return isObject(source) && isObject(source['value']) ? [source, source['value']] : [source];
}

function degradationAware(
  resolve: GraphQLFieldResolver<unknown, unknown>,
  fedBy: ReadonlyArray<readonly string[]> | undefined,
): GraphQLFieldResolver<unknown, unknown> {
  if (fedBy !== undefined) {
    return (source, args, context, info) => {
      if (!anyDegradedParts()) return resolve(source, args, context, info);
      for (const holder of holders(source)) {
        for (const path of fedBy) {
          const part = degradedBelow(holder, path);
          if (part !== undefined) throw degradationError(part);
        }
      }
      return resolve(source, args, context, info);
    };
  }
  return (source, args, context, info) => {
    const value: unknown = resolve(source, args, context, info);
    // Only a plain null: a promise is a load of its own, whose parts are checked where they are read.
    if ((value === undefined || value === null) && anyDegradedParts()) {
      for (const holder of holders(source)) {
        const part = degradedPart(holder, info.fieldName);
        if (part !== undefined) throw degradationError(part);
      }
    }
    return value;
  };
}

/**
 * Wraps every object field's resolver (in place, as graphql-tools does).
 * A field with no resolver of its own is wrapped only when a payload check
 * can drop a part of its name (shape.ts's droppableKeyNames) and its parent
 * type's payloads do not hold that part strictly (STRICT_PARTS): the others
 * stay resolver-less, which graphql-jit compiles to a property read instead
 * of a call with its resolve info (about 15 % of an executed operation's
 * CPU on the bench's query).
 */
export function withDegradedParts<S extends GraphQLSchema>(schema: S): S {
  const droppable = droppableKeyNames();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const coordinate = `${type.name}.${field.name}`;
      const fedBy = FED_BY[coordinate]?.map((path) => path.split('.'));
      if (
        field.resolve === undefined &&
        fedBy === undefined &&
        (!droppable.has(field.name) || STRICT_PARTS.has(coordinate))
      )
        continue;
      field.resolve = degradationAware(field.resolve ?? defaultFieldResolver, fedBy);
    }
  }
  return schema;
}
