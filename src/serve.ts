/**
 * The gateway process, as src/main.ts runs it: the gateway on PORT; with no
 * SPORTS_API_BASE_URL, on the embedded sandbox upstream, which its first log
 * line says. SIGTERM or SIGINT drains it and exits 0 (src/gateway/lifecycle.ts,
 * shutdown). The bench runs the same process with seams of its own
 * (bench/gateway-main.ts).
 */
import { randomBytes } from 'node:crypto';
import { loadConfig, ConfigError, type Config } from './config.js';
import { createLogger } from './logger.js';
import { createGateway, type Gateway, type GatewaySeams } from './gateway.js';
import { checkDataDir, DataDirUnusableError } from './state/data-dir-check.js';
import { DataDirInUseError } from './state/data-dir-lock.js';
import { StateFileError } from './state/state-file.js';
import { sandboxDatasetFromEnv } from '../sandbox/dataset-env.js';
import type { SandboxHandle } from '../sandbox/server.js';
import { planAllowances } from './upstream/assumptions.js';
import { startLine } from './start-line.js';
import { checkPort, checkRedis, portProblem } from './start-checks.js';

/** A start-up problem the operator fixes: one line on stderr, no stack, exit 2. */
function failStart(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(2);
}

function dataDirProblem(dataDir: string): string | undefined {
  try {
    checkDataDir(dataDir);
    return undefined;
  } catch (error) {
    if (error instanceof DataDirUnusableError) return error.message;
    throw error;
  }
}

/** Runs the gateway process; `seams` go to createGateway (the bench's switches; none in service). */
export async function serve(seams: GatewaySeams = {}): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      // One line: an operator's log collector keeps it as one event.
      failStart(`Invalid configuration: ${error.problems.join('; ')}`);
    }
    throw error;
  }
  // Before anything starts (the embedded sandbox, the state): a port, DATA_DIR or Redis the gateway cannot use is one line and exit 2, not a stack later.
  const problem =
    (await checkPort(config.host, config.port)) ??
    dataDirProblem(config.dataDir) ??
    (config.cluster.redisUrl === undefined ? undefined : await checkRedis(config.cluster.redisUrl));
  if (problem !== undefined) failStart(problem);
  const logger = createLogger(config.logLevel);

  let sandbox: SandboxHandle | undefined;
  let baseUrl: string;
  if (config.baseUrl !== undefined) {
    baseUrl = config.baseUrl;
  } else {
    // The embedded sandbox gets a key of its own for this run unless one is configured.
    const apiKey = config.apiKey ?? `sandbox-${randomBytes(12).toString('hex')}`;
    config = { ...config, apiKey };
    const dataset = sandboxDatasetFromEnv(process.env);
    if (typeof dataset === 'object') {
      process.stderr.write(`${dataset.error}\n`);
      process.exit(2);
    }
    // Imported only here: its fixtures are most of what a start would otherwise load and keep.
    const { startSandbox } = await import('../sandbox/server.js');
    sandbox = await startSandbox({
      port: Number(process.env['SANDBOX_PORT'] ?? 0),
      apiKey,
      allowance: planAllowances[config.plan],
      // Live matches move on their own: clocks, goals, full time (REST, liveTicker) and odds alike.
      matchEventMs: config.sandbox.matchEventMs,
      matchMinuteMs: config.sandbox.matchMinuteMs,
      dataset,
    });
    baseUrl = sandbox.url;
  }
  // The first line: which upstream, which plan, and where its ledger is, so an allowance that looks spent can be found and reset.
  const start = startLine(config, sandbox?.url);
  logger.info(start.fields, start.message);
  const dataset = sandbox?.fixtures.dataset.name;
  if (dataset !== undefined && dataset !== 'default')
    logger.info({ dataset }, `the embedded sandbox serves the ${dataset} data set (SANDBOX_DATASET)`);

  let gateway: Gateway;
  try {
    gateway = await createGateway(config, { ...seams, baseUrl, logger });
  } catch (error) {
    // State problems are the operator's to fix: say which file or directory and what to do, without a stack.
    if (error instanceof DataDirInUseError || error instanceof StateFileError) {
      logger.fatal({ code: error.code }, error.message);
      process.stderr.write(`${error.message}\n`);
      await sandbox?.close();
      process.exit(2);
    }
    // Another program took the port between the check and the listen.
    const port = portProblem(error, config.host, config.port);
    if (port !== undefined) {
      await sandbox?.close();
      failStart(port);
    }
    throw error;
  }
  logger.info({ graphql: `${gateway.url}/graphql`, graphiql: `${gateway.url}/graphql` }, 'sports-graph ready');

  // SIGTERM (an orchestrator) or SIGINT (Ctrl-C): drain and exit 0 (src/gateway/lifecycle.ts, shutdown); a second signal stops at once.
  let signalled = false;
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (signalled) {
      logger.warn({ signal }, 'second signal: stopping now');
      await gateway.close();
      await sandbox?.close();
      process.exit(1);
    }
    signalled = true;
    try {
      await gateway.shutdown();
      await sandbox?.close();
    } catch (error) {
      // A state that could not be written is the operator's to know: say so and exit non-zero.
      logger.fatal({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(signal));
}
