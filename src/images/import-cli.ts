/**
 * `npm run images:import -- <file.csv|file.json> [--reserve=N] [--json]`
 *
 * Bulk logo import with the gateway's own services: configuration from the
 * environment (`DATA_DIR`, `SPORTS_API_*`), the same fetcher pipeline,
 * allowance ledger and image store as `npm start`; with no
 * `SPORTS_API_BASE_URL`, the embedded sandbox upstream, as `npm start` does.
 * Prints a progress bar on stderr and a summary at the end (JSON with --json).
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { auditedLedger } from '../spend/charge-audit.js';
import { ChargeTally } from '../spend/charge-tally.js';
import { SpendGate } from '../spend/spend-gate.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { createLogger } from '../logger.js';
import { GatewayMetrics } from '../metrics.js';
import type { SandboxHandle } from '../../sandbox/server.js';
import { planAllowances } from '../upstream/assumptions.js';
import { UpstreamFetcher } from '../upstream/fetcher.js';
import { openLocalState, type LocalState } from '../state/local/local-state.js';
import { imageServiceFor } from './for-services.js';
import { parseImportList } from './import-list.js';
import { runImport, type ImportSummary } from './importer.js';
import { ProgressBar } from './progress.js';

const usage = 'usage: npm run images:import -- <file.csv|file.json> [--reserve=N] [--json]';

interface Args {
  file: string;
  reserve: number;
  json: boolean;
}

function parseArgs(argv: readonly string[]): Args {
  let file: string | undefined;
  let reserve = 0;
  let json = false;
  for (const arg of argv) {
    if (arg === '--json') json = true;
    else if (arg.startsWith('--reserve=')) {
      reserve = Number(arg.slice('--reserve='.length));
      if (!Number.isInteger(reserve) || reserve < 0) throw new Error('--reserve must be a non-negative integer');
    } else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else if (file === undefined) file = arg;
    else throw new Error('only one input file');
  }
  if (file === undefined) throw new Error('no input file');
  return { file, reserve, json };
}

function describe(summary: ImportSummary): string {
  return [
    `entities:          ${summary.total}`,
    `from V1:           ${summary.v1}`,
    `from V2:           ${summary.v2}`,
    `from V6:           ${summary.v6}`,
    `already stored:    ${summary.alreadyStored}`,
    `missing:           ${summary.missing}`,
    `failed (retry):    ${summary.failed}`,
    `not attempted:     ${summary.notAttempted}${summary.stoppedEarly ? ' (stopped before the allowance ran out)' : ''}`,
    `allowance spent:   ${summary.allowanceSpent} (remaining ${summary.allowanceRemaining})`,
  ].join('\n');
}

async function main(): Promise<number> {
  let args: Args;
  let config: Config;
  try {
    args = parseArgs(process.argv.slice(2));
    config = loadConfig(process.env);
  } catch (error) {
    process.stderr.write(
      `${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}\n${usage}\n`,
    );
    return 2;
  }
  const items = parseImportList(
    await readFile(args.file, 'utf8'),
    args.file.toLowerCase().endsWith('.json') ? 'json' : 'csv',
  );
  // Logs go to stderr, quiet unless LOG_LEVEL asks: the progress bar and summary are the output.
  const logger = createLogger(process.env['LOG_LEVEL'] ?? 'warn', process.stderr);

  let sandbox: SandboxHandle | undefined;
  let baseUrl = config.baseUrl;
  if (baseUrl === undefined) {
    const apiKey = config.apiKey ?? `sandbox-${randomBytes(12).toString('hex')}`;
    config = { ...config, apiKey };
    const { startSandbox } = await import('../../sandbox/server.js');
    sandbox = await startSandbox({ port: 0, apiKey, allowance: planAllowances[config.plan] });
    baseUrl = sandbox.url;
    process.stderr.write(`embedded sandbox upstream started at ${sandbox.url} (no SPORTS_API_BASE_URL set)\n`);
  }

  // The importer spends the same allowance as the gateway: it takes DATA_DIR's lock, so the two never run on one directory together.
  let local: LocalState;
  try {
    local = await openLocalState({
      dataDir: config.dataDir,
      plan: config.plan,
      clientKeys: config.access.clientKeys,
      logger,
      purpose: 'images:import',
    });
  } catch (error) {
    await sandbox?.close();
    throw error;
  }
  const tally = new ChargeTally();
  // Counted for the test suite's charge check when it is on (src/spend/charge-audit.ts); the ledger itself otherwise.
  const ledger = auditedLedger(local.ledger, tally, 'importer');
  const metrics = new GatewayMetrics();
  const fetcher = new UpstreamFetcher({
    config,
    baseUrl,
    v3CyclingBaseUrl: config.v3CyclingBaseUrl,
    ledger,
    metrics,
    logger,
  });
  // The plan check of the spend gate, for no client; no per-operation limit: an entity costs two requests at most.
  const gate = new SpendGate({ ledger, maxOperationCost: Number.POSITIVE_INFINITY, reserve: args.reserve, tally });
  try {
    const images = await imageServiceFor({ config, fetcher, logger });
    const bar = new ProgressBar({ total: items.length, stream: process.stderr });
    const summary = await runImport({
      items,
      images,
      ledger,
      gate,
      entityTimeoutMs: config.timeouts.operationMs,
      onProgress: (done, s) =>
        bar.update(
          done,
          `v1 ${s.v1} v2 ${s.v2} v6 ${s.v6} stored ${s.alreadyStored} missing ${s.missing} spent ${s.allowanceSpent}`,
        ),
    });
    bar.finish();
    process.stdout.write(args.json ? `${JSON.stringify(summary)}\n` : `${describe(summary)}\n`);
    return summary.failed > 0 || summary.stoppedEarly ? 1 : 0;
  } finally {
    await fetcher.close();
    await local.close();
    await sandbox?.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`images:import failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
