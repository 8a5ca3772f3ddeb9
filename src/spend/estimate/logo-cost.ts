/**
 * What a `logo` field costs (resolvers/images.ts runs the chain of
 * src/images/service.ts): V1 is free; V2 and V6 each take one image request
 * unless the image store already answers it. The chain asks only its
 * images, never a data route, and stops at the first image found, so this
 * is an upper bound; arguments the resolver refuses cost nothing.
 *
 * A V2 team's own image is named by its parent: when the estimate knows the
 * team (src/spend/estimate/resolve-known.ts) the store is asked for exactly that
 * image, so logos already stored cost nothing across a list of teams.
 */
import { isV6FileName } from '../../model/image-paths.js';
import type { V2ImageParams } from '../../upstream/routes/images.js';
import { integerId } from '../../model/native-id.js';
import { sportChoice, type SportArgNames, type SportChoice } from '../../model/sport-catalogue.js';
import { v2Slug } from '../../model/v2-namespace.js';
import { computed, type Args, type CostInput, type FieldCost } from './cost-rule.js';
import { nothing, type Estimate } from '../resource-estimate.js';

const V2_LOGO_SPORT_ARGS: SportArgNames = { sport: 'v2Sport', sportKey: 'v2SportKey' };

/** The V2 image the chain would ask for: undefined for none, 'unnamed' when it is not known which. */
type V2Source = V2ImageParams | 'unnamed' | undefined;

async function v2FromArgs(input: CostInput, args: Args): Promise<V2Source> {
  if (args['v2TeamId'] == null) return undefined;
  let choice: SportChoice;
  try {
    choice = sportChoice(
      {
        sport: args['v2Sport'] as string | null | undefined,
        sportKey: args['v2SportKey'] as string | null | undefined,
      },
      V2_LOGO_SPORT_ARGS,
    );
  } catch {
    // Refused by the resolver before any request (withLogoSportArgs costs it 0).
    return undefined;
  }
  return {
    sport: await v2Slug(input.context, choice),
    type: 'teams',
    id: integerId(String(args['v2TeamId']), 'v2TeamId'),
  };
}

/**
 * @param argsOf the logo's source arguments (the field's own, or `sources` of Query.logo).
 * @param v2OfParent the parent's own V2 image (V2Team.logo), 'unnamed' while the parent is not known.
 */
export function logoCost(
  argsOf: (args: Args) => Args,
  v2OfParent?: (input: CostInput) => V2Source,
  hasV1 = false,
): FieldCost {
  return computed(async (input): Promise<Estimate> => {
    const args = argsOf(input.args);
    const v6Logo = args['v6Logo'];
    // Refused by the resolver before any request (BAD_USER_INPUT).
    if (args['v2TeamId'] != null && args['v2Sport'] == null) return nothing;
    if (v6Logo != null && (typeof v6Logo !== 'string' || !isV6FileName(v6Logo))) return nothing;
    let v2: V2Source;
    try {
      v2 = v2OfParent === undefined ? await v2FromArgs(input, args) : v2OfParent(input);
    } catch {
      // A bad ID or a sport V2 does not carry fails before any request.
      return nothing;
    }
    if (!hasV1 && args['v1CompetitorId'] == null && v2 === undefined && v6Logo == null) return nothing;
    const images = await input.context.images();
    const v2Cost =
      v2 === undefined
        ? nothing
        : v2 === 'unnamed'
          ? { requests: 1, unanswerable: 1 }
          : images.imageCost({ version: 'v2', params: v2 });
    const v6Cost = v6Logo == null ? 0 : 1;
    return { requests: v2Cost.requests + v6Cost, unanswerable: v2Cost.unanswerable + v6Cost };
  });
}

/** V2Team.logo: the team's own V2 image, named by its parent `{ slug, value }` when known. */
export function v2TeamImage(input: CostInput): V2Source {
  const parent = input.parent as { slug?: unknown; value?: { id?: unknown } } | undefined;
  if (parent === undefined || typeof parent.slug !== 'string' || typeof parent.value?.id !== 'number') return 'unnamed';
  return { sport: parent.slug, type: 'teams', id: parent.value.id };
}
