/**
 * Real servers for integration tests: the sandbox upstream and the gateway on
 * free loopback ports, a fresh DATA_DIR each, logs captured in memory.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createGateway, type Gateway, type GatewaySeams } from '../../src/gateway.js';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../sandbox/server.js';

export interface TestStack {
  sandbox: SandboxHandle;
  gateway: Gateway;
  dataDir: string;
  apiKey: string;
  /** Every log line the gateway wrote. */
  logs: string[];
  /** Stops the gateway only (for restart tests); the sandbox keeps running. */
  stopGateway(): Promise<void>;
  /** Starts a new gateway on the same sandbox and DATA_DIR (emptied first with `freshData`). */
  restartGateway(env?: Record<string, string>, options?: { freshData?: boolean }): Promise<Gateway>;
  close(): Promise<void>;
}

export interface StackOptions {
  env?: Record<string, string>;
  sandbox?: SandboxOptions;
  /** Changes the loaded config before each gateway start: a setting the environment cannot express (a bound loadConfig derives). */
  adjust?: (config: Config) => Config;
  /** How the gateway makes its parts (the bench's naive upstream: bench/naive-upstream.ts). */
  seams?: GatewaySeams;
}

export async function startStack(options: StackOptions = {}): Promise<TestStack> {
  const apiKey = options.sandbox?.apiKey ?? 'test-key-0000';
  const sandbox = await startSandbox({ port: 0, allowance: 7_500, ...options.sandbox, apiKey });
  const dataDir = await mkdtemp(join(tmpdir(), 'sports-graph-test-'));
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(
        ...chunk
          .toString('utf8')
          .split('\n')
          .filter((line) => line !== ''),
      );
      callback();
    },
  });
  const adjust = options.adjust ?? ((config: Config): Config => config);
  const makeConfig = (env: Record<string, string> = {}): Config =>
    adjust(
      loadConfig({
        SPORTS_API_KEY: apiKey,
        SPORTS_API_BASE_URL: sandbox.url,
        SPORTS_API_PLAN: 'pro',
        DATA_DIR: dataDir,
        PORT: '0',
        LOG_LEVEL: 'debug',
        ...options.env,
        ...env,
      }),
    );
  const start = (env?: Record<string, string>) =>
    createGateway(makeConfig(env), {
      ...options.seams,
      baseUrl: sandbox.url,
      logger: createLogger('debug', logStream),
    });

  const stack: TestStack = {
    sandbox,
    gateway: await start(),
    dataDir,
    apiKey,
    logs,
    stopGateway: () => stack.gateway.close(),
    restartGateway: async (env, restart = {}) => {
      if (restart.freshData === true) {
        await rm(dataDir, { recursive: true, force: true });
        await mkdir(dataDir, { recursive: true });
      }
      stack.gateway = await start(env);
      return stack.gateway;
    },
    close: async () => {
      await stack.gateway.close().catch(() => undefined);
      await sandbox.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return stack;
}
