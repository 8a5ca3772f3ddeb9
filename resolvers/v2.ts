/**
 * The `v2(sport:)` namespace and the V2 entities every sport shares.
 */
import type { ResolverContext } from '../src/context.js';
import type { Resolvers, Sport } from '../src/generated/resolvers-types.js';
import { toGlobalId } from '../src/model/global-id.js';
import { listedAt, listingOf } from '../src/model/listing.js';
import { integerId } from '../src/model/native-id.js';
import { tagType } from '../src/model/typename.js';
import type { V2ManagerModel, V2PlayerModel, V2TeamModel, V2TournamentModel } from '../src/model/v2-entities.js';
import { chosenEntry, sportChoice } from '../src/model/sport-catalogue.js';
import { v2Namespace, v2Slug } from '../src/model/v2-namespace.js';
import { knownGap } from '../src/upstream/known-gaps.js';
import { v2Routes } from '../src/upstream/routes/v2.js';

/** Spec 4.9: cycling has no `/api/players/{id}`; riders are teams. */
const CYCLING_SLUG = 'cycling';

const ref = (slug: string, nativeId: number) => ({ version: 'V2' as const, nativeId: String(nativeId), sport: slug });
const globalId = (slug: string, typeName: string, nativeId: number, via?: Readonly<Record<string, string>>) =>
  toGlobalId({ version: 'v2', sport: slug, typeName, nativeId: String(nativeId), via });

export async function loadV2Team(ctx: ResolverContext, slug: string, id: number): Promise<V2TeamModel> {
  const payload = await ctx.upstream.load(v2Routes.team, { sport: slug, id });
  return tagType({ slug, value: payload.team }, 'V2Team');
}

export async function loadV2Player(ctx: ResolverContext, slug: string, id: number): Promise<V2PlayerModel> {
  // Reached by node(id:) with a cycling player's global ID, which the gateway never mints but a client can build.
  if (slug === CYCLING_SLUG) throw knownGap('v2CyclingPlayers');
  const payload = await ctx.upstream.load(v2Routes.player, { sport: slug, id });
  return tagType({ slug, value: payload.player }, 'V2Player');
}

export async function loadV2Tournament(ctx: ResolverContext, slug: string, id: number): Promise<V2TournamentModel> {
  const payload = await ctx.upstream.load(v2Routes.tournament, { sport: slug, uniqueTournamentId: id });
  return tagType({ slug, value: payload.uniqueTournament }, 'V2Tournament');
}

export async function loadV2Manager(ctx: ResolverContext, slug: string, id: number): Promise<V2ManagerModel> {
  const payload = await ctx.upstream.load(v2Routes.manager, { sport: slug, id });
  return tagType({ slug, value: payload.manager }, 'V2Manager');
}

export const v2Resolvers: Resolvers = {
  Query: {
    v2: (_, args, ctx, info) => v2Namespace(ctx, sportChoice(args), info.schema),
  },
  V2: {
    sport: (ns) => ns.sport as Sport | null,
    sportKey: async (ns, _, ctx) => ns.choice.key ?? (await chosenEntry(ctx, ns.choice)).sport,
    slug: (ns, _, ctx) => v2Slug(ctx, ns.choice),
    team: async (ns, { id }, ctx) => loadV2Team(ctx, await v2Slug(ctx, ns.choice), integerId(id, 'team id')),
    player: async (ns, { id }, ctx) => {
      const playerId = integerId(id, 'player id');
      // Decided on the enum, before the catalogue is read for the slug: nothing at all is requested.
      if (ns.sport === 'CYCLING') throw knownGap('v2CyclingPlayers');
      return loadV2Player(ctx, await v2Slug(ctx, ns.choice), playerId);
    },
    tournament: async (ns, { id }, ctx) =>
      loadV2Tournament(ctx, await v2Slug(ctx, ns.choice), integerId(id, 'tournament id')),
    manager: async (ns, { id }, ctx) => loadV2Manager(ctx, await v2Slug(ctx, ns.choice), integerId(id, 'manager id')),
  },
  V2Team: {
    id: ({ slug, value }) => globalId(slug, 'V2Team', value.id),
    ref: ({ slug, value }) => ref(slug, value.id),
    name: ({ value }) => value.name,
    shortName: ({ value }) => value.shortName ?? null,
    country: ({ value }) => value.country?.name ?? null,
    isRider: ({ value }) => value.type === 'rider',
    manager: ({ slug, value }) =>
      value.manager === undefined ? null : tagType({ slug, value: value.manager }, 'V2Manager'),
    // The venue has no route of its own: its ID names the team that carries it (src/model/node-sources.ts).
    venue: ({ slug, value }) =>
      value.venue === undefined ? null : tagType(listedAt({ slug, value: value.venue }, { team: value.id }), 'V2Venue'),
    image: ({ slug, value }) => ({ url: `/images/v2/${slug}/teams/${value.id}`, version: 'V2', placeholder: null }),
    raw: ({ value }) => value,
  },
  V2Player: {
    id: ({ slug, value }) => globalId(slug, 'V2Player', value.id),
    ref: ({ slug, value }) => ref(slug, value.id),
    name: ({ value }) => value.name,
    shortName: ({ value }) => value.shortName ?? null,
    position: ({ value }) => value.position ?? null,
    jerseyNumber: ({ value }) => value.jerseyNumber ?? null,
    dateOfBirth: ({ value }) =>
      value.dateOfBirthTimestamp === undefined ? null : new Date(value.dateOfBirthTimestamp * 1000),
    country: ({ value }) => value.country?.name ?? null,
    team: ({ value }) => value.team ?? null,
    image: ({ slug, value }) => ({ url: `/images/v2/${slug}/players/${value.id}`, version: 'V2', placeholder: null }),
    raw: ({ value }) => value,
  },
  V2TeamRef: {
    nativeId: (team) => String(team.id),
  },
  V2Tournament: {
    id: ({ slug, value }) => globalId(slug, 'V2Tournament', value.id),
    ref: ({ slug, value }) => ref(slug, value.id),
    name: ({ value }) => value.name,
    category: ({ value }) => value.category?.name ?? null,
    image: ({ slug, value }) => ({
      url: `/images/v2/${slug}/tournaments/${value.id}`,
      version: 'V2',
      placeholder: null,
    }),
    raw: ({ value }) => value,
  },
  V2Manager: {
    id: ({ slug, value }) => globalId(slug, 'V2Manager', value.id),
    ref: ({ slug, value }) => ref(slug, value.id),
    name: ({ value }) => value.name,
    shortName: ({ value }) => value.shortName ?? null,
    nationality: ({ value }) => value.nationality ?? null,
    team: ({ value }) => value.team ?? null,
    image: ({ slug, value }) => ({ url: `/images/v2/${slug}/managers/${value.id}`, version: 'V2', placeholder: null }),
    raw: ({ value }) => value,
  },
  V2Venue: {
    id: (venue) => globalId(venue.slug, 'V2Venue', venue.value.id, listingOf(venue)),
    ref: ({ slug, value }) => ref(slug, value.id),
    name: ({ value }) => value.name,
    city: ({ value }) => value.city ?? null,
    country: ({ value }) => value.country ?? null,
    capacity: ({ value }) => value.capacity ?? null,
    coordinates: ({ value }) => value.coordinates ?? null,
    raw: ({ value }) => value,
  },
};
