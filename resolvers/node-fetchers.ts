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

type AnyNode = ResolversInterfaceTypes<Record<string, unknown>>['Node'];
export type NodeFetcher = (id: GlobalId, ctx: GatewayContext) => Promise<AnyNode>;

const notRefetchable = (alternative: string): NodeFetcher => async () => {
  throw new GatewayError(ErrorCode.NotSupported, 'The upstream has no route that returns this entity alone.', { alternative });
};

export const nodeFetchers: Readonly<Record<string, NodeFetcher>> = {
  V1HockeyAthlete: (id, ctx) => loadV1HockeyAthlete(ctx, integerId(id.nativeId, 'athlete id')),
  V1HockeyCompetitor: notRefetchable('v1.hockey.standings'),
  V1HockeyNewsArticle: notRefetchable('v1.hockey.news'),
};
