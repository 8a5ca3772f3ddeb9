/**
 * The live services one gateway shares between all its operations: the odds
 * hub (one upstream subscription per match), the live ticker and the
 * baseball lineup poller, all stopped together when the gateway closes.
 *
 * Whether the feeds are shared with other replicas is the state backend's
 * to say (sharing.ts): the services run the same way either way.
 */
import type { Logger } from 'pino';
import type { SpendGate } from '../spend/spend-gate.js';
import type { Config } from '../config.js';
import type { UpstreamFetcher } from '../upstream/fetcher.js';
import type { Ledger } from '../spend/ledger.js';
import { LocalFeedSource } from './feed-source.js';
import { OddsHub } from './hub.js';
import { LineupPoller } from './lineup-poller.js';
import { oddsSocketUrl, wsBaseFromHttp } from '../upstream/routes/odds-socket.js';
import type { LiveSharing } from './sharing.js';
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
  /** How the feeds are shared: the state backend's (src/state/open-state.ts). */
  readonly sharing: LiveSharing;
}

export function createLiveServices({
  config,
  baseUrl,
  logger,
  fetcher,
  ledger,
  spend,
  sharing,
}: LiveServicesOptions): LiveServices {
  const wsBase = config.wsUrl ?? wsBaseFromHttp(baseUrl);
  const oddsLogger = logger.child({ component: 'odds' });
  const upstream = new LocalFeedSource({
    socketUrl: oddsSocketUrl(wsBase),
    apiKey: config.apiKey,
    logger: oddsLogger,
    watchdogMs: config.live.oddsWatchdogMs,
    backoff: { initialMs: config.live.oddsBackoffInitialMs, maxMs: config.live.oddsBackoffMaxMs },
  });
  const source = sharing.oddsSource(upstream, oddsLogger);
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
    loops: sharing.loops,
  });
  const lineups = new LineupPoller(fetcher, spend, logger.child({ component: 'lineup-poller' }), {
    ...config.lineupPoll,
    loops: sharing.loops,
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
