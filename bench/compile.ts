/**
 * The bench's own servers as plain JavaScript, like the gateway's build
 * (scripts/build.ts): both sides of a comparison then run on `node` alone.
 * Under tsx every function pays esbuild's keepNames wrapper and module
 * loading goes through its hooks, which cost the hand-written REST client
 * CPU per request that a deployed one would not pay.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundle } from '../scripts/build.js';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Git-ignored; rebuilt by every bench run. */
const outDir = join(root, 'dist-bench');

/** Bundles `entry` (relative to the repo root) and returns the bundle's path relative to the root, for spawnTs with `compiled`. */
export async function compiledScript(entry: string, name: string): Promise<string> {
  await build({
    absWorkingDir: root,
    entryPoints: { [name]: entry },
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    // CommonJS dependencies bundled into an ES module still call require().
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return `dist-bench/${name}.js`;
}

let gateway: Promise<string> | undefined;

/**
 * The bench's gateway entry (bench/gateway-main.ts) built as the gateway's
 * own build is (scripts/build.ts: the same externals, chunks and runtime
 * files), once per bench run; its path relative to the root.
 */
export function compiledGateway(): Promise<string> {
  gateway ??= bundle(join(outDir, 'gateway'), { gateway: 'bench/gateway-main.ts' }).then(
    () => 'dist-bench/gateway/gateway.js',
  );
  return gateway;
}
