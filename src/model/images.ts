import type { ImageRef } from './image-ref.js';

/**
 * Gateway URLs of images, mirroring the upstream paths (DESIGN.md, fixed
 * interface points). V1 images are free and need no key, so a V1 entity's
 * image costs nothing until a client loads it.
 */
export type V1ImageType = 'competitors' | 'athletes' | 'competitions';

export function v1Image(type: V1ImageType, id: number, imageVersion?: number): ImageRef {
  const query = imageVersion === undefined ? '' : `?imageVersion=${imageVersion}`;
  return { url: `/images/v1/${type}/${id}${query}`, version: 'V1', placeholder: null };
}
