/**
 * The narrow ports an operation's resolvers reach the gateway through, one
 * interface each, to be composed by what needs them: model helpers take
 * `LoaderPort`, the estimate walk the ports its cost rules read, and
 * `ResolverContext` (src/context.ts) all of them. None names the services
 * bag, so the rooms below the composition root import these and not it.
 */
import type { ImageService } from './images/service.js';
import type { UpstreamLoader } from './loaders/upstream-loader.js';
import type { Ledger } from './spend/ledger.js';
import type { UpstreamFetcher } from './upstream/fetcher.js';

/** The operation's upstream loader: one per operation, so a resource several fields need is loaded once. */
export interface LoaderPort {
  readonly upstream: UpstreamLoader;
}

/** When the operation must be answered by: epoch ms. */
export interface DeadlinePort {
  readonly deadline: number;
}

/** What the shared upstream cache holds, read without a request (shortcuts and estimates). */
export interface UpstreamCachePort {
  readonly upstreamCache: Pick<UpstreamFetcher, 'isCached' | 'canAnswer' | 'keyOf' | 'peekKey'>;
}

/** The allowance as the ledger records it, for the `quota` field and its subscription. */
export interface SpendPort {
  readonly spend: Pick<Ledger, 'snapshot' | 'onChange'>;
}

/** The gateway's one image service (src/images/for-services.ts), made on first use. */
export interface ImagesPort {
  readonly images: () => Promise<Pick<ImageService, 'logo' | 'imageCost'>>;
}
