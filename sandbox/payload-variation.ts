/**
 * How a data set's upstream dresses its JSON answers beyond what the fixtures
 * hold (fixtures/dataset.ts): fields the gateway has never heard of on every
 * object, and optional parts left out. It works on the answer, after the
 * route handler, so every fixture family and route gets it without a copy of
 * its builder; faults that replay the real answer replay it varied.
 */

export interface PayloadVariation {
  /** Added to every JSON object of every answer (a field the object already has is kept as it is). */
  readonly extraFields: Readonly<Record<string, unknown>>;
  /**
   * Property names whose object value is a map keyed by data (statistic IDs,
   * periods), on every route: a key added there would read as one more
   * statistic, so the map gets nothing (its values still do).
   */
  readonly mapKeys: ReadonlySet<string>;
  /** Per route template, more such maps: dotted paths, `*` for every array item or object value. */
  readonly maps: Readonly<Record<string, readonly string[]>>;
  /** Per route template, the optional parts left out, as paths like `maps`. */
  readonly absent: Readonly<Record<string, readonly string[]>>;
}

type Json = unknown;

/** The answer of route `template`, varied; `body` is not changed. */
export function varyPayload(variation: PayloadVariation, template: string, body: Json): Json {
  const copy = structuredClone(body);
  for (const path of variation.absent[template] ?? []) removeAt(copy, path.split('.'));
  const maps = new Set<unknown>();
  for (const path of variation.maps[template] ?? [])
    for (const found of valuesAt(copy, path.split('.'))) maps.add(found);
  addExtras(copy, variation, maps, new WeakSet());
  return copy;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `dressed`: a handler may put one object in several places of its answer
 * (every event's `season`), and the copy keeps that sharing; dressing it
 * again would walk into the extras added the first time, and their extras,
 * without end.
 */
function addExtras(
  value: Json,
  variation: PayloadVariation,
  maps: ReadonlySet<unknown>,
  dressed: WeakSet<object>,
): void {
  if (typeof value !== 'object' || value === null || dressed.has(value)) return;
  dressed.add(value);
  if (Array.isArray(value)) {
    for (const item of value) addExtras(item, variation, maps, dressed);
    return;
  }
  if (!isRecord(value)) return;
  for (const [key, child] of Object.entries(value)) {
    // A map's own keys are data; its values are objects like any other.
    if (isRecord(child) && (variation.mapKeys.has(key) || maps.has(child))) {
      dressed.add(child);
      for (const entry of Object.values(child)) addExtras(entry, variation, maps, dressed);
    } else {
      addExtras(child, variation, maps, dressed);
    }
  }
  for (const [key, extra] of Object.entries(variation.extraFields)) {
    if (!Object.hasOwn(value, key)) value[key] = structuredClone(extra);
  }
}

/** Every value at `path` (`*` = each array item or object value). */
function valuesAt(value: Json, path: readonly string[]): Json[] {
  const [head, ...rest] = path;
  if (head === undefined) return [value];
  return children(value, head).flatMap((child) => valuesAt(child, rest));
}

function children(value: Json, segment: string): Json[] {
  if (segment === '*') return Array.isArray(value) ? value : isRecord(value) ? Object.values(value) : [];
  if (Array.isArray(value))
    return /^\d+$/.test(segment) && Number(segment) < value.length ? [value[Number(segment)]] : [];
  return isRecord(value) && Object.hasOwn(value, segment) ? [value[segment]] : [];
}

function removeAt(value: Json, path: readonly string[]): void {
  const last = path.at(-1);
  if (last === undefined) return;
  for (const parent of valuesAt(value, path.slice(0, -1))) {
    if (last === '*') {
      if (Array.isArray(parent)) parent.length = 0;
      else if (isRecord(parent)) for (const key of Object.keys(parent)) delete parent[key];
    } else if (isRecord(parent)) {
      delete parent[last];
    }
  }
}
