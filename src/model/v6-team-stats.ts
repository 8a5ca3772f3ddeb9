/**
 * Spec 2.11, the rules for reading V6 football team statistics, in one place:
 * - `matchStats` keys 0, 1, 2 are the periods: full match, first half,
 *   second half; the inner `period` field (always 0) is ignored;
 * - an absent statistic ID was not provided (null); `"0"` is a real zero;
 * - ID 183 duplicates 128 (total shots): folded into 128, never listed;
 * - IDs 123 and 124 are unconfirmed;
 * - names and units come from the mapping (spec 2.10). The mapping served
 *   now carries the corrected meanings of 103 and 104, so no swap is made
 *   (spec 2.11 / 9.6: swap only for the earlier erroneous mapping).
 */
import type {
  V6PeriodBlock,
  V6StatMappingPayload,
  V6TeamStatsEntry,
  V6TeamStatsPayload,
} from '../upstream/routes/v6-football.js';

export type V6PeriodKey = '0' | '1' | '2';

export const v6Periods = { FULL_MATCH: '0', FIRST_HALF: '1', SECOND_HALF: '2' } as const satisfies Record<
  string,
  V6PeriodKey
>;

export const TOTAL_SHOTS = 128;
export const TOTAL_SHOTS_DUPLICATE = 183;
export const UNCONFIRMED_IDS: ReadonlySet<number> = new Set([123, 124]);

export interface V6StatValue {
  statId: number;
  name: string | null;
  unit: string | null;
  /** null: not provided for this fixture. */
  value: number | null;
  rawValue: string | null;
  provided: boolean;
  confirmed: boolean;
  /** 183 when the value came from the duplicate ID. */
  foldedFrom: number | null;
}

export interface V6PeriodModel {
  period: V6PeriodKey;
  block: V6PeriodBlock | undefined;
  mapping: V6StatMappingPayload;
}

export interface V6TeamStatsModel {
  team: V6TeamStatsEntry;
  mapping: V6StatMappingPayload;
}

function parseValue(raw: string): number | null {
  const number = Number(raw.trim().replace(/%$/, ''));
  return raw.trim() === '' || !Number.isFinite(number) ? null : number;
}

/** Whether the mapping or the rules say an ID is unconfirmed. */
function isConfirmed(statId: number, mapping: V6StatMappingPayload): boolean {
  if (UNCONFIRMED_IDS.has(statId)) return false;
  return mapping.stats[String(statId)]?.confirmed ?? false;
}

/** One statistic of one period, by ID. */
export function statOf(period: V6PeriodModel, statId: number): V6StatValue {
  const stats = period.block?.stats ?? {};
  const id = statId === TOTAL_SHOTS_DUPLICATE ? TOTAL_SHOTS : statId;
  let raw = stats[String(id)];
  let foldedFrom: number | null = null;
  if (raw === undefined && id === TOTAL_SHOTS && stats[String(TOTAL_SHOTS_DUPLICATE)] !== undefined) {
    raw = stats[String(TOTAL_SHOTS_DUPLICATE)];
    foldedFrom = TOTAL_SHOTS_DUPLICATE;
  }
  const definition = period.mapping.stats[String(id)];
  return {
    statId: id,
    name: definition?.name ?? null,
    unit: definition?.unit ?? null,
    value: raw === undefined ? null : parseValue(raw),
    rawValue: raw ?? null,
    provided: raw !== undefined,
    confirmed: isConfirmed(id, period.mapping),
    foldedFrom,
  };
}

/** Every mapped ID (and any unmapped one the payload carries), 183 folded into 128, sorted by ID. */
export function statsOf(period: V6PeriodModel): V6StatValue[] {
  const ids = new Set<number>();
  for (const key of [...Object.keys(period.mapping.stats), ...Object.keys(period.block?.stats ?? {})]) {
    const id = Number(key);
    if (Number.isInteger(id)) ids.add(id === TOTAL_SHOTS_DUPLICATE ? TOTAL_SHOTS : id);
  }
  return [...ids].sort((a, b) => a - b).map((id) => statOf(period, id));
}

/** The period block under the `matchStats` key; the inner `period` field is not read. */
export function periodOf(model: V6TeamStatsModel, key: V6PeriodKey): V6PeriodModel {
  return { period: key, block: model.team.matchStats[key], mapping: model.mapping };
}

/** `mapping` is loaded with the payload by `teamStats`; a `node(id:)` refetch leaves it to the fields that need it. */
export interface V6MatchTeamStatsModel {
  payload: V6TeamStatsPayload;
  mapping?: V6StatMappingPayload;
}

export interface V6StatDefinitionModel {
  statId: number;
  name: string;
  unit: string | null;
  confirmed: boolean;
}
