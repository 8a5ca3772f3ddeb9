/**
 * One image service per gateway, made on first use from the gateway's own
 * services (fetcher, config, logger), so the HTTP plugin, the resolvers and
 * the importer share one store and one set of in-flight requests without
 * another field on `GatewayServices`.
 */
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { UpstreamFetcher } from '../upstream/fetcher.js';
import { ImageService } from './service.js';
import { noSharedImages, type SharedImages } from './shared-images.js';
import { ImageStore } from './store.js';

const services = new WeakMap<object, Promise<ImageService>>();

interface Needed {
  readonly config: Config;
  readonly fetcher: UpstreamFetcher;
  readonly logger: Logger;
  /**
   * The images every replica shares: the state backend's (src/state/open-state.ts). Only the first call, at
   * start-up, makes the service; a process that passes none (the importer) shares with nobody.
   */
  readonly sharedImages?: SharedImages | undefined;
}

/**
 * @throws StateFileError (through the promise) when the store's files cannot
 * be read; the failure is not kept, so the next call tries again once the
 * operator fixed them.
 */
export function imageServiceFor(gateway: Needed): Promise<ImageService> {
  let service = services.get(gateway.fetcher);
  if (service === undefined) {
    service = (async () => {
      const store = await ImageStore.open({ dir: join(gateway.config.dataDir, 'images'), logger: gateway.logger });
      return new ImageService({
        fetcher: gateway.fetcher,
        store,
        logger: gateway.logger,
        v6TtlMs: gateway.config.cacheTtls.image * 1000,
        shared: gateway.sharedImages ?? noSharedImages,
      });
    })();
    service.catch(() => services.delete(gateway.fetcher));
    services.set(gateway.fetcher, service);
  }
  return service;
}
