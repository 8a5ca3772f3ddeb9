/**
 * `v2(sport:)`: the namespace knows its canonical sport; its V2 slug comes
 * from `/reference/sports` (free, cached a day), so the spellings stay the
 * upstream's own.
 */
import type { GatewayContext } from '../context.js';
import { ErrorCode, GatewayError } from '../upstream/errors.js';
import { referenceRoutes } from '../upstream/routes/reference.js';

export interface V2Namespace {
  /** Canonical enum value: `ICE_HOCKEY`, `WATER_POLO`. */
  readonly sport: string;
}

/** The V2 slug of a sport; NOT_SUPPORTED when V2 does not carry it. */
export async function v2Slug(ctx: GatewayContext, sport: string): Promise<string> {
  const catalogue = await ctx.upstream.load(referenceRoutes.sports, {});
  const slug = catalogue.sports.find((entry) => entry.sport.toUpperCase() === sport)?.slugs.v2;
  if (slug == null) {
    throw new GatewayError(ErrorCode.NotSupported, `V2 does not carry ${sport}.`, { version: 'v2', alternative: 'sports' });
  }
  return slug;
}

/**
 * For fields that exist on some V2 sports only (the World Cup on football,
 * manager careers on football...): NOT_SUPPORTED elsewhere, with no request.
 */
export function requireV2Sport(namespace: V2Namespace, allowed: readonly string[], field: string): void {
  if (!allowed.includes(namespace.sport)) {
    throw new GatewayError(ErrorCode.NotSupported, `${field} exists on V2 ${allowed.join(', ')} only.`, {
      version: 'v2',
      alternative: `v2(sport: ${allowed[0] ?? 'FOOTBALL'}) { ${field} }`,
    });
  }
}
