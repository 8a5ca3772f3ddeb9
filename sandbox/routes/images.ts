/**
 * Image delivery (spec 2.5, 4.2, 7): V1 (free, no key), V2 and V6 (key,
 * counted). Real PNG/JPEG/SVG bytes from fixtures/images-bytes.ts.
 *
 * Assumptions where the spec shows nothing:
 * - V1 serves images under `/v1/football/images/...` only (the paths the spec
 *   shows); athletes and competitions with no image get the same placeholder
 *   as competitors.
 * - V1 competitors are PNG, athletes JPEG, competitions SVG; V2 teams and
 *   tournaments PNG, players JPEG; V6 by the file name's extension.
 * - V2 image types are `teams`, `tournaments`, `players`; an image exists for
 *   every V2 registry entity unless the fixtures say otherwise.
 * - V6 `!w80` returns an 80-pixel-wide version of the same image; V6 sends
 *   `Cache-Control: public, max-age=86400` (cached 24 hours, spec 4.2.5).
 * - An image incident is a fault on the image path (`/__sandbox/faults`
 *   with status 502 and `retry-after`), as for any route.
 */
import type { Fixtures } from '../fixtures/build.js';
import { imageIds, v6ImageTypes, type V6ImageType } from '../fixtures/images.js';
import { colourOf, jpegImage, placeholderPng, pngImage, svgImage } from '../fixtures/images-bytes.js';
import { errorResult, type RouteContext, type RouteResult, type Router } from '../router.js';

const NOT_FOUND_UPSTREAM = 'Image not found upstream';
const FULL_SIZE = 128;
const ONE_DAY = 'public, max-age=86400';

const placeholder = placeholderPng();

function hashOf(text: string): number {
  let h = 0x81_1c_9d_c5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01_00_01_93);
  return h >>> 0;
}

function png(seed: string, size = FULL_SIZE, cacheControl?: string): RouteResult {
  const h = hashOf(seed);
  const body = pngImage(size, colourOf(h), colourOf(h + 1));
  return {
    status: 200,
    body,
    contentType: 'image/png',
    ...(cacheControl === undefined ? {} : { headers: { 'cache-control': cacheControl } }),
  };
}

function imageFor(seed: string, kind: 'png' | 'jpeg' | 'svg', size: number, cacheControl?: string): RouteResult {
  const headers = cacheControl === undefined ? {} : { headers: { 'cache-control': cacheControl } };
  if (kind === 'jpeg')
    return { status: 200, body: jpegImage(40 + (hashOf(seed) % 200)), contentType: 'image/jpeg', ...headers };
  if (kind === 'svg')
    return {
      status: 200,
      body: svgImage(seed, colourOf(hashOf(seed)), size),
      contentType: 'image/svg+xml',
      ...headers,
    };
  return png(seed, size, cacheControl);
}

/** An integer ID of any size a number holds exactly (the spec gives none), or undefined. */
function integerId(raw: string): number | undefined {
  return /^\d{1,16}$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : undefined;
}

function v1(fixtures: Fixtures): (ctx: RouteContext) => RouteResult {
  return ({ params }) => {
    const type = params['type'] ?? '';
    const raw = params['id'] ?? '';
    const id = integerId(raw);
    const known =
      type === 'competitors'
        ? fixtures.images.v1Competitors
        : type === 'athletes'
          ? fixtures.images.v1Athletes
          : type === 'competitions'
            ? fixtures.images.v1Competitions
            : undefined;
    if (known === undefined) return errorResult(404, 'Route not found');
    // Spec 4.2.6: an unknown competitor is not an error: 200 with the grey placeholder.
    if (id === undefined || !known.has(id)) return { status: 200, body: placeholder, contentType: 'image/png' };
    const kind = type === 'athletes' ? 'jpeg' : type === 'competitions' ? 'svg' : 'png';
    return imageFor(`v1/${type}/${id}`, kind, FULL_SIZE);
  };
}

function v2(fixtures: Fixtures): (ctx: RouteContext) => RouteResult {
  return ({ params }) => {
    const sport = params['sport'] ?? '';
    const type = params['type'] ?? '';
    const raw = params['id'] ?? '';
    const id = integerId(raw);
    if (!fixtures.v2.has(sport) || id === undefined) return errorResult(404, NOT_FOUND_UPSTREAM);
    const entities = fixtures.v2.sport(sport);
    const exists =
      type === 'teams'
        ? entities.teams.has(id)
        : type === 'players'
          ? entities.players.has(id)
          : type === 'tournaments'
            ? entities.tournaments.has(id)
            : false;
    if (!exists || fixtures.images.v2WithoutImage.has(`${sport}/${type}/${id}`))
      return errorResult(404, NOT_FOUND_UPSTREAM);
    // Spec 4.2.7: V2 sends Cache-Control headers.
    return imageFor(`v2/${sport}/${type}/${id}`, type === 'players' ? 'jpeg' : 'png', FULL_SIZE, ONE_DAY);
  };
}

const THUMBNAIL = /^(.+)!w(\d{1,4})$/;

function v6(fixtures: Fixtures, typed: boolean): (ctx: RouteContext) => RouteResult {
  return ({ params }) => {
    const sport = params['sport'] ?? '';
    const type = params['type'];
    const filename = params['filename'] ?? '';
    if (typed && !(v6ImageTypes as readonly string[]).includes(type ?? '')) {
      return errorResult(400, `Unknown image type. Use one of: ${v6ImageTypes.join(', ')}`);
    }
    const thumb = THUMBNAIL.exec(filename);
    const base = thumb?.[1] ?? filename;
    const width = thumb === null ? FULL_SIZE : Math.min(FULL_SIZE, Number(thumb[2]));
    const owner: V6ImageType | undefined = fixtures.images.v6Files.get(sport)?.get(base);
    // Spec 4.2.4: a file name belongs to one type; under another it is 404.
    if (owner === undefined || (typed && owner !== type)) return errorResult(404, NOT_FOUND_UPSTREAM);
    const kind = base.endsWith('.svg') ? 'svg' : base.endsWith('.jpg') ? 'jpeg' : 'png';
    return imageFor(`v6/${sport}/${base}`, kind, width, ONE_DAY);
  };
}

export function register(router: Router, fixtures: Fixtures): void {
  router.add({
    method: 'GET',
    template: '/v1/football/images/:type/:id',
    auth: false,
    counted: false,
    handler: v1(fixtures),
  });
  router.add({
    method: 'GET',
    template: '/v2/:sport/images/:type/:id',
    auth: true,
    counted: true,
    handler: v2(fixtures),
  });
  router.add({
    method: 'GET',
    template: '/v6/:sport/images/:type/:filename',
    auth: true,
    counted: true,
    handler: v6(fixtures, true),
  });
  router.add({
    method: 'GET',
    template: '/v6/:sport/images/:filename',
    auth: true,
    counted: true,
    handler: v6(fixtures, false),
  });
}

/** Re-exported for tests that compare bytes. */
export { imageIds, placeholder as placeholderBytes };
