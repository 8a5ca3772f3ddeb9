/**
 * What the scorer needs of each entity type that has counterparts: its
 * version, sport slug, kind, native ID, names and country, read from the
 * model the resolvers already hold (no request). `describeNode` reads any
 * located node (node-sources.ts tags each with its type), for
 * `Query.counterparts(id:)`.
 */
import type { V2PlayerModel, V2TeamModel, V2TournamentModel } from '../model/v2-entities.js';
import type { V3TeamModel } from '../model/v3-namespace.js';
import { typeOf } from '../model/typename.js';
import type { V1Athlete, V1StandingsCompetitor } from '../upstream/routes/v1.js';
import type { V1WorldCupCompetitor, V1WorldCupMatch } from '../upstream/routes/v1-world-cup.js';
import type { GlobalId } from '../model/global-id.js';
import type { V2EventModel } from '../model/v2-event.js';
import type { V6TeamStatsModel } from '../model/v6-team-stats.js';
import type { Described, DescribedEntity, DescribedMatch, EntityKind, EntityRef } from './entity-ref.js';

export function v2TeamEntity({ slug, value }: V2TeamModel): DescribedEntity {
  return {
    version: 'v2',
    sport: slug,
    kind: 'team',
    nativeId: String(value.id),
    name: value.name,
    shortName: value.shortName,
    country: value.country?.name,
  };
}

/** A V2 tournament's country is its category's name (V2 groups tournaments by country, spec 4.8). */
export function v2TournamentEntity({ slug, value }: V2TournamentModel): DescribedEntity {
  return {
    version: 'v2',
    sport: slug,
    kind: 'competition',
    nativeId: String(value.id),
    name: value.name,
    country: value.category?.name,
  };
}

/** `countryName` comes with `/api/v1/competitor/{id}` only; listed competitors have none. */
export function v1FootballCompetitorEntity(team: V1WorldCupCompetitor & { countryName?: string }): DescribedEntity {
  return {
    version: 'v1',
    sport: 'football',
    kind: 'team',
    nativeId: String(team.id),
    name: team.name,
    shortName: team.shortName,
    country: team.countryName,
  };
}

export function v1HockeyCompetitorEntity(competitor: V1StandingsCompetitor): DescribedEntity {
  return { version: 'v1', sport: 'hockey', kind: 'team', nativeId: String(competitor.id), name: competitor.name };
}

/** A player's country is the nationality V1 gives. */
export function v1HockeyAthleteEntity(athlete: V1Athlete): DescribedEntity {
  return {
    version: 'v1',
    sport: 'hockey',
    kind: 'player',
    nativeId: String(athlete.id),
    name: athlete.name,
    country: athlete.nationality,
  };
}

export function v2PlayerEntity({ slug, value }: V2PlayerModel): DescribedEntity {
  return {
    version: 'v2',
    sport: slug,
    kind: 'player',
    nativeId: String(value.id),
    name: value.name,
    shortName: value.shortName,
    country: value.country?.name,
  };
}

/** A team in V6 team statistics: an opaque ID (spec 2.15), a name where the payload gives one, no country. */
export function v6TeamStatsEntity({ team }: V6TeamStatsModel): DescribedEntity {
  return { version: 'v6', sport: 'football', kind: 'team', nativeId: team.teamId, name: team.name ?? '' };
}

export function v3TeamEntity({ slug, value }: V3TeamModel): DescribedEntity {
  return {
    version: 'v3',
    sport: slug,
    kind: 'team',
    nativeId: String(value.id),
    name: value.name,
    shortName: value.shortName,
  };
}

export function v1WorldCupMatchEntity(match: V1WorldCupMatch): DescribedMatch {
  return {
    version: 'v1',
    sport: 'football',
    kind: 'match',
    nativeId: String(match.id),
    home: match.homeCompetitor.name,
    away: match.awayCompetitor.name,
    kickoff: Date.parse(match.startTime),
    round: match.roundNum,
    competition: { version: 'v1', sport: 'football', kind: 'competition', nativeId: String(match.competitionId) },
  };
}

/** Its competition is the unique tournament (the per-season `tournament.id` names no entity, spec 2.15). */
export function v2EventEntity({ slug, value }: V2EventModel): DescribedMatch {
  return {
    version: 'v2',
    sport: slug,
    kind: 'match',
    nativeId: String(value.id),
    home: value.homeTeam.name,
    away: value.awayTeam.name,
    kickoff: value.startTimestamp * 1000,
    round: value.roundInfo?.round,
    competition: {
      version: 'v2',
      sport: slug,
      kind: 'competition',
      nativeId: String(value.tournament.uniqueTournament?.id ?? ''),
    },
  };
}

/** A located node's description, or undefined for a type that has no counterparts. */
export function describeNode(node: object): Described | undefined {
  switch (typeOf(node)) {
    case 'V2Team':
      return v2TeamEntity(node as V2TeamModel);
    case 'V2Tournament':
      return v2TournamentEntity(node as V2TournamentModel);
    case 'V1FootballCompetitor':
      return v1FootballCompetitorEntity(node as V1WorldCupCompetitor);
    case 'V1HockeyCompetitor':
      return v1HockeyCompetitorEntity(node as V1StandingsCompetitor);
    case 'V3Team':
      return v3TeamEntity(node as V3TeamModel);
    case 'V1HockeyAthlete':
      return v1HockeyAthleteEntity(node as V1Athlete);
    case 'V2Player':
      return v2PlayerEntity(node as V2PlayerModel);
    case 'V1WorldCupMatch':
      return v1WorldCupMatchEntity(node as V1WorldCupMatch);
    case 'V2Event':
      return v2EventEntity(node as V2EventModel);
    default:
      return undefined;
  }
}

/** The types `describeNode` knows, for the error that names them. */
export const TYPES_WITH_COUNTERPARTS = [
  'V1FootballCompetitor',
  'V1HockeyAthlete',
  'V1HockeyCompetitor',
  'V1WorldCupMatch',
  'V2Event',
  'V2Player',
  'V2Team',
  'V2Tournament',
  'V3Team',
];

const KIND_OF_TYPE: Readonly<Record<string, EntityKind>> = {
  V1WorldCupMatch: 'match',
  V2Event: 'match',
  V1HockeyAthlete: 'player',
  V2Player: 'player',
  V1FootballCompetitor: 'team',
  V1HockeyCompetitor: 'team',
  V2Team: 'team',
  V2Tournament: 'competition',
  V3Team: 'team',
};

/**
 * The entity a global ID names, without a request: enough to look its links
 * up (the store's key has no name in it). Undefined for a type that has no
 * counterparts.
 */
export function refOfGlobalId(id: GlobalId): EntityRef | undefined {
  const kind = KIND_OF_TYPE[id.typeName];
  return kind === undefined ? undefined : { version: id.version, sport: id.sport, kind, nativeId: id.nativeId };
}
