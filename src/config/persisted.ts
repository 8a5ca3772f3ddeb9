/**
 * Settings of persisted operations (src/plugins/use-persisted-operations.ts):
 * Apollo's automatic persisted queries, or trusted documents only.
 */
import type { Env, EnvReader } from '../env-reader.js';
import { loadTrustedManifest, type TrustedManifest } from './trusted-manifest.js';

export interface PersistedOperationsConfig {
  /**
   * `APQ`: automatic persisted queries (`extensions.persistedQuery` over GET
   * and POST). Off in trusted mode, where any client could otherwise add a
   * document. @default true, false with `TRUSTED_DOCUMENTS_FILE`
   */
  apq: boolean;
  /** `APQ_TTL_SECONDS`: how long a registered document is kept after it was last registered. @default 86_400 (a day) */
  apqTtlSeconds: number;
  /** `APQ_MAX_DOCUMENT_BYTES`: larger documents still run, but are not stored. @default 32_768 */
  apqMaxDocumentBytes: number;
  /** `APQ_MAX_ENTRIES`: documents each replica keeps in memory (least recently used dropped first). @default 1_000 */
  apqMaxEntries: number;
  /** `TRUSTED_DOCUMENTS_FILE`: set, only the operations of this manifest run. */
  trusted: TrustedManifest | undefined;
}

export function readPersistedOperationsConfig({ problems, int, bool }: EnvReader, env: Env): PersistedOperationsConfig {
  const file = env['TRUSTED_DOCUMENTS_FILE'];
  let trusted: TrustedManifest | undefined;
  if (file !== undefined && file !== '') {
    try {
      trusted = loadTrustedManifest(file);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  const trustedMode = file !== undefined && file !== '';
  const apq = bool('APQ', !trustedMode);
  if (apq && trustedMode)
    problems.push(
      'APQ=true and TRUSTED_DOCUMENTS_FILE exclude each other: with APQ any client could register a document',
    );
  return {
    apq,
    apqTtlSeconds: int('APQ_TTL_SECONDS', 86_400, 1),
    apqMaxDocumentBytes: int('APQ_MAX_DOCUMENT_BYTES', 32_768, 64),
    apqMaxEntries: int('APQ_MAX_ENTRIES', 1_000, 1),
    trusted,
  };
}
