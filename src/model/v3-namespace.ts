/**
 * `v3`: V3 spells sport slugs its own way (`water-polo`); the slug comes from
 * `/reference/sports` (free, cached a day).
 */
import type { GatewayContext } from '../context.js';
import { ErrorCode, GatewayError } from '../upstream/errors.js';
import { referenceRoutes } from '../upstream/routes/reference.js';
import type { V3Event, V3Team } from '../upstream/routes/v3.js';

export async function v3Slug(ctx: GatewayContext, sport: string): Promise<string> {
  const catalogue = await ctx.upstream.load(referenceRoutes.sports, {});
  const slug = catalogue.sports.find((entry) => entry.sport.toUpperCase() === sport)?.slugs.v3;
  if (slug == null) throw new GatewayError(ErrorCode.NotSupported, `V3 does not carry ${sport}.`, { version: 'v3', alternative: 'sports' });
  return slug;
}

/** V3 entities carry the V3 slug they were fetched under (the match global route has a sport of its own). */
export interface V3EventModel {
  readonly slug: string;
  readonly value: V3Event;
  readonly league: { id: number; name: string } | null;
}

export interface V3TeamModel {
  readonly slug: string;
  readonly value: V3Team;
}
