/**
 * What every resolver receives. Services are shared by the whole gateway;
 * the loader and its trace belong to one operation.
 */
import type { Logger } from 'pino';
import type { YogaInitialContext } from 'graphql-yoga';
import type { SpendGate } from './spend/spend-gate.js';
import type { Config } from './config.js';
import type { LiveServices } from './live/services.js';
import type { UpstreamLoader } from './loaders/upstream-loader.js';
import type { GatewayMetrics } from './metrics.js';
import type { UpstreamFetcher } from './upstream/fetcher.js';
import type { Ledger } from './spend/ledger.js';
import type { StateBackend } from './state/open-state.js';

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

/** Made for each operation. */
export interface OperationContext {
  /** Shared by the whole gateway. */
  readonly services: GatewayServices;
  /** Request-scoped loader: one per operation. */
  readonly upstream: UpstreamLoader;
  /** Epoch ms by which the operation must be answered. */
  readonly deadline: number;
  /** The client key's name, when keys are configured (src/plugins/use-client-keys.ts). */
  readonly clientName?: string;
}

export type GatewayContext = YogaInitialContext & OperationContext;
