import { defaultCacheTtls } from '../src/upstream/cache-ttls.js';

/** Every data cache class at TTL 0 and no result cache (the cold gateway); the free reference catalogue keeps its TTL. */
export const coldEnv: Record<string, string> = {
  RESULT_CACHE: 'false',
  ...Object.fromEntries(
    Object.keys(defaultCacheTtls)
      .filter((cacheClass) => cacheClass !== 'reference')
      .map((cacheClass) => [`CACHE_TTL_${cacheClass.toUpperCase()}`, '0']),
  ),
};
