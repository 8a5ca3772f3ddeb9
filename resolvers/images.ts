/**
 * Images in GraphQL: the V6 thumbnail variant, and `logo` through the
 * fallback chain (src/images/service.ts) on the root, V1 competitors and V2
 * teams. The chain stores what it finds, so the returned URL is served from
 * the store without another upstream request.
 */
import type { ResolverContext } from '../src/context.js';
import type { Resolvers, Sport } from '../src/generated/resolvers-types.js';
import type { ChainReport } from '../src/images/service.js';
import { isV6FileName, type LogoSources } from '../src/model/image-paths.js';
import type { ImageRef } from '../src/model/image-ref.js';
import { integerId } from '../src/model/native-id.js';
import { slugOn, sportChoice } from '../src/model/sport-catalogue.js';
import { ErrorCode, GatewayError } from '../src/upstream/errors.js';

const THUMBNAIL_SUFFIX = /![a-z][0-9]{1,4}$/;

interface LogoArgs {
  v1CompetitorId?: string | null | undefined;
  v1ImageVersion?: number | null | undefined;
  v2TeamId?: string | null | undefined;
  v2Sport?: Sport | null | undefined;
  v2SportKey?: string | null | undefined;
  v6Logo?: string | null | undefined;
  v6Sport?: Sport | null | undefined;
  v6SportKey?: string | null | undefined;
}

const V2_SPORT_ARGS = { sport: 'v2Sport', sportKey: 'v2SportKey' };
const V6_SPORT_ARGS = { sport: 'v6Sport', sportKey: 'v6SportKey' };

async function sourcesOf(ctx: ResolverContext, args: LogoArgs): Promise<LogoSources> {
  // Both checked before the catalogue is read for either slug.
  const v2Choice =
    args.v2TeamId == null ? undefined : sportChoice({ sport: args.v2Sport, sportKey: args.v2SportKey }, V2_SPORT_ARGS);
  const v6Sport = args.v6Sport ?? (args.v6SportKey == null ? 'FOOTBALL' : null);
  const v6Choice =
    args.v6Logo == null ? undefined : sportChoice({ sport: v6Sport, sportKey: args.v6SportKey }, V6_SPORT_ARGS);
  if (args.v6Logo != null && !isV6FileName(args.v6Logo)) {
    throw new GatewayError(ErrorCode.BadUserInput, 'v6Logo must be a file name exactly as a V6 payload gave it.');
  }
  return {
    v1:
      args.v1CompetitorId == null
        ? undefined
        : {
            type: 'competitors',
            id: integerId(args.v1CompetitorId, 'v1CompetitorId'),
            imageVersion: args.v1ImageVersion ?? undefined,
          },
    v2:
      args.v2TeamId == null || v2Choice === undefined
        ? undefined
        : { sport: await slugOn(ctx, v2Choice, 'v2'), type: 'teams', id: integerId(args.v2TeamId, 'v2TeamId') },
    v6:
      args.v6Logo == null || v6Choice === undefined
        ? undefined
        : { sport: await slugOn(ctx, v6Choice, 'v6'), type: 'teams', filename: args.v6Logo },
  };
}

async function logo(ctx: ResolverContext, sources: LogoSources): Promise<ImageRef | null> {
  if (sources.v1 === undefined && sources.v2 === undefined && sources.v6 === undefined) {
    throw new GatewayError(ErrorCode.BadUserInput, 'Give at least one of v1CompetitorId, v2TeamId or v6Logo.');
  }
  const images = await ctx.images();
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
      logo(
        ctx,
        await sourcesOf(ctx, {
          ...args,
          v1CompetitorId: String(competitor.id),
          v1ImageVersion: competitor.imageVersion ?? null,
        }),
      ),
  },
  V2Team: {
    logo: async ({ slug, value }, args, ctx) => {
      const sources = await sourcesOf(ctx, args);
      return logo(ctx, { ...sources, v2: { sport: slug, type: 'teams', id: value.id } });
    },
  },
};
