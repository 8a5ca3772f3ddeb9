/**
 * Bulk logo import (spec 4.2.8-9): for each entity, in the spec's order,
 * V1 (free; the placeholder is discarded), then V2, then V6. Resumable:
 * an entity with a stored logo is skipped without a request, and so are
 * answers remembered as "not there".
 *
 * Its door to the allowance is the spend gate, like every other door: each
 * entity passes it with what the logo chain may cost (the image service's
 * own estimate), acting for no client (an operator's CLI has no budget), so
 * the plan check (minus `--reserve`) stops the run before the allowance runs
 * out; what each entity really spent is measured on a spend meter.
 */
import type { SpendGate } from '../spend/spend-gate.js';
import type { Ledger } from '../spend/ledger.js';
import { SpendMeter } from '../spend/spend-meter.js';
import type { ImportItem } from './import-list.js';
import type { ImageRequest } from '../model/image-paths.js';
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
  /** Only read for the summary's `allowanceRemaining`. */
  readonly ledger: Pick<Ledger, 'snapshot'>;
  /** The plan check each entity passes; its `reserve` is the units left untouched for the gateway's own use. */
  readonly gate: SpendGate;
  /** Per-entity time budget, ms. */
  readonly entityTimeoutMs: number;
  readonly onProgress?: (done: number, summary: Readonly<ImportSummary>) => void;
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
  const { items, images, ledger, gate } = options;
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

  for (const [index, item] of items.entries()) {
    const requests = requestsOf(item);
    if (requests.some((request) => images.isStored(request))) {
      summary.alreadyStored += 1;
      options.onProgress?.(index + 1, summary);
      continue;
    }
    const admission = await gate.admit(images.logoCost(item.sources), undefined, 'import', 'plan');
    if (!admission.ok) {
      summary.stoppedEarly = true;
      summary.notAttempted = items.length - index;
      break;
    }
    const meter = new SpendMeter();
    meter.guard = admission.pass.guard;
    let report: Awaited<ReturnType<ImageService['logo']>>;
    try {
      report = await images.logo(item.sources, Date.now() + options.entityTimeoutMs, meter);
    } finally {
      admission.pass.settle();
      summary.allowanceSpent += meter.counted;
      summary.allowanceRemaining = ledger.snapshot().remaining;
    }
    if (report.found !== undefined) summary[report.found.request.version] += 1;
    else if (report.errors.length > 0) summary.failed += 1;
    else summary.missing += 1;
    options.onProgress?.(index + 1, summary);
  }
  summary.allowanceRemaining = ledger.snapshot().remaining;
  await images.store.flush();
  return summary;
}
