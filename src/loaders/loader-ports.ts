/**
 * The narrow ports through which the model and the estimate read upstream:
 * the operation's loader, and what the shared cache holds without a request.
 * Resolvers get them in their context (ResolverContext, src/context.ts); the
 * rooms below import these instead of that context.
 */
import type { UpstreamFetcher } from '../upstream/fetcher.js';
import type { UpstreamLoader } from './upstream-loader.js';

/** The operation's upstream loader: one per operation, so a resource several fields need is loaded once. */
export interface LoaderPort {
  readonly upstream: UpstreamLoader;
}

/** What the shared upstream cache holds, read without a request (shortcuts and estimates). */
export interface UpstreamCachePort {
  readonly upstreamCache: Pick<UpstreamFetcher, 'isCached' | 'canAnswer' | 'keyOf' | 'peekKey' | 'scope'>;
}
