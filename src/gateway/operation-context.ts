/**
 * Every operation's context: a fresh upstream loader and deadline, the
 * cache as this operation sees it, and the ports resolvers reach the
 * gateway through (src/context.ts says which are ports and which are the
 * plugins' services).
 */
import type { GatewayServices, OperationContext } from '../context.js';
import type { Links } from '../identity/find-counterparts.js';
import { OperationCacheView } from '../loaders/cache-view.js';
import { UpstreamLoader } from '../loaders/upstream-loader.js';
import type { UpstreamFetcher } from '../upstream/fetcher.js';

export interface OperationContextParts {
  readonly services: GatewayServices;
  readonly images: OperationContext['images'];
  readonly counterparts: Links;
  /** The bench's seam; a plain loader over the fetcher otherwise. */
  readonly loaderFor?: ((fetcher: UpstreamFetcher, deadline: number) => UpstreamLoader) | undefined;
}

export function operationContextFactory(parts: OperationContextParts): () => OperationContext {
  const { services, images, counterparts } = parts;
  const { fetcher, ledger, live, config } = services;
  const loaderFor = parts.loaderFor ?? ((f: UpstreamFetcher, deadline: number) => new UpstreamLoader(f, deadline));
  return () => {
    const deadline = Date.now() + config.timeouts.operationMs;
    const upstream = loaderFor(fetcher, deadline);
    // The cache as this operation sees it: through its client's @maxAge, once the max-age stage has read it.
    return {
      services,
      upstream,
      deadline,
      upstreamCache: new OperationCacheView(fetcher, upstream),
      ledger,
      live,
      images,
      counterparts,
    };
  };
}
