/** Source objects of the hockey V2 team types. */
import type { TournamentSeasons } from '../upstream/routes/v2-hockey.js';
import type { V2EventModel } from './v2-event.js';
import type { WithSlug } from './v2-entities.js';

/** A team's route set needs only its ID: each field fetches its own route. */
export interface HockeyV2TeamModel {
  readonly id: number;
}

export interface HockeyClosestGameModel {
  previous: V2EventModel | null;
  next: V2EventModel | null;
}

export type TournamentSeasonsModel = WithSlug<TournamentSeasons>;
