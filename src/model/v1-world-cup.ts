/**
 * Source objects of the World Cup V1 types: the upstream payload pieces, plus
 * the context a piece needs to resolve further without another request.
 */
import type {
  V1CommentaryEntry,
  V1GameDetail,
  V1GameEvent,
  V1LineupMember,
  V1LineupTeam,
} from '../upstream/routes/v1-world-cup.js';

export interface V1CompetitionScope {
  readonly competitionId: number;
}

/** A game from the World Cup game route carries everything; from `/api/v1/game/{id}`, lineups are one request away. */
export interface V1WorldCupGameModel {
  game: V1GameDetail;
  lineups?: V1LineupTeam[];
  events?: V1GameEvent[];
  commentary?: V1CommentaryEntry[];
}

/** A coach lineup member, with the team it belongs to. */
export interface V1CoachModel {
  member: V1LineupMember;
  teamId: number;
}
