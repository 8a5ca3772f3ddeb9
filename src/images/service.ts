/**
 * Images over V1, V2 and V6: store first, then one shared upstream request
 * per image (concurrent askers join it), placeholder detection, the check of
 * a 404 against the matching data route (spec 7.1), and the logo fallback
 * chain V1 -> V2 -> V6 (spec 4.2.9-10).
 *
 * Retry once on 502 and "not again before Retry-After" (the V2 image
 * incident) come from the fetcher pipeline (withRetryOnce, withCooldown), so
 * images follow the same rules as data routes.
 *
 * In a cluster, an image this replica's store lacks is asked of the shared
 * images (shared-images.ts) before the upstream, and what the upstream
 * answered is put there for the other replicas.
 */
import type { Logger } from 'pino';
import { nothing, resourceEstimate, type AnyRoute, type Estimate } from '../spend/resource-estimate.js';
import { errorOfResponse, type FetchOptions, type UpstreamFetcher } from '../upstream/fetcher.js';
import { knownStateChanged } from '../upstream/known-state.js';
import { ErrorCode, GatewayError, isGatewayError } from '../upstream/errors.js';
import { imageRoutes, type V2ImageParams } from '../upstream/routes/images.js';
import { knownGaps } from '../upstream/known-gaps.js';
import type { Route } from '../upstream/routes/route.js';
import { v2Routes } from '../upstream/routes/v2.js';
import { v2AussieRulesRoutes } from '../upstream/routes/v2-aussie-rules.js';
import type { SpendMeter } from '../spend/spend-meter.js';
import { gatewayUrlOf, storeKeyOf, type ImageRequest, type LogoSources } from '../model/image-paths.js';
import { isPlaceholder } from './placeholder.js';
import type { SharedImage, SharedImages } from './shared-images.js';
import type { ImageEntry, ImageStore } from './store.js';

const AUSSIE_RULES = 'aussie-rules';
const CYCLING = 'cycling';

/** How long a V1 placeholder or a V2/V6 "not found" is remembered. */
const MARKER_TTL_MS = 24 * 3600 * 1000;

export type ImageOutcome =
  | { readonly kind: 'image'; readonly entry: ImageEntry; readonly fromStore: boolean }
  | { readonly kind: 'placeholder'; readonly bytes: Buffer | undefined }
  | { readonly kind: 'missing' };

export interface LogoResult {
  readonly request: ImageRequest;
  readonly url: string;
  readonly entry: ImageEntry;
}

export interface ChainReport {
  readonly found: LogoResult | undefined;
  /** Versions asked and what each said, in order. */
  readonly steps: ReadonlyArray<{
    version: 'v1' | 'v2' | 'v6';
    outcome: 'image' | 'placeholder' | 'missing' | 'error';
  }>;
  /** Failures that stopped a version from answering (incident, quota...). */
  readonly errors: readonly GatewayError[];
}

export interface ImageServiceOptions {
  readonly fetcher: UpstreamFetcher;
  readonly store: ImageStore;
  readonly logger: Logger;
  /** How long V6 images are kept (spec 4.2.5: 24 hours). */
  readonly v6TtlMs: number;
  /** The images every replica shares (`noSharedImages` alone: every lookup a miss). */
  readonly shared: SharedImages;
}

function routeOf(request: ImageRequest): Route<never, unknown> {
  switch (request.version) {
    case 'v1':
      return imageRoutes.v1 as Route<never, unknown>;
    case 'v2':
      if (request.params.type === 'managers') return imageRoutes.v2Manager as Route<never, unknown>;
      if (request.params.type === 'referees') return imageRoutes.v2Referee as Route<never, unknown>;
      return imageRoutes.v2 as Route<never, unknown>;
    case 'v6':
      return (request.params.type === undefined ? imageRoutes.v6 : imageRoutes.v6Typed) as Route<never, unknown>;
  }
}

/** A data route call that validates a V2 image ID: what it may cost, and the call itself. */
interface IdCheck {
  estimate(fetcher: UpstreamFetcher): Estimate;
  run(fetcher: UpstreamFetcher, options: FetchOptions): Promise<unknown>;
}

function idCheck<P>(route: Route<P, unknown>, params: P): IdCheck {
  return {
    estimate: (fetcher) => resourceEstimate(fetcher, { route: route as unknown as AnyRoute, params }),
    run: (fetcher, options) => fetcher.fetch(route, params, options),
  };
}

/**
 * The data route that matches a V2 image type (spec 7.1; tournaments by
 * `uniqueTournament.id`); it answers NOT_FOUND for an unknown ID. None for
 * cycling players: spec 4.9 says that route does not exist (riders are teams),
 * so its 404 is known without paying for it.
 */
function idCheckOf({ sport, type, id }: V2ImageParams): IdCheck | undefined {
  switch (type) {
    case 'teams':
      return idCheck(v2Routes.team, { sport, id });
    case 'players':
      return sport === CYCLING ? undefined : idCheck(v2Routes.player, { sport, id });
    case 'tournaments':
      return idCheck(v2Routes.tournament, { sport, uniqueTournamentId: id });
    case 'managers':
      // Spec 4.5 gives Aussie rules its own singular detail route; the
      // resolvers read the same one, so the check may come from the cache.
      return sport === AUSSIE_RULES
        ? idCheck(v2AussieRulesRoutes.manager, { id })
        : idCheck(v2Routes.manager, { sport, id });
    case 'referees':
      return idCheck(v2AussieRulesRoutes.referee, { id });
  }
}

const plus = (a: Estimate, b: Estimate): Estimate => ({
  requests: a.requests + b.requests,
  unanswerable: a.unanswerable + b.unanswerable,
});

/** `image/png; charset=...` -> `image/png`; undefined for anything not an image. */
function imageContentType(header: string | undefined): string | undefined {
  const type = header?.split(';')[0]?.trim().toLowerCase();
  return type !== undefined && /^image\/[a-z0-9.+-]+$/.test(type) ? type : undefined;
}

export class ImageService {
  private readonly inFlight = new Map<string, Promise<ImageOutcome>>();
  /** The placeholder's bytes, kept once for `?placeholder=keep`. */
  private placeholderBytes: Buffer | undefined;

  constructor(private readonly options: ImageServiceOptions) {}

  get store(): ImageStore {
    return this.options.store;
  }

  /** True when the store answers this image without an upstream request. */
  isStored(request: ImageRequest): boolean {
    return this.options.store.hasImage(storeKeyOf(request));
  }

  /** True when `image(request)` is answered by the store alone. */
  private answeredByStore(request: ImageRequest): boolean {
    const stored = this.options.store.get(storeKeyOf(request));
    return (
      stored?.kind === 'image' ||
      stored?.kind === 'missing' ||
      (stored?.kind === 'placeholder' && this.placeholderBytes !== undefined)
    );
  }

  /**
   * Counted upstream requests `image(request)` may make: none when the store
   * answers it or the version is free (V1), else one. The store never
   * stands in for a refused request, so all of it is unanswerable.
   */
  imageCost(request: ImageRequest): Estimate {
    if (!routeOf(request).counted || this.answeredByStore(request)) return nothing;
    return { requests: 1, unanswerable: 1 };
  }

  /**
   * What the raw image route may cost: the image, and for a V2 image that
   * is not stored the data route `explainMissing` asks after a 404.
   */
  rawCost(request: ImageRequest): Estimate {
    const image = this.imageCost(request);
    if (request.version !== 'v2' || this.options.store.get(storeKeyOf(request))?.kind === 'image') return image;
    const check = idCheckOf(request.params);
    return check === undefined ? image : plus(image, check.estimate(this.options.fetcher));
  }

  /** What the logo chain may cost: each counted version's image not answered by the store. */
  logoCost(sources: LogoSources): Estimate {
    return candidatesOf(sources).reduce((total, request) => plus(total, this.imageCost(request)), nothing);
  }

  /**
   * One image: from the store, or from the upstream once (concurrent callers
   * share the request, recorded on its starter's `meter`). Failures other
   * than "not there" throw GatewayErrors.
   */
  async image(request: ImageRequest, deadline: number, meter?: SpendMeter): Promise<ImageOutcome> {
    const key = storeKeyOf(request);
    const stored = this.options.store.get(key);
    if (stored?.kind === 'image') return { kind: 'image', entry: stored, fromStore: true };
    if (stored?.kind === 'missing') return { kind: 'missing' };
    // After a restart the placeholder's bytes are not known: V1 is free, so ask again.
    if (stored?.kind === 'placeholder' && this.placeholderBytes !== undefined)
      return { kind: 'placeholder', bytes: this.placeholderBytes };
    let pending = this.inFlight.get(key);
    if (pending === undefined) {
      pending = this.load(request, key, { deadline, meter }).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async load(request: ImageRequest, key: string, options: FetchOptions): Promise<ImageOutcome> {
    const found = await this.options.shared.get(key);
    if (found !== undefined) {
      const adopted = await this.adopt(key, found);
      if (adopted !== undefined) return adopted;
    }
    return this.fetchImage(request, key, options);
  }

  /** Another replica's answer, kept in this replica's store too; undefined when it expired meanwhile. */
  private async adopt(key: string, found: SharedImage): Promise<ImageOutcome | undefined> {
    const left = found.expiresAt === undefined ? undefined : found.expiresAt - Date.now();
    if (left !== undefined && left <= 0) return undefined;
    switch (found.kind) {
      case 'image': {
        const entry = await this.options.store.putImage(key, found.bytes, found.contentType, left);
        return { kind: 'image', entry, fromStore: true };
      }
      case 'placeholder':
        this.placeholderBytes = found.bytes;
        knownStateChanged();
        await this.options.store.putMarker(key, 'placeholder', left ?? MARKER_TTL_MS);
        return { kind: 'placeholder', bytes: found.bytes };
      case 'missing':
        await this.options.store.putMarker(key, 'missing', left ?? MARKER_TTL_MS);
        return { kind: 'missing' };
    }
  }

  /** Offers what the upstream answered to the other replicas (not awaited: this replica has its answer). */
  private share(key: string, image: SharedImage): void {
    void this.options.shared.put(key, image);
  }

  private async fetchImage(request: ImageRequest, key: string, options: FetchOptions): Promise<ImageOutcome> {
    const route = routeOf(request);
    const response = await this.options.fetcher.fetchRaw(route, request.params as never, options);
    if (response.status === 200) {
      const contentType = imageContentType(response.header('content-type'));
      if (contentType === undefined) {
        throw new GatewayError(
          ErrorCode.UpstreamInvalidResponse,
          `The upstream's answer was not an image (${route.template}).`,
          {
            version: route.version,
            route: route.template,
          },
        );
      }
      // Spec 4.2.6: the placeholder is told by its size or checksum, never by its status.
      if (request.version === 'v1' && isPlaceholder(response.body)) {
        this.placeholderBytes = response.body;
        knownStateChanged();
        await this.options.store.putMarker(key, 'placeholder', MARKER_TTL_MS);
        this.share(key, { kind: 'placeholder', bytes: response.body, expiresAt: Date.now() + MARKER_TTL_MS });
        return { kind: 'placeholder', bytes: response.body };
      }
      const ttl = request.version === 'v6' ? this.options.v6TtlMs : undefined;
      const entry = await this.options.store.putImage(key, response.body, contentType, ttl);
      this.share(key, { kind: 'image', contentType, bytes: response.body, expiresAt: entry.expiresAt });
      return { kind: 'image', entry, fromStore: false };
    }
    if (response.status === 404) {
      const ttl = request.version === 'v6' ? Math.min(this.options.v6TtlMs, MARKER_TTL_MS) : MARKER_TTL_MS;
      await this.options.store.putMarker(key, 'missing', ttl);
      this.share(key, { kind: 'missing', expiresAt: Date.now() + ttl });
      return { kind: 'missing' };
    }
    throw errorOfResponse(route, response);
  }

  /**
   * Spec 7.1: an image 404 is checked against the matching data route before
   * the ID is called invalid (tournaments by `uniqueTournament.id`). V1 has
   * no 404 for a missing image and V6 names files, not IDs: neither has a
   * data route to ask.
   */
  async explainMissing(request: ImageRequest, deadline: number, meter?: SpendMeter): Promise<GatewayError> {
    const where = { version: request.version, route: routeOf(request).template, status: 404 };
    if (request.version !== 'v2') {
      return new GatewayError(ErrorCode.NotFound, 'No such image upstream.', where);
    }
    const { type, id } = request.params;
    const check = idCheckOf(request.params);
    if (check === undefined) {
      const gap = knownGaps.v2CyclingPlayers;
      return new GatewayError(
        ErrorCode.NotFound,
        `V2 cycling has no players: riders are teams (spec ${gap.spec}), see /images/v2/cycling/teams/${id}.`,
        {
          ...where,
          alternative: gap.alternative,
        },
      );
    }
    try {
      await check.run(this.options.fetcher, { deadline, meter });
    } catch (error) {
      if (isGatewayError(error) && error.code === ErrorCode.NotFound) {
        return new GatewayError(
          ErrorCode.NotFound,
          `Invalid V2 ID: the data route also answers 404 (${type} ${id}).`,
          where,
        );
      }
      throw error;
    }
    return new GatewayError(ErrorCode.NotFound, `The V2 entity exists but has no image (${type} ${id}).`, where);
  }

  /**
   * The spec's order for a logo (4.2.9): V1 (free; the placeholder is no
   * logo), then V2 (counted), then V6 (counted, file name from a V6 payload).
   * A version that fails (an image incident, the allowance) is skipped, so
   * V1 stays the fallback while V2 is down (4.2.10).
   */
  async logo(sources: LogoSources, deadline: number, meter?: SpendMeter): Promise<ChainReport> {
    const candidates = candidatesOf(sources);
    const steps: Array<ChainReport['steps'][number]> = [];
    const errors: GatewayError[] = [];
    for (const request of candidates) {
      try {
        const outcome = await this.image(request, deadline, meter);
        steps.push({ version: request.version, outcome: outcome.kind });
        if (outcome.kind === 'image') {
          return { found: { request, url: gatewayUrlOf(request), entry: outcome.entry }, steps, errors };
        }
      } catch (error) {
        steps.push({ version: request.version, outcome: 'error' });
        if (!isGatewayError(error)) throw error;
        this.options.logger.debug({ version: request.version, code: error.code }, 'logo fallback: version skipped');
        errors.push(error);
      }
    }
    return { found: undefined, steps, errors };
  }
}

/** The logo chain's order (spec 4.2.9): V1, then V2, then V6. */
function candidatesOf(sources: LogoSources): ImageRequest[] {
  const candidates: ImageRequest[] = [];
  if (sources.v1 !== undefined) candidates.push({ version: 'v1', params: sources.v1 });
  if (sources.v2 !== undefined) candidates.push({ version: 'v2', params: sources.v2 });
  if (sources.v6 !== undefined) candidates.push({ version: 'v6', params: sources.v6 });
  return candidates;
}
