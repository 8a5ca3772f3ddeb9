/**
 * Persisted operations, in one of three modes chosen by configuration
 * (src/config/persisted.ts):
 *
 * - `apq` (default): Apollo's automatic persisted queries through
 *   @graphql-yoga/plugin-apq, as Apollo Client's persisted-queries link and
 *   urql's persistedExchange speak it over GET and POST. A hash the store
 *   does not hold answers 404 PERSISTED_QUERY_NOT_FOUND (the client then
 *   sends hash and text); a text whose SHA-256 is not the hash sent answers
 *   400 PERSISTED_QUERY_MISMATCH and is not stored. Ordinary requests with
 *   a `query` run as before.
 * - `trusted` (`TRUSTED_DOCUMENTS_FILE`): only the manifest's operations run,
 *   through @graphql-yoga/plugin-persisted-operations. An operation is named
 *   by its ID in `extensions.persistedQuery.sha256Hash`, or sent as the exact
 *   text of a manifest document (what graphql-ws clients do). Anything else
 *   is refused before parsing, with no upstream request:
 *   403 TRUSTED_DOCUMENTS_ONLY for another text, 400
 *   TRUSTED_DOCUMENT_NOT_FOUND for an unknown ID.
 * - `off` (`APQ=false`, no manifest): requests run as they come.
 *
 * The same rules reach the doors that do not pass yoga's `onParams`: the
 * result-cache fast path asks `documentOf` which text a request names
 * (src/transport/http/result-cache-hits.ts), and graphql-ws subscribe messages are resolved
 * by `webSocketDocument` (src/transport/ws/graphql-ws-server.ts).
 */
import { GraphQLError } from 'graphql';
import { useAPQ } from '@graphql-yoga/plugin-apq';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { Plugin } from 'graphql-yoga';
import { Code } from '../codes/error-codes.js';
import type { ApqBounds, ApqStore } from '../persisted/apq-store.js';
import type { PersistedOperationsConfig } from '../config/persisted.js';
import type { TrustedManifest } from '../config/trusted-manifest.js';

export type PersistedMode = 'apq' | 'trusted' | 'off';

/** What a request body or a subscribe message carries that names its document. */
export interface NamedDocument {
  readonly query?: unknown;
  readonly extensions?: unknown;
}

export interface PersistedOperations {
  readonly mode: PersistedMode;
  /** yoga plugins, to run after the input bounds (they read `extensions`). */
  readonly plugins: Plugin[];
  /**
   * The document text a request runs, when it can be known without waiting:
   * its `query`, a trusted ID's document, or a hash this replica holds.
   * Undefined leaves the request to yoga (registration, refusals, misses).
   */
  documentOf(request: NamedDocument): string | undefined;
  /** The text a graphql-ws subscribe message runs, or the coded refusal. */
  webSocketDocument(request: NamedDocument & { readonly query: string }): Promise<string | GraphQLError>;
}

export interface PersistedOperationsOptions {
  readonly config: PersistedOperationsConfig;
  /** Where APQ keeps documents: this replica's store alone, shared through Redis in a cluster (src/state/open-state.ts). */
  readonly apq: (bounds: ApqBounds) => ApqStore;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The ID of `extensions.persistedQuery` (version 1, as Apollo and the client preset send it), if well-formed. */
export function persistedId(extensions: unknown): string | undefined {
  if (!isRecord(extensions)) return undefined;
  const persisted = extensions['persistedQuery'];
  if (!isRecord(persisted) || persisted['version'] !== 1) return undefined;
  const hash = persisted['sha256Hash'];
  return typeof hash === 'string' ? hash : undefined;
}

const mentionsPersisted = (extensions: unknown): boolean =>
  isRecord(extensions) && extensions['persistedQuery'] !== undefined;

/** Refusals of trusted mode; `http.status` is kept by use-error-codes.ts (it is not `spec`). */
const trustedRefusals = {
  notFound: {
    message:
      "No trusted document has this ID: only the operations of the gateway's manifest run (TRUSTED_DOCUMENTS_FILE).",
    extensions: { code: Code.TRUSTED_DOCUMENT_NOT_FOUND, http: { status: 400 } },
  },
  persistedQueryOnly: {
    message:
      'This gateway runs trusted documents only, and this document is not one of them: send the ID of a trusted document in extensions.persistedQuery.sha256Hash (version 1), or its exact text.',
    extensions: { code: Code.TRUSTED_DOCUMENTS_ONLY, http: { status: 403 } },
  },
  keyNotFound: {
    message: 'No document: send the ID of a trusted document in extensions.persistedQuery.sha256Hash (version 1).',
    extensions: { code: Code.PERSISTED_QUERY_ID_REQUIRED, http: { status: 400 } },
  },
} as const;

const refusal = (which: keyof typeof trustedRefusals): GraphQLError => {
  const { message, extensions } = trustedRefusals[which];
  return new GraphQLError(message, { extensions: { code: extensions.code } });
};

export function persistedOperations({ config, apq }: PersistedOperationsOptions): PersistedOperations {
  if (config.trusted !== undefined) return trustedOperations(config.trusted);
  if (config.apq) {
    const bounds = {
      ttlMs: config.apqTtlSeconds * 1000,
      maxEntries: config.apqMaxEntries,
      maxDocumentBytes: config.apqMaxDocumentBytes,
    };
    return automaticPersistedQueries(apq(bounds));
  }
  return {
    mode: 'off',
    plugins: [],
    documentOf: ({ query, extensions }) =>
      typeof query === 'string' && !mentionsPersisted(extensions) ? query : undefined,
    webSocketDocument: ({ query }) => Promise.resolve(query),
  };
}

function automaticPersistedQueries(store: ApqStore): PersistedOperations {
  const notFound = (): GraphQLError =>
    new GraphQLError('PersistedQueryNotFound', { extensions: { code: Code.PERSISTED_QUERY_NOT_FOUND } });
  return {
    mode: 'apq',
    plugins: [
      useAPQ({ store: { get: (hash) => store.get(hash), set: (hash, document) => store.set(hash, document) } }),
    ],
    documentOf({ query, extensions }) {
      if (!mentionsPersisted(extensions)) return typeof query === 'string' ? query : undefined;
      // A text with its hash is yoga's: it checks the hash and registers the text.
      if (query !== undefined && query !== null) return undefined;
      const id = persistedId(extensions);
      return id === undefined ? undefined : store.getLocal(id);
    },
    // graphql-ws always sends a text; an empty one with a hash names a registered document.
    async webSocketDocument({ query, extensions }) {
      const id = persistedId(extensions);
      if (query !== '' || id === undefined) return query;
      return (await store.get(id)) ?? notFound();
    },
  };
}

function trustedOperations(manifest: TrustedManifest): PersistedOperations {
  const idOfText = new Map<string, string>();
  for (const [id, text] of manifest.documents) if (!idOfText.has(text)) idOfText.set(text, id);
  const findText = (query: unknown): string | undefined =>
    typeof query === 'string' ? idOfText.get(query) : undefined;

  // The exact text of a trusted document runs as if it had been named by its ID.
  const textAsId: Plugin = {
    onParams({ params, setParams }) {
      const id = persistedId(params.extensions) === undefined ? findText(params.query) : undefined;
      if (id === undefined) return;
      const { query: _text, ...rest } = params;
      setParams({ ...rest, extensions: { ...params.extensions, persistedQuery: { version: 1, sha256Hash: id } } });
    },
  };
  return {
    mode: 'trusted',
    plugins: [
      textAsId,
      usePersistedOperations({
        getPersistedOperation: (id: string) => manifest.documents.get(id) ?? null,
        customErrors: trustedRefusals,
      }),
    ],
    documentOf({ query, extensions }) {
      const id = persistedId(extensions);
      if (query !== undefined && query !== null)
        return id === undefined && findText(query) !== undefined ? (query as string) : undefined;
      return id === undefined ? undefined : manifest.documents.get(id);
    },
    webSocketDocument({ query, extensions }) {
      const id = persistedId(extensions);
      if (query === '' && id !== undefined) return Promise.resolve(manifest.documents.get(id) ?? refusal('notFound'));
      if (query === '') return Promise.resolve(refusal('keyNotFound'));
      return Promise.resolve(idOfText.has(query) ? query : refusal('persistedQueryOnly'));
    },
  };
}
