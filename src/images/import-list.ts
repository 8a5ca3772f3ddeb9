/**
 * The importer's input: one entity per row, with the IDs the user holds per
 * version (spec 4.2.9). CSV with a header row, or a JSON array of objects.
 *
 * Columns / keys: `name`, `v1` (V1 competitor ID), `v1ImageVersion`,
 * `v2Sport` + `v2` (V2 team ID), `v6Sport` (default `football`) + `v6`
 * (a V6 `logo` file name exactly as the payload gave it). Every ID is
 * optional; a row needs at least one.
 */
import { parseImagePath, type LogoSources } from '../model/image-paths.js';

export interface ImportItem {
  /** Row label for messages: `name`, or the row number. */
  readonly label: string;
  readonly sources: LogoSources;
}

type Row = Readonly<Record<string, string | number | undefined>>;

function text(value: string | number | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = String(value).trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Reuses the `/images/logo` query checks, so the CLI and the HTTP route refuse the same things. */
function itemOf(row: Row, index: number): ImportItem {
  const query = new URLSearchParams();
  const put = (key: string, ...names: string[]): void => {
    for (const name of names) {
      const value = text(row[name]);
      if (value !== undefined) {
        query.set(key, value);
        return;
      }
    }
  };
  put('v1', 'v1', 'v1Id');
  put('v1ImageVersion', 'v1ImageVersion', 'imageVersion');
  put('v2Sport', 'v2Sport');
  put('v2', 'v2', 'v2Id');
  put('v6Sport', 'v6Sport');
  put('v6', 'v6', 'v6File', 'v6Logo');
  const label = text(row['name']) ?? `row ${index + 1}`;
  try {
    const parsed = parseImagePath(`/images/logo?${query.toString()}`);
    if (parsed.kind !== 'logo') throw new Error('not a logo request');
    return { label, sources: parsed.sources };
  } catch (error) {
    throw new Error(`${label}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Splits one CSV line; double quotes may wrap a field and `""` is a quote inside one. */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        current += '"';
        i++;
      } else if (c === '"') quoted = false;
      else current += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(current);
      current = '';
    } else current += c;
  }
  fields.push(current);
  return fields;
}

export function parseImportList(content: string, format: 'csv' | 'json'): ImportItem[] {
  if (format === 'json') {
    const parsed: unknown = JSON.parse(content);
    if (!Array.isArray(parsed)) throw new Error('The JSON list must be an array of objects.');
    return parsed.map((row, i) => {
      if (typeof row !== 'object' || row === null || Array.isArray(row)) throw new Error(`row ${i + 1}: not an object`);
      return itemOf(row as Row, i);
    });
  }
  const lines = content.split(/\r?\n/).filter((line) => line.trim() !== '');
  const [header, ...rows] = lines;
  if (header === undefined) return [];
  const names = csvFields(header).map((name) => name.trim());
  return rows.map((line, i) => {
    const fields = csvFields(line);
    return itemOf(Object.fromEntries(names.map((name, j) => [name, fields[j]])), i);
  });
}
