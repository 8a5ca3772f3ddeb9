/**
 * How a gateway's live feeds are shared, handed ready to the live services
 * by the state backend (src/state/open-state.ts), so that nothing in
 * src/live/ asks whether it runs alone:
 *
 * - alone, the odds hub reads the upstream sockets themselves and the
 *   ticker and lineup watches poll while they have listeners (poll-loop.ts);
 * - in a cluster, one upstream socket per match (cluster-feed-source.ts) and
 *   one poll per loop (cluster-loop.ts) serve every replica, over the bus,
 *   leases and board of src/state/contracts.ts.
 *
 * Alone does not go through the local bus, leases and board: a lease round
 * before each socket and a board write for each frame would change when the
 * first frame arrives and cost the fan-out, for nobody to share with.
 */
import type { Logger } from 'pino';
import { ClusterFeedSource } from './cluster-feed-source.js';
import { clusterLoops, type ClusterLoopsOptions } from './cluster-loop.js';
import type { OddsFeedSource } from './feed-source.js';
import { loopsAlone, type PollLoops } from './poll-loop.js';

export interface LiveSharing {
  /** The odds hub's source of frames, over this replica's own upstream sockets. */
  oddsSource(upstream: OddsFeedSource, logger: Logger): OddsFeedSource;
  /** The ticker's and the lineup watches' loops. */
  readonly loops: PollLoops;
}

export const sharingAlone: LiveSharing = {
  oddsSource: (upstream) => upstream,
  loops: loopsAlone,
};

/** What the cluster's feeds and loops coordinate over; `logger` is the gateway's (the loops log under a child of it). */
export type ClusterSharingOptions = Omit<ClusterLoopsOptions, 'leaseTtlMs' | 'tickMs'>;

export function clusterSharing(options: ClusterSharingOptions): LiveSharing {
  const { logger, ...coordination } = options;
  return {
    oddsSource: (upstream, oddsLogger) => new ClusterFeedSource({ ...coordination, upstream, logger: oddsLogger }),
    loops: clusterLoops({ ...coordination, logger: logger.child({ component: 'cluster-loop' }) }),
  };
}
