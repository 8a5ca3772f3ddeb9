/**
 * The one place that decides where a gateway's state lives (DESIGN.md,
 * "State"): alone, on memory and `DATA_DIR` (src/state/local/local-backend.ts);
 * with `REDIS_URL`, in the cluster's Redis (src/state/redis/redis-backend.ts).
 * Everything else receives the backend (state-backend.ts) and never asks which.
 *
 * Either way the process locks its `DATA_DIR` (the image store and the
 * response cache file live there, and one directory belongs to one
 * process): replicas share state through Redis, never through files.
 */
import { openLocalBackend } from './local/local-backend.js';
import { openRedisBackend } from './redis/redis-backend.js';
import type { StateBackend, StateOptions } from './state-backend.js';

export type { StateBackend, StateOptions } from './state-backend.js';

/**
 * @throws DataDirInUseError when another process holds DATA_DIR.
 * @throws StateFileError when a state file cannot be trusted.
 */
export function openState(options: StateOptions): Promise<StateBackend> {
  const { redisUrl } = options.config.cluster;
  return redisUrl === undefined ? openLocalBackend(options) : openRedisBackend(options, redisUrl);
}
