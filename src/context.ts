/**
 * What every resolver receives: narrow ports, each a view of one room (the
 * loader and its trace belong to one operation). The services bag, shared
 * by the whole gateway, rides along for the plugins and the composition root
 * only. Rooms below take the ports they read (src/loaders/loader-ports.ts,
 * src/spend/estimate/cost-rule.ts's EstimateContext), never this module.
 */
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import type { YogaInitialContext } from 'graphql-yoga';
import type { SpendGate } from './spend/spend-gate.js';
import type { Config } from './config.js';
import type { ImageService } from './images/service.js';
import type { LivePort } from './live/live-port.js';
import type { LiveServices } from './live/services.js';
import type { GatewayMetrics } from './metrics.js';
import type { UpstreamFetcher } from './upstream/fetcher.js';
import type { Ledger } from './spend/ledger.js';
import type { StateBackend } from './state/open-state.js';
import type { LoaderPort, UpstreamCachePort } from './loaders/loader-ports.js';
import type { CounterpartsPort } from './identity/find-counterparts.js';

export interface GatewayServices {
  readonly config: Config;
  readonly fetcher: UpstreamFetcher;
  readonly ledger: Ledger;
  readonly metrics: GatewayMetrics;
  readonly logger: Logger;
  /** Live odds hub and live ticker (src/live). */
  readonly live: LiveServices;
  /** The cost, plan and client-budget check every door passes (src/spend/spend-gate.ts). */
  readonly spend: SpendGate;
  /** Where shared state lives: this process alone, or the cluster (src/state/open-state.ts). */
  readonly state: Pick<StateBackend, 'mode' | 'replicaId' | 'bus' | 'leases' | 'board' | 'health'>;
}

/** The operation context as resolvers see it (codegen's contextType): ports only, no services. */
export interface ResolverContext extends LoaderPort, UpstreamCachePort, CounterpartsPort {
  /** Epoch ms by which the operation must be answered. */
  readonly deadline: number;
  /** The allowance as the ledger records it, for the `quota` field and its subscription. */
  readonly ledger: Pick<Ledger, 'snapshot' | 'onChange'>;
  /** The gateway's one image service (src/images/for-services.ts), made on first use. */
  readonly images: () => Promise<Pick<ImageService, 'logo' | 'imageCost'>>;
  /** Odds feeds, the ticker and lineup watches for subscriptions (src/live/live-port.ts). */
  readonly live: LivePort;
  /** The client key's name, when keys are configured (src/plugins/use-client-keys.ts). */
  readonly clientName?: string;
  /** The request the operation came in on, HTTP or the graphql-ws upgrade: who a client is when no key names it (src/access/client-identity.ts). */
  readonly req?: IncomingMessage;
}

/** Made for each operation. */
export interface OperationContext extends ResolverContext {
  /** Shared by the whole gateway: for plugins, never for resolvers. */
  readonly services: GatewayServices;
}

export type GatewayContext = YogaInitialContext & OperationContext;
