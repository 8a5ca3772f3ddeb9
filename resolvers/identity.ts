/**
 * `counterparts`: one entity across versions (src/identity/). The root field
 * takes any global ID of a type with counterparts; the type fields read the
 * entity the parent already holds.
 */
import type { ResolverContext } from '../src/context.js';
import type { Resolvers, Version as VersionEnum } from '../src/generated/resolvers-types.js';
import { counterpartNodeId } from '../src/identity/counterpart-node.js';
import {
  describeNode,
  refOfGlobalId,
  TYPES_WITH_COUNTERPARTS,
  v1FootballCompetitorEntity,
  v1HockeyCompetitorEntity,
  v2TeamEntity,
  v2TournamentEntity,
  v3TeamEntity,
  v1WorldCupMatchEntity,
  v2EventEntity,
  v1HockeyAthleteEntity,
  v2PlayerEntity,
  v6TeamStatsEntity,
} from '../src/identity/describe.js';
import type { Counterpart, Described } from '../src/identity/entity-ref.js';
import { findCounterparts, linkedCounterparts } from '../src/identity/find-counterparts.js';
import { fromGlobalId } from '../src/model/global-id.js';
import { locateNode } from '../src/model/node-sources.js';
import { typeOf } from '../src/model/typename.js';
import { ErrorCode, GatewayError } from '../src/upstream/errors.js';
import type { Version } from '../src/upstream/routes/route.js';

const lower = (versions: readonly VersionEnum[]): Version[] => versions.map((v) => v.toLowerCase() as Version);

function find(ctx: ResolverContext, entity: Described, versions: readonly VersionEnum[]): Promise<Counterpart[]> {
  return findCounterparts(ctx, ctx.counterparts, entity, lower(versions));
}

export const identityResolvers: Resolvers = {
  Query: {
    counterparts: async (_, { id, versions }, ctx) => {
      const global = fromGlobalId(id);
      const ref = refOfGlobalId(global);
      const known = ref === undefined ? undefined : await linkedCounterparts(ctx.counterparts, ref, lower(versions));
      if (known !== undefined) return known;
      const node = await locateNode(ctx, global);
      const entity = describeNode(node);
      if (entity === undefined)
        throw new GatewayError(
          ErrorCode.BadUserInput,
          `${typeOf(node) ?? 'This type'} has no counterparts; types that have: ${TYPES_WITH_COUNTERPARTS.join(', ')}.`,
        );
      return find(ctx, entity, versions);
    },
  },
  V2Team: { counterparts: (team, { versions }, ctx) => find(ctx, v2TeamEntity(team), versions) },
  V2Tournament: { counterparts: (t, { versions }, ctx) => find(ctx, v2TournamentEntity(t), versions) },
  V1FootballCompetitor: {
    counterparts: (team, { versions }, ctx) => find(ctx, v1FootballCompetitorEntity(team), versions),
  },
  V1HockeyCompetitor: {
    counterparts: (competitor, { versions }, ctx) => find(ctx, v1HockeyCompetitorEntity(competitor), versions),
  },
  V3Team: { counterparts: (team, { versions }, ctx) => find(ctx, v3TeamEntity(team), versions) },
  V1WorldCupMatch: { counterparts: (match, { versions }, ctx) => find(ctx, v1WorldCupMatchEntity(match), versions) },
  V2Event: { counterparts: (event, { versions }, ctx) => find(ctx, v2EventEntity(event), versions) },
  V1HockeyAthlete: {
    counterparts: (athlete, { versions }, ctx) => find(ctx, v1HockeyAthleteEntity(athlete), versions),
  },
  V2Player: { counterparts: (player, { versions }, ctx) => find(ctx, v2PlayerEntity(player), versions) },
  V6TeamStats: { counterparts: (team, { versions }, ctx) => find(ctx, v6TeamStatsEntity(team), versions) },
  Counterpart: {
    version: (c) => c.version.toUpperCase() as VersionEnum,
    nodeId: (c) => counterpartNodeId(c),
  },
};
