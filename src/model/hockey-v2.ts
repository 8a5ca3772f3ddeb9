/** Source objects of the hockey V2 team types. */
import type { NearEventsPayload, TournamentSeasons } from '../upstream/routes/v2-hockey.js';
import type { WithSlug } from './v2-entities.js';

/** A team's route set needs only its ID: each field fetches its own route. */
export interface HockeyV2TeamModel {
  readonly id: number;
}

/** A team's `/near-events` answer: each game is read by its own field, so a dropped one fails there alone. */
export type HockeyClosestGameModel = NearEventsPayload;

export type TournamentSeasonsModel = WithSlug<TournamentSeasons>;
