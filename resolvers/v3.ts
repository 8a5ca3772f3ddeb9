/**
 * The `v3` namespace: day windows per sport, sport-less globals, and the
 * cycling feed read as classifications of rider placings (spec 2.12).
 */
import type { Resolvers, Sport } from '../src/generated/resolvers-types.js';
import { toGlobalId } from '../src/model/global-id.js';
import { listedAt, listingOf } from '../src/model/listing.js';
import { namespace } from '../src/model/namespace.js';
import { integerId } from '../src/model/native-id.js';
import { tagType } from '../src/model/typename.js';
import { toClassification } from '../src/model/v3-cycling.js';
import { chosenSport, slugOf, sportChoice } from '../src/model/sport-catalogue.js';
import type { V3EventModel, V3TeamModel } from '../src/model/v3-namespace.js';
import type { V3WindowEnum } from '../src/model/v3-window.js';
import { ErrorCode, GatewayError } from '../src/upstream/errors.js';
import { v3Routes, type V3Event, type V3League, type V3Team, type V3WindowName } from '../src/upstream/routes/v3.js';

const windowName = (w: V3WindowEnum): V3WindowName => w.toLowerCase() as V3WindowName;
const gid = (slug: string, typeName: string, id: number, via?: Readonly<Record<string, string>>) =>
  toGlobalId({ version: 'v3', sport: slug, typeName, nativeId: String(id), via });
const eventModel = (
  slug: string,
  value: V3Event,
  league: V3League | { id: number; name: string } | null,
): V3EventModel =>
  tagType({ slug, value, league: league === null ? null : { id: league.id, name: league.name } }, 'V3Event');

/**
 * V3 has no team route: a team's ID names the event it played in (which
 * node(id:) reads it from), not where that event was listed, so that the
 * same team of the same event has one ID from a window and from `match`.
 */
const teamModel = (e: V3EventModel, value: V3Team): V3TeamModel =>
  tagType(listedAt({ slug: e.slug, value }, { event: e.value.id }), 'V3Team');

export const v3Resolvers: Resolvers = {
  Query: {
    v3: () => namespace('v3'),
  },
  V3: {
    sports: async (_, __, ctx) => (await ctx.upstream.load(v3Routes.sports, {})).sports,
    match: async (_, { id }, ctx) => {
      const { match } = await ctx.upstream.load(v3Routes.match, { id: integerId(id, 'match id') });
      return eventModel(match.sport, match, match.league);
    },
    search: async (_, { query }, ctx) => {
      const text = query.trim();
      if (text.length < 2 || text.length > 100)
        throw new GatewayError(ErrorCode.BadUserInput, 'query must be 2 to 100 characters.');
      return (await ctx.upstream.load(v3Routes.search, { query: text })).results.map((r) => ({
        ...r,
        nativeId: String(r.id),
      }));
    },
    window: async (_, args, ctx, info) => {
      const { window } = args;
      const { entry, sport } = await chosenSport(ctx, sportChoice(args), info.schema, 'v3');
      const slug = slugOf(entry, 'v3');
      const payload = await ctx.upstream.load(v3Routes.window, { sport: slug, window: windowName(window) });
      return { sport, sportKey: entry.sport, slug, window, payload };
    },
    cycling: async (_, { window }, ctx) => {
      const payload = await ctx.upstream.load(v3Routes.cycling, { window: windowName(window) });
      return { window, classifications: payload.leagues.map(toClassification) };
    },
  },
  V3DayWindow: {
    sport: (w) => w.sport as Sport | null,
    leagues: (w) => w.payload.leagues.map((value) => ({ slug: w.slug, value })),
    events: (w) => w.payload.leagues.flatMap((league) => league.events.map((e) => eventModel(w.slug, e, league))),
  },
  V3League: {
    nativeId: (l) => String(l.value.id),
    name: (l) => l.value.name,
    country: (l) => l.value.country ?? null,
    events: (l) => l.value.events.map((e) => eventModel(l.slug, e, l.value)),
  },
  V3Event: {
    // One event, one ID: not where it was listed (node(id:) finds it in any fresh window of its sport).
    id: (e) => gid(e.slug, 'V3Event', e.value.id),
    ref: (e) => ({ version: 'V3', nativeId: String(e.value.id), sport: e.slug }),
    startTime: (e) => new Date(e.value.startTime),
    status: (e) => ({
      live: e.value.status === 'live',
      finished: e.value.status === 'finished',
      description: e.value.status,
      code: null,
    }),
    homeTeam: (e) => teamModel(e, e.value.homeTeam),
    awayTeam: (e) => teamModel(e, e.value.awayTeam),
    homeScore: (e) => e.value.score?.home ?? null,
    awayScore: (e) => e.value.score?.away ?? null,
    league: (e) => e.league?.name ?? null,
    raw: (e) => e.value,
  },
  V3Team: {
    id: (t) => gid(t.slug, 'V3Team', t.value.id, listingOf(t)),
    ref: (t) => ({ version: 'V3', nativeId: String(t.value.id), sport: t.slug }),
    name: (t) => t.value.name,
    shortName: (t) => t.value.shortName ?? null,
    // V3 has no image route (spec 4.2 lists V1, V2, V6).
    image: () => null,
    raw: (t) => t.value,
  },
  V3CyclingFeed: {
    general: (f) => f.classifications.find((c) => c.kind === 'GENERAL') ?? null,
    stages: (f) => f.classifications.filter((c) => c.kind === 'STAGE').sort((a, b) => (a.stage ?? 0) - (b.stage ?? 0)),
  },
  CyclingPlacing: {
    riderNativeId: (p) => String(p.riderId),
  },
};
