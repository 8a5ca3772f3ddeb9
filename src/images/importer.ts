/**
 * Bulk logo import (spec 4.2.8-9): for each entity, in the spec's order,
 * V1 (free; the placeholder is discarded), then V2, then V6. Resumable:
 * an entity with a stored logo is skipped without a request, and so are
 * answers remembered as "not there". Stops before the allowance runs out:
 * the ledger is asked before each entity that may need counted requests.
 */
import type { QuotaLedger } from '../upstream/quota.js';
import type { ImportItem } from './import-list.js';
import { storeKeyOf, type ImageRequest } from './paths.js';
import type { ImageService } from './service.js';

export interface ImportSummary {
  total: number;
  /** Logos found by this run, per version. */
  v1: number;
  v2: number;
  v6: number;
  /** Entities whose logo was already stored (no request made). */
  alreadyStored: number;
  /** No version has a logo. */
  missing: number;
  /** A version failed (incident, allowance): not known to be missing, a later run retries. */
  failed: number;
  /** Not attempted because the allowance would have run out. */
  notAttempted: number;
  /** Counted upstream requests this run spent. */
  allowanceSpent: number;
  allowanceRemaining: number;
  stoppedEarly: boolean;
}

export interface ImportOptions {
  readonly items: readonly ImportItem[];
  readonly images: ImageService;
  readonly ledger: QuotaLedger;
  /** Per-entity time budget, ms. */
  readonly entityTimeoutMs: number;
  /** Allowance units left untouched for the gateway's own use. @default 0 */
  readonly reserve?: number;
  readonly onProgress?: (done: number, summary: Readonly<ImportSummary>) => void;
  /**
   * Counted requests sent so far (from the fetcher's metrics). The ledger's
   * own count can jump when it syncs with the upstream's headers, so it is
   * not a measure of what this run spent.
   */
  readonly countedRequests: () => Promise<number>;
}

function requestsOf(item: ImportItem): ImageRequest[] {
  const { v1, v2, v6 } = item.sources;
  return [
    ...(v1 === undefined ? [] : [{ version: 'v1', params: v1 } as const]),
    ...(v2 === undefined ? [] : [{ version: 'v2', params: v2 } as const]),
    ...(v6 === undefined ? [] : [{ version: 'v6', params: v6 } as const]),
  ];
}

export async function runImport(options: ImportOptions): Promise<ImportSummary> {
  const { items, images, ledger, reserve = 0 } = options;
  const sentAtStart = await options.countedRequests();
  const summary: ImportSummary = {
    total: items.length,
    v1: 0,
    v2: 0,
    v6: 0,
    alreadyStored: 0,
    missing: 0,
    failed: 0,
    notAttempted: 0,
    allowanceSpent: 0,
    allowanceRemaining: ledger.snapshot().remaining,
    stoppedEarly: false,
  };
  const refresh = async (): Promise<void> => {
    summary.allowanceSpent = (await options.countedRequests()) - sentAtStart;
    summary.allowanceRemaining = ledger.snapshot().remaining;
  };

  for (const [index, item] of items.entries()) {
    const requests = requestsOf(item);
    if (requests.some((request) => images.isStored(request))) {
      summary.alreadyStored += 1;
      options.onProgress?.(index + 1, summary);
      continue;
    }
    // Worst case for this entity: one counted request per V2/V6 image not yet answered by the store.
    const counted = requests.filter((request) => request.version !== 'v1' && images.store.get(storeKeyOf(request)) === undefined).length;
    if (counted > 0 && ledger.available() - reserve < counted) {
      summary.stoppedEarly = true;
      summary.notAttempted = items.length - index;
      break;
    }
    const report = await images.logo(item.sources, Date.now() + options.entityTimeoutMs);
    if (report.found !== undefined) summary[report.found.request.version] += 1;
    else if (report.errors.length > 0) summary.failed += 1;
    else summary.missing += 1;
    await refresh();
    options.onProgress?.(index + 1, summary);
  }
  await refresh();
  await images.store.flush();
  return summary;
}
