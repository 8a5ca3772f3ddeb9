/**
 * Source objects of the World Cup V1 types: the upstream payload pieces, plus
 * the context a piece needs to resolve further without another request.
 */
import {
  V1StatusGroup,
  type V1CommentaryEntry,
  type V1GameDetail,
  type V1GameEvent,
  type V1LineupMember,
  type V1LineupTeam,
  type V1WorldCupGamePayload,
  type V1WorldCupMatch,
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

/** The World Cup game route's payload, its lists apart: every field of the game resolves without another request. */
export function worldCupGameModel(game: V1WorldCupGamePayload['game']): V1WorldCupGameModel {
  const { lineups, events, commentary, ...detail } = game;
  return { game: detail, lineups, events, commentary };
}

/**
 * A coach lineup member, with the team it belongs to. The coach's global ID
 * names the team (not the game it was read in): one coach is one ID
 * wherever it is listed, and `node(id:)` reads it from the team's latest
 * lineup, as `V1FootballCompetitor.coach` does.
 */
export interface V1CoachModel {
  member: V1LineupMember;
  teamId: number;
}

/** The latest game a team has started (spec 3: not `statusGroup` scheduled): the one whose lineup names its current coach. */
export function latestStartedGame(matches: readonly V1WorldCupMatch[], teamId: number): V1WorldCupMatch | undefined {
  return matches
    .filter(
      (m) =>
        m.statusGroup !== V1StatusGroup.Scheduled && (m.homeCompetitor.id === teamId || m.awayCompetitor.id === teamId),
    )
    .sort((a, b) => Date.parse(b.startTime) - Date.parse(a.startTime))[0];
}
