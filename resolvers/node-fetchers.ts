/**
 * How `node(id:)` fetches each type again from its global ID. A type whose
 * version has no route to fetch one entity alone says so, with the route
 * to use instead, and spends nothing.
 */
import type { GatewayContext } from '../src/context.js';
import type { ResolversInterfaceTypes } from '../src/generated/resolvers-types.js';
import type { GlobalId } from '../src/model/global-id.js';
import { integerId } from '../src/model/native-id.js';
import { ErrorCode, GatewayError } from '../src/upstream/errors.js';
import { loadV1HockeyAthlete } from './hockey-v1.js';
import { loadV2Manager, loadV2Player, loadV2Team, loadV2Tournament } from './v2.js';
import { loadV2Event } from './v2-events.js';
import { loadV1FootballCompetitor, loadV1WorldCupMatch } from './world-cup.js';
import { loadAussieCoach, loadAussieGround, loadAussieUmpire } from './aussie-rules.js';

type AnyNode = ResolversInterfaceTypes<Record<string, unknown>>['Node'];
export type NodeFetcher = (id: GlobalId, ctx: GatewayContext) => Promise<AnyNode>;

const notRefetchable = (alternative: string): NodeFetcher => async () => {
  throw new GatewayError(ErrorCode.NotSupported, 'The upstream has no route that returns this entity alone.', { alternative });
};

export const nodeFetchers: Readonly<Record<string, NodeFetcher>> = {
  V1HockeyAthlete: (id, ctx) => loadV1HockeyAthlete(ctx, integerId(id.nativeId, 'athlete id')),
  V1HockeyCompetitor: notRefetchable('v1.hockey.standings'),
  V1HockeyNewsArticle: notRefetchable('v1.hockey.news'),
  V2Team: (id, ctx) => loadV2Team(ctx, id.sport, integerId(id.nativeId, 'team id')),
  V2Player: (id, ctx) => loadV2Player(ctx, id.sport, integerId(id.nativeId, 'player id')),
  V2Tournament: (id, ctx) => loadV2Tournament(ctx, id.sport, integerId(id.nativeId, 'tournament id')),
  V2Manager: (id, ctx) => loadV2Manager(ctx, id.sport, integerId(id.nativeId, 'manager id')),
  V2Venue: notRefetchable('v2(sport:) { team(id:) { venue } }'),
  V2Event: (id, ctx) => loadV2Event(ctx, id.sport, integerId(id.nativeId, 'event id')),
  V1WorldCupMatch: (id, ctx) => loadV1WorldCupMatch(ctx, integerId(id.nativeId, 'game id')),
  V1FootballCompetitor: (id, ctx) => loadV1FootballCompetitor(ctx, integerId(id.nativeId, 'competitor id')),
  V1FootballVenue: notRefetchable('v1 { worldCup { gameDetail(id:) { venue } } }'),
  AussieRulesCoach: (id, ctx) => loadAussieCoach(ctx, integerId(id.nativeId, 'coach id')),
  AussieRulesUmpire: (id, ctx) => loadAussieUmpire(ctx, integerId(id.nativeId, 'umpire id')),
  AussieRulesGround: (id, ctx) => loadAussieGround(ctx, integerId(id.nativeId, 'ground id')),
};
