/**
 * upstream: the fixed workload (bench/workload.ts) and the upstream requests
 * it costs.
 *
 * - `naive`: a gateway with the shared cache and the loaders off
 *   (UPSTREAM_CACHE=off, UPSTREAM_LOADERS=off): one request per field that
 *   needs one.
 * - `minimum`: the distinct REST resources (method, path, query) the naive
 *   run touched: what the workload cannot do without.
 * - `gateway`: the normal gateway, nothing cached at start.
 * - `repeat`: the same workload again on the same gateway, inside the TTLs.
 */
import { postOperation } from '../graphql.js';
import { resetSandboxCounts, sandboxLog, type LogEntry, type Service } from '../stack.js';
import { workload } from '../workload.js';

export interface UpstreamResult {
  operations: number;
  gateway: number;
  minimum: number;
  naive: number;
  repeat: number;
  /** Operations that answered with errors (expected 0). */
  operationErrors: number;
}

const resourceOf = (entry: LogEntry): string => `${entry.method} ${entry.path}?${entry.query}`;

async function runWorkload(gateway: Service, sandboxUrl: string): Promise<{ log: LogEntry[]; errors: number }> {
  await resetSandboxCounts(sandboxUrl);
  let errors = 0;
  // One after the other, as one client working through a page of views.
  for (const operation of workload) {
    const answer = await postOperation(gateway.url, operation);
    if (answer.status !== 200 || answer.body.errors !== undefined) errors += 1;
  }
  return { log: await sandboxLog(sandboxUrl), errors };
}

export async function runUpstream(gateway: Service, naive: Service, sandboxUrl: string): Promise<UpstreamResult> {
  const naiveRun = await runWorkload(naive, sandboxUrl);
  const first = await runWorkload(gateway, sandboxUrl);
  const repeat = await runWorkload(gateway, sandboxUrl);
  return {
    operations: workload.length,
    gateway: first.log.length,
    minimum: new Set(naiveRun.log.map(resourceOf)).size,
    naive: naiveRun.log.length,
    repeat: repeat.log.length,
    operationErrors: naiveRun.errors + first.errors + repeat.errors,
  };
}
