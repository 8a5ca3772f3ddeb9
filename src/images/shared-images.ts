/**
 * Images once per cluster (issue 14, item 6): the seam under each replica's
 * own image store (store.ts, in its DATA_DIR). A replica that does not hold
 * an image asks the cluster's shared images before the upstream, and puts
 * every image (and every placeholder or "not found" answer) it fetched, so a
 * logo paid for by one replica is served by all of them for nothing.
 *
 * A single gateway shares with nobody (`noSharedImages`). The Redis
 * implementation, with its size bound, is src/state/redis/redis-images.ts. Both methods never reject: a shared
 * store that cannot be reached is a miss, and the replica asks the upstream
 * as a single gateway would.
 */

export type SharedImage =
  | {
      readonly kind: 'image';
      readonly contentType: string;
      readonly bytes: Buffer;
      /** Epoch ms; undefined for logos, kept for good (spec 4.2.8). */
      readonly expiresAt: number | undefined;
    }
  /** A V1 placeholder answer, with its bytes for `?placeholder=keep`. */
  | { readonly kind: 'placeholder'; readonly bytes: Buffer; readonly expiresAt: number }
  | { readonly kind: 'missing'; readonly expiresAt: number };

export interface SharedImages {
  /** The image under a store key (store-entry.ts keys), or undefined when absent, expired or unreachable. */
  get(key: string): Promise<SharedImage | undefined>;
  put(key: string, image: SharedImage): Promise<void>;
}

/** A gateway alone (and the importer): nobody else holds an image, and nobody takes one. */
export const noSharedImages: SharedImages = {
  get: () => Promise.resolve(undefined),
  put: () => Promise.resolve(),
};
