/**
 * The estimate's view of a field's sport arguments (`sport`/`sportKey`,
 * `v2Sport`/`v2SportKey`...): the resolvers refuse both, neither, or a key
 * the catalogue does not list before any upstream request, so such a field
 * and everything under it cost nothing (src/model/sport-catalogue.ts).
 */
import {
  catalogueEntries,
  findEntry,
  sportChoice,
  type SportArgNames,
  type SportChoice,
} from '../../model/sport-catalogue.js';
import type { Args, CostInput, FieldCost } from './cost-rule.js';

const V2_LOGO: SportArgNames = { sport: 'v2Sport', sportKey: 'v2SportKey' };
const V6_LOGO: SportArgNames = { sport: 'v6Sport', sportKey: 'v6SportKey' };

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Whether the named sport arguments are refused; a key is looked up in the catalogue (free, and loaded by the field anyway). */
async function refused(input: CostInput, args: Args, names?: SportArgNames, defaultSport?: string): Promise<boolean> {
  const sportKey = text(args[names?.sportKey ?? 'sportKey']);
  const sport = text(args[names?.sport ?? 'sport']) ?? (sportKey === null ? (defaultSport ?? null) : null);
  let choice: SportChoice;
  try {
    choice = sportChoice({ sport, sportKey }, names);
  } catch {
    return true;
  }
  if (choice.key === undefined) return false;
  try {
    return findEntry(await catalogueEntries(input.context), choice) === undefined;
  } catch {
    // The catalogue cannot be read now: count the field in full.
    return false;
  }
}

/** A field that takes `sport` or `sportKey`. */
export function withSportArgs(cost: FieldCost): FieldCost {
  return { ...cost, failsBeforeRequests: (input) => refused(input, input.args) };
}

/** The logo sources' sports: each one used (a V2 team ID, a V6 file) needs its sport arguments right. */
async function logoSportsRefused(input: CostInput, sources: Args): Promise<boolean> {
  if (sources['v2TeamId'] != null && (await refused(input, sources, V2_LOGO))) return true;
  return sources['v6Logo'] != null && (await refused(input, sources, V6_LOGO, 'FOOTBALL'));
}

/** A logo field; `sourcesArg` names the input object holding the sources, if they are not the field's own arguments. */
export function withLogoSportArgs(cost: FieldCost, sourcesArg?: string): FieldCost {
  return {
    ...cost,
    failsBeforeRequests: (input) => {
      const sources = sourcesArg === undefined ? input.args : input.args[sourcesArg];
      return typeof sources === 'object' && sources !== null ? logoSportsRefused(input, sources as Args) : false;
    },
  };
}
