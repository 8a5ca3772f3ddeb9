/** Source objects of the V3 window types. */
import type { V3League, V3WindowPayload } from '../upstream/routes/v3.js';
import type { CyclingClassification } from './v3-cycling.js';

export type V3WindowEnum = 'TODAY' | 'LIVE' | 'YESTERDAY' | 'TOMORROW';

export interface V3WindowModel {
  /** Enum value; null for a sport the enum does not know. */
  sport: string | null;
  /** The catalogue key. */
  sportKey: string;
  slug: string;
  window: V3WindowEnum;
  payload: V3WindowPayload;
}

export interface V3LeagueModel {
  slug: string;
  value: V3League;
}

export interface V3CyclingFeedModel {
  window: V3WindowEnum;
  classifications: CyclingClassification[];
}
