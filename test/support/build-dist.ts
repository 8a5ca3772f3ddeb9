/**
 * Vitest globalSetup (vitest.config.ts): builds dist/ once per test run,
 * before any test file starts, when the sources changed since the last
 * build (scripts/build.ts `--if-stale`). Gateway processes run that build
 * (gateway-process.ts), so the suite tests what `npm start` and the
 * container run, not the sources under tsx.
 */
import { ensureBuild } from '../../scripts/build.js';

export default async function setup(): Promise<void> {
  await ensureBuild({ ifStale: true });
}
