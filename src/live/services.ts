/**
 * The live services one gateway shares between all its operations: the odds
 * hub (one upstream subscription per match), the live ticker and the
 * baseball lineup poller, all stopped together when the gateway closes.
 *
 * The odds hub's feed source is chosen here: the upstream socket itself
 * when the gateway runs alone, the cluster's one socket per match
 * (cluster-feed-source.ts) when it shares state through Redis.
 */
import type { Logger } from 'pino';
import type { SpendGate } from '../spend/spend-gate.js';
import type { Config } from '../config.js';
import type { UpstreamFetcher } from '../upstream/fetcher.js';
import type { Ledger } from '../spend/ledger.js';
import type { SharedState } from '../state/open-state.js';
import { ClusterFeedSource } from './cluster-feed-source.js';
import { clusterLoops } from './cluster-loop.js';
import { LocalFeedSource, type OddsFeedSource } from './feed-source.js';
import { OddsHub } from './hub.js';
import { LineupPoller } from './lineup-poller.js';
import { oddsSocketUrl, wsBaseFromHttp } from './protocol.js';
import { LiveTicker } from './ticker.js';

export interface LiveServices {
  readonly odds: OddsHub;
  readonly ticker: LiveTicker;
  readonly lineups: LineupPoller;
  close(): Promise<void>;
}

export interface LiveServicesOptions {
  readonly config: Config;
  /** The upstream HTTP base: the WebSocket base defaults to it with a ws(s) scheme. */
  readonly baseUrl: string;
  readonly logger: Logger;
  readonly fetcher: UpstreamFetcher;
  readonly ledger: Ledger;
  /** Who pays for the shared polls (src/spend/poll-payers.ts). */
  readonly spend: SpendGate;
  /** Bus, leases and board: one owner per live feed in a cluster (src/state/shared.ts). */
  readonly state: Pick<SharedState, 'bus' | 'leases' | 'board' | 'replicaId' | 'link'>;
}

export function createLiveServices({
  config,
  baseUrl,
  logger,
  fetcher,
  ledger,
  spend,
  state,
}: LiveServicesOptions): LiveServices {
  const wsBase = config.wsUrl ?? wsBaseFromHttp(baseUrl);
  const coordination =
    state.link === undefined
      ? undefined
      : { replicaId: state.replicaId, bus: state.bus, leases: state.leases, board: state.board, link: state.link };
  // One poll per cluster for the ticker and each lineup watch; alone, their own timers as before.
  const loops =
    coordination === undefined
      ? undefined
      : clusterLoops({ ...coordination, logger: logger.child({ component: 'cluster-loop' }) });
  const oddsLogger = logger.child({ component: 'odds' });
  const upstream = new LocalFeedSource({
    socketUrl: oddsSocketUrl(wsBase),
    apiKey: config.apiKey,
    logger: oddsLogger,
    watchdogMs: config.live.oddsWatchdogMs,
    backoff: { initialMs: config.live.oddsBackoffInitialMs, maxMs: config.live.oddsBackoffMaxMs },
  });
  const source: OddsFeedSource =
    coordination === undefined ? upstream : new ClusterFeedSource({ ...coordination, upstream, logger: oddsLogger });
  const odds = new OddsHub({
    source,
    logger: oddsLogger,
    lingerMs: config.live.oddsLingerMs,
    maxFeeds: config.live.oddsMaxFeeds,
    maxFeedsPerClient: config.live.oddsMaxFeedsPerClient,
  });
  const ticker = new LiveTicker({
    fetcher,
    ledger,
    spend,
    logger: logger.child({ component: 'live-ticker' }),
    allowancePercent: config.live.tickerAllowancePercent,
    minIntervalMs: config.live.tickerMinIntervalMs,
    cacheTtlMs: config.cacheTtls.worldCup * 1000,
    operationMs: config.timeouts.operationMs,
    ...(loops === undefined ? {} : { loops }),
  });
  const lineups = new LineupPoller(fetcher, spend, logger.child({ component: 'lineup-poller' }), {
    ...config.lineupPoll,
    ...(loops === undefined ? {} : { loops }),
  });
  return {
    odds,
    ticker,
    lineups,
    close: async () => {
      lineups.close();
      ticker.close();
      odds.close();
      await source.close();
    },
  };
}
