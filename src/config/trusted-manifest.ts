/**
 * The trusted-documents manifest (`TRUSTED_DOCUMENTS_FILE`): the only
 * operations a gateway in trusted mode runs, by ID.
 *
 * Two formats are read, the ones client build tools emit:
 * - a JSON map `{ "<id>": "<document>" }`: graphql-codegen's client preset
 *   (`persistedDocuments`, IDs are SHA-256 hashes of the text) and Relay's
 *   `persisted_queries.json` (MD5 IDs);
 * - Apollo's `{ "format": "apollo-persisted-query-manifest", "version": 1,
 *   "operations": [{ "id", "body", ... }] }`.
 *
 * IDs are opaque names here, never recomputed: each tool hashes its own way.
 * Every document must parse, so a broken manifest stops start-up naming the
 * ID instead of refusing that operation at run time.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'graphql';

export interface TrustedManifest {
  /** The file it was read from, for messages. */
  readonly file: string;
  /** Document text by ID. */
  readonly documents: ReadonlyMap<string, string>;
  /** Every document text: graphql-ws sends text, which runs only when it is one of these. */
  readonly texts: ReadonlySet<string>;
}

/** Longest ID accepted: far above any hash, short enough for a log line. */
const MAX_ID_LENGTH = 256;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `[id, body]` pairs of either format; throws a sentence naming what is wrong. */
function entriesOf(parsed: unknown): Array<[string, unknown]> {
  if (!isRecord(parsed))
    throw new Error('must hold a JSON object: {"<id>": "<document>"} or an Apollo persisted query manifest');
  if (parsed['format'] === 'apollo-persisted-query-manifest') {
    if (parsed['version'] !== 1)
      throw new Error(`is an Apollo manifest of version ${String(parsed['version'])}; version 1 is read`);
    const operations = parsed['operations'];
    if (!Array.isArray(operations)) throw new Error('is an Apollo manifest without an "operations" array');
    return operations.map((operation: unknown, index): [string, unknown] => {
      if (!isRecord(operation) || typeof operation['id'] !== 'string')
        throw new Error(`operation ${index} has no string "id"`);
      return [operation['id'], operation['body']];
    });
  }
  return Object.entries(parsed);
}

/** @throws Error whose message names the file and what is wrong with it. */
export function loadTrustedManifest(file: string): TrustedManifest {
  const fail = (problem: string): never => {
    throw new Error(`TRUSTED_DOCUMENTS_FILE (${file}) ${problem}`);
  };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return fail(`cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail('is not JSON');
  }
  let entries: Array<[string, unknown]>;
  try {
    entries = entriesOf(parsed);
  } catch (error) {
    return fail((error as Error).message);
  }
  if (entries.length === 0) fail('holds no documents: nothing could run');
  const documents = new Map<string, string>();
  for (const [id, body] of entries) {
    if (id.length === 0 || id.length > MAX_ID_LENGTH)
      fail(`has an ID of ${id.length} characters (1 to ${MAX_ID_LENGTH})`);
    if (typeof body !== 'string' || body.trim() === '') fail(`has no document text for ID "${id}"`);
    const document = body as string;
    try {
      parse(document, { noLocation: true });
    } catch (error) {
      fail(`has a document that does not parse for ID "${id}": ${(error as Error).message}`);
    }
    if (documents.has(id)) fail(`lists ID "${id}" twice`);
    documents.set(id, document);
  }
  return { file, documents, texts: new Set(documents.values()) };
}
