/**
 * `SANDBOX_DATASET`: which data set a sandbox started from the environment
 * serves (`npm run sandbox`, and the sandbox `npm start` embeds).
 */
import { DATASET_NAMES, isDatasetName, type DatasetName } from './fixtures/dataset.js';

/** The data set named by `SANDBOX_DATASET` (unset or empty: `default`), or the message naming the bad value. */
export function sandboxDatasetFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): DatasetName | { readonly error: string } {
  const raw = env['SANDBOX_DATASET'] || 'default';
  return isDatasetName(raw)
    ? raw
    : { error: `SANDBOX_DATASET must be one of ${DATASET_NAMES.join(', ')}, got "${raw.slice(0, 40)}"` };
}
