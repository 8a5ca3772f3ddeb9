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
 *
 * The workload runner also serves the cluster scenario, which spreads the
 * same operations round-robin over several replicas.
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

export interface WorkloadRun {
  /** Every request the sandbox received while the workload ran. */
  readonly log: LogEntry[];
  /** Answers with a non-200 status or GraphQL errors (expected 0). */
  readonly errors: number;
  /** Operations answered by each gateway, in the order given. */
  readonly perGateway: number[];
}

const resourceOf = (entry: LogEntry): string => `${entry.method} ${entry.path}?${entry.query}`;

/** Distinct REST resources (method, path, query) in a sandbox log. */
export function distinctResources(log: readonly LogEntry[]): number {
  return new Set(log.map(resourceOf)).size;
}

/**
 * Runs the workload with the sandbox's counts emptied first; the log is what
 * the sandbox received meanwhile. Operations run one after the other, as one
 * client working through a page of views; operation i goes to gateway
 * (i + offset) mod n.
 */
export async function runWorkload(gateways: readonly Service[], sandboxUrl: string, offset = 0): Promise<WorkloadRun> {
  if (gateways.length === 0) throw new TypeError('runWorkload: give at least one gateway');
  await resetSandboxCounts(sandboxUrl);
  let errors = 0;
  const perGateway = gateways.map(() => 0);
  for (const [index, operation] of workload.entries()) {
    const slot = (index + offset) % gateways.length;
    const answer = await postOperation(gateways[slot]!.url, operation);
    if (answer.status !== 200 || answer.body.errors !== undefined) errors += 1;
    perGateway[slot] = (perGateway[slot] ?? 0) + 1;
  }
  return { log: await sandboxLog(sandboxUrl), errors, perGateway };
}

/** `minimum`: the distinct resources a naive gateway (no cache, no loaders) needs for the workload. */
export async function measureMinimum(
  naive: Service,
  sandboxUrl: string,
): Promise<{ minimum: number; naive: number; errors: number }> {
  const run = await runWorkload([naive], sandboxUrl);
  return { minimum: distinctResources(run.log), naive: run.log.length, errors: run.errors };
}

export async function runUpstream(gateway: Service, naive: Service, sandboxUrl: string): Promise<UpstreamResult> {
  const naiveRun = await measureMinimum(naive, sandboxUrl);
  const first = await runWorkload([gateway], sandboxUrl);
  const repeat = await runWorkload([gateway], sandboxUrl);
  return {
    operations: workload.length,
    gateway: first.log.length,
    minimum: naiveRun.minimum,
    naive: naiveRun.naive,
    repeat: repeat.log.length,
    operationErrors: naiveRun.errors + first.errors + repeat.errors,
  };
}
