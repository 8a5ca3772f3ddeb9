/**
 * Images in GraphQL: the V6 thumbnail variant, and `logo` through the
 * fallback chain (src/images/service.ts) on the root, V1 competitors and V2
 * teams. The chain stores what it finds, so the returned URL is served from
 * the store without another upstream request.
 */
import type { GatewayContext } from '../src/context.js';
import type { Resolvers, Sport } from '../src/generated/resolvers-types.js';
import { imageServiceFor } from '../src/images/for-services.js';
import type { ChainReport } from '../src/images/service.js';
import { isV6FileName, type LogoSources } from '../src/images/paths.js';
import type { ImageRef } from '../src/model/image-ref.js';
import { integerId } from '../src/model/native-id.js';
import { v2Slug } from '../src/model/v2-namespace.js';
import { ErrorCode, GatewayError } from '../src/upstream/errors.js';
import { referenceRoutes } from '../src/upstream/routes/reference.js';

const THUMBNAIL_SUFFIX = /![a-z][0-9]{1,4}$/;

/** The V6 slug of a sport; NOT_SUPPORTED when V6 does not carry it. */
async function v6Slug(ctx: GatewayContext, sport: Sport): Promise<string> {
  const catalogue = await ctx.upstream.load(referenceRoutes.sports, {});
  const slug = catalogue.sports.find((entry) => entry.sport.toUpperCase() === sport)?.slugs.v6;
  if (slug == null) throw new GatewayError(ErrorCode.NotSupported, `V6 does not carry ${sport}.`, { version: 'v6', alternative: 'sports' });
  return slug;
}

interface LogoArgs {
  v1CompetitorId?: string | null | undefined;
  v1ImageVersion?: number | null | undefined;
  v2TeamId?: string | null | undefined;
  v2Sport?: Sport | null | undefined;
  v6Logo?: string | null | undefined;
  v6Sport?: Sport | null | undefined;
}

async function sourcesOf(ctx: GatewayContext, args: LogoArgs): Promise<LogoSources> {
  if (args.v2TeamId != null && args.v2Sport == null) throw new GatewayError(ErrorCode.BadUserInput, 'v2TeamId needs v2Sport.');
  if (args.v6Logo != null && !isV6FileName(args.v6Logo)) {
    throw new GatewayError(ErrorCode.BadUserInput, 'v6Logo must be a file name exactly as a V6 payload gave it.');
  }
  return {
    v1:
      args.v1CompetitorId == null
        ? undefined
        : { type: 'competitors', id: integerId(args.v1CompetitorId, 'v1CompetitorId'), imageVersion: args.v1ImageVersion ?? undefined },
    v2:
      args.v2TeamId == null || args.v2Sport == null
        ? undefined
        : { sport: await v2Slug(ctx, args.v2Sport), type: 'teams', id: integerId(args.v2TeamId, 'v2TeamId') },
    v6: args.v6Logo == null ? undefined : { sport: await v6Slug(ctx, args.v6Sport ?? 'FOOTBALL'), type: 'teams', filename: args.v6Logo },
  };
}

async function logo(ctx: GatewayContext, sources: LogoSources): Promise<ImageRef | null> {
  if (sources.v1 === undefined && sources.v2 === undefined && sources.v6 === undefined) {
    throw new GatewayError(ErrorCode.BadUserInput, 'Give at least one of v1CompetitorId, v2TeamId or v6Logo.');
  }
  const images = await imageServiceFor(ctx.services);
  // The chain bypasses the request loader but spends on the operation's meter: traced, charged, and refused by the client's budget like any load.
  const report: ChainReport = await images.logo(sources, ctx.deadline, ctx.upstream.meter);
  if (report.found !== undefined) {
    const version = report.found.request.version === 'v1' ? 'V1' : report.found.request.version === 'v2' ? 'V2' : 'V6';
    return { url: report.found.url, version, placeholder: false };
  }
  // No version had one: null, plus the failure that may have hidden one (an incident, the allowance).
  const failure = report.errors[0];
  if (failure !== undefined) throw failure;
  return null;
}

export const imageResolvers: Resolvers = {
  Image: {
    thumbnail: (image) => {
      if (image.version !== 'V6') return null;
      const [path = '', query] = image.url.split('?');
      if (THUMBNAIL_SUFFIX.test(path)) return null;
      return { url: `${path}!w80${query === undefined ? '' : `?${query}`}`, version: 'V6', placeholder: null };
    },
  },
  Query: {
    logo: async (_, { sources }, ctx) => logo(ctx, await sourcesOf(ctx, sources)),
  },
  V1HockeyCompetitor: {
    logo: async (competitor, args, ctx) =>
      logo(ctx, await sourcesOf(ctx, { ...args, v1CompetitorId: String(competitor.id), v1ImageVersion: competitor.imageVersion ?? null })),
  },
  V2Team: {
    logo: async ({ slug, value }, args, ctx) => {
      const sources = await sourcesOf(ctx, args);
      return logo(ctx, { ...sources, v2: { sport: slug, type: 'teams', id: value.id } });
    },
  },
};
