/**
 * Strict parsing of the gateway's image paths (DESIGN.md, fixed interface
 * points), before anything is asked upstream:
 *
 *   /images/v1/{type}/{id}[?imageVersion=N][&placeholder=keep]
 *   /images/v2/{sport}/{type}/{id}        type: teams, tournaments, players, managers, referees
 *   /images/v6/{sport}/{type}/{filename}
 *   /images/v6/{sport}/{filename}
 *   /images/logo?v1=ID[&v1ImageVersion=N][&v2Sport=S&v2=ID][&v6Sport=S&v6=FILE]
 *
 * Every segment is decoded once and must then match a narrow pattern, so
 * `../`, `%2F`, `%0D%0A`, backslashes, absolute URLs and very long names are
 * refused here (400) and can never reach the upstream or any other host.
 */
import { isIntegerIdText } from './native-id.js';
import { ErrorCode, GatewayError } from '../upstream/errors.js';
import {
  v1ImageTypes,
  v2ImageTypes,
  v6ImageTypes,
  type V1ImageParams,
  type V2ImageParams,
  type V6ImageParams,
} from '../upstream/routes/images.js';

export type ImageRequest =
  | { readonly version: 'v1'; readonly params: V1ImageParams }
  | { readonly version: 'v2'; readonly params: V2ImageParams }
  | { readonly version: 'v6'; readonly params: V6ImageParams };

/** The IDs a user holds for one entity, per version (spec 4.2.9). */
export interface LogoSources {
  readonly v1?: V1ImageParams | undefined;
  readonly v2?: V2ImageParams | undefined;
  readonly v6?: V6ImageParams | undefined;
}

export type ParsedImagePath =
  | { readonly kind: 'image'; readonly request: ImageRequest; readonly keepPlaceholder: boolean }
  | { readonly kind: 'logo'; readonly sources: LogoSources };

/** Longest raw path + query accepted. */
export const MAX_PATH_LENGTH = 512;

const IMAGE_VERSION = /^[0-9]{1,9}$/;
const SPORT = /^[a-z][a-z0-9-]{0,39}$/;
/** A V6 file name as payloads give it: plain characters, optional `!w80`-style thumbnail suffix. */
const FILENAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,159}(?:!w[0-9]{1,4})?$/;

function bad(message: string): GatewayError {
  return new GatewayError(ErrorCode.BadUserInput, message);
}

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw bad('Malformed percent-encoding in the image path.');
  }
}

function oneOf<T extends string>(values: readonly T[], value: string, what: string): T {
  if (!(values as readonly string[]).includes(value))
    throw bad(`Unknown ${what} "${value.slice(0, 40)}". Use one of: ${values.join(', ')}.`);
  return value as T;
}

function matching(pattern: RegExp, value: string, what: string): string {
  if (!pattern.test(value)) throw bad(`Invalid ${what}.`);
  return value;
}

export function isV6FileName(value: string): boolean {
  return FILENAME.test(value) && !value.includes('..');
}

/** A V1 or V2 ID segment: any safe integer (src/model/native-id.ts). */
function integerSegment(value: string, what: string): number {
  if (!isIntegerIdText(value)) throw bad(`Invalid ${what}.`);
  return Number(value);
}

function fileName(value: string): string {
  if (!isV6FileName(value)) throw bad('Invalid V6 file name: pass it exactly as the V6 payload gave it.');
  return value;
}

/** True when the raw request path is one the image plugin answers. */
export function isImagePath(pathname: string): boolean {
  return pathname === '/images' || pathname.startsWith('/images/');
}

/**
 * Parses a raw (undecoded, unnormalised) request target.
 * @throws GatewayError BAD_USER_INPUT for anything that is not a valid image path.
 */
export function parseImagePath(rawTarget: string): ParsedImagePath {
  if (rawTarget.length > MAX_PATH_LENGTH) throw bad('Image path too long.');
  const q = rawTarget.indexOf('?');
  const path = q < 0 ? rawTarget : rawTarget.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : rawTarget.slice(q + 1));
  const parts = path.split('/').slice(1).map(decodeSegment);
  if (parts[0] !== 'images') throw bad('Not an image path.');
  const [, version, ...rest] = parts;

  if (version === 'logo' && rest.length === 0) return { kind: 'logo', sources: parseLogoQuery(query) };
  if (version === 'v1' && rest.length === 2) {
    const imageVersion = query.get('imageVersion');
    const placeholder = query.get('placeholder');
    if (placeholder !== null && placeholder !== 'keep') throw bad('placeholder may only be "keep".');
    return {
      kind: 'image',
      keepPlaceholder: placeholder === 'keep',
      request: {
        version: 'v1',
        params: {
          type: oneOf(v1ImageTypes, rest[0] ?? '', 'V1 image type'),
          id: integerSegment(rest[1] ?? '', 'V1 ID'),
          imageVersion:
            imageVersion === null ? undefined : Number(matching(IMAGE_VERSION, imageVersion, 'imageVersion')),
        },
      },
    };
  }
  if (version === 'v2' && rest.length === 3) {
    const sport = matching(SPORT, rest[0] ?? '', 'V2 sport slug');
    const type = oneOf(v2ImageTypes, rest[1] ?? '', 'V2 image type');
    // Spec 4.5 shows referee (umpire) routes for Aussie rules only.
    if (type === 'referees' && sport !== 'aussie-rules') throw bad('V2 referee images exist on aussie-rules only.');
    return {
      kind: 'image',
      keepPlaceholder: false,
      request: {
        version: 'v2',
        params: {
          sport,
          type,
          id: integerSegment(rest[2] ?? '', 'V2 ID'),
        },
      },
    };
  }
  if (version === 'v6' && (rest.length === 2 || rest.length === 3)) {
    const sport = matching(SPORT, rest[0] ?? '', 'V6 sport slug');
    // Spec 7: an unknown V6 type is 400, answered here without an upstream request.
    const type = rest.length === 3 ? oneOf(v6ImageTypes, rest[1] ?? '', 'V6 image type') : undefined;
    const filename = fileName(rest[rest.length - 1] ?? '');
    return { kind: 'image', keepPlaceholder: false, request: { version: 'v6', params: { sport, type, filename } } };
  }
  throw bad(
    'Unknown image path. Use /images/v1/{type}/{id}, /images/v2/{sport}/{type}/{id} or /images/v6/{sport}/[{type}/]{filename}.',
  );
}

function parseLogoQuery(query: URLSearchParams): LogoSources {
  const get = (name: string): string | undefined => query.get(name) ?? undefined;
  const v1Id = get('v1');
  const v1Version = get('v1ImageVersion');
  const v2Sport = get('v2Sport');
  const v2Id = get('v2');
  const v6Sport = get('v6Sport');
  const v6File = get('v6');
  const sources: LogoSources = {
    v1:
      v1Id === undefined
        ? undefined
        : {
            type: 'competitors',
            id: integerSegment(v1Id, 'v1'),
            imageVersion:
              v1Version === undefined ? undefined : Number(matching(IMAGE_VERSION, v1Version, 'v1ImageVersion')),
          },
    v2:
      v2Id === undefined
        ? undefined
        : { sport: matching(SPORT, v2Sport ?? '', 'v2Sport'), type: 'teams', id: integerSegment(v2Id, 'v2') },
    v6:
      v6File === undefined
        ? undefined
        : { sport: matching(SPORT, v6Sport ?? 'football', 'v6Sport'), type: 'teams', filename: fileName(v6File) },
  };
  if (sources.v1 === undefined && sources.v2 === undefined && sources.v6 === undefined) {
    throw bad('Give at least one of v1, v2 (with v2Sport) or v6 (with v6Sport).');
  }
  return sources;
}

/** Gateway URL of an image, mirroring the upstream path (relative to the gateway origin). */
export function gatewayUrlOf(request: ImageRequest): string {
  const seg = encodeURIComponent;
  switch (request.version) {
    case 'v1': {
      const { type, id, imageVersion } = request.params;
      return `/images/v1/${type}/${id}${imageVersion === undefined ? '' : `?imageVersion=${imageVersion}`}`;
    }
    case 'v2':
      return `/images/v2/${seg(request.params.sport)}/${request.params.type}/${request.params.id}`;
    case 'v6': {
      const { sport, type, filename } = request.params;
      // `!` is left as it is by encodeURIComponent: the thumbnail suffix survives.
      return type === undefined
        ? `/images/v6/${seg(sport)}/${seg(filename)}`
        : `/images/v6/${seg(sport)}/${type}/${seg(filename)}`;
    }
  }
}

/** The store key: version + type + ID (+ imageVersion for V1). */
export function storeKeyOf(request: ImageRequest): string {
  switch (request.version) {
    case 'v1':
      return `v1/${request.params.type}/${request.params.id}@${request.params.imageVersion ?? '-'}`;
    case 'v2':
      return `v2/${request.params.sport}/${request.params.type}/${request.params.id}`;
    case 'v6':
      return `v6/${request.params.sport}/${request.params.type ?? '-'}/${request.params.filename}`;
  }
}
