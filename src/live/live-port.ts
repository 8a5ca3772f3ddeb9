/**
 * What subscription resolvers need of the live services: join a match's odds
 * feed, the ticker and a lineup watch. Not the services themselves: starting
 * and closing them belongs to the composition root (services.ts).
 */
import type { OddsHub } from './hub.js';
import type { LineupPoller } from './lineup-poller.js';
import type { LiveTicker } from './ticker.js';

export interface LivePort {
  readonly odds: Pick<OddsHub, 'onSnapshot' | 'onChanges'>;
  readonly ticker: Pick<LiveTicker, 'intervalMs' | 'refusalFor' | 'subscribe'>;
  readonly lineups: Pick<LineupPoller, 'refusalFor' | 'subscribe'>;
}
