/**
 * `v2(sport:|sportKey:)`: the namespace knows what its arguments named; its
 * V2 slug comes from `/reference/sports` (free, cached a day), so the
 * spellings stay the upstream's own.
 */
import type { GraphQLSchema } from 'graphql';
import type { LoaderPort } from '../loaders/loader-ports.js';
import { ErrorCode, GatewayError } from '../upstream/errors.js';
import { chosenSport, slugOn, type SportChoice } from './sport-catalogue.js';

export interface V2Namespace {
  /** What `v2(...)` named: an enum value or a catalogue key. */
  readonly choice: SportChoice;
  /** Canonical enum value (`ICE_HOCKEY`, `WATER_POLO`); null for a sport the enum does not know. */
  readonly sport: string | null;
}

/**
 * An enum choice needs no catalogue read (a documented gap of that sport is
 * answered with no request at all); a key is looked up at once, so that the
 * sport-specific fields know which enum value, if any, it stands for.
 */
export async function v2Namespace(ctx: LoaderPort, choice: SportChoice, schema: GraphQLSchema): Promise<V2Namespace> {
  if (choice.sport !== undefined) return { choice, sport: choice.sport };
  return { choice, sport: (await chosenSport(ctx, choice, schema, 'v2')).sport };
}

/** The V2 slug of a sport; NOT_SUPPORTED, naming the catalogue entry, when V2 does not carry it. */
export function v2Slug(ctx: LoaderPort, choice: SportChoice): Promise<string> {
  return slugOn(ctx, choice, 'v2');
}

/**
 * For fields that exist on some V2 sports only (the World Cup on football,
 * manager careers on football...): NOT_SUPPORTED elsewhere, with no request.
 */
export function requireV2Sport(namespace: V2Namespace, allowed: readonly string[], field: string): void {
  if (namespace.sport === null || !allowed.includes(namespace.sport)) {
    throw new GatewayError(ErrorCode.NotSupported, `${field} exists on V2 ${allowed.join(', ')} only.`, {
      version: 'v2',
      alternative: `v2(sport: ${allowed[0] ?? 'FOOTBALL'}) { ${field} }`,
    });
  }
}
