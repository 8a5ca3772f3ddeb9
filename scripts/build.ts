/**
 * `npm run build`: the gateway as plain JavaScript in `dist/`, for `node`
 * alone (no TypeScript loader, no codegen at start).
 *
 * esbuild bundles `src/main.ts` (and the image importer) with its
 * dependencies into a few ES modules: the start then reads a handful of
 * files instead of the ~1,600 modules a tsx start resolves one by one, which
 * is most of what a start costs. Code loaded only when used (the embedded
 * sandbox, from sandbox/) becomes a chunk of its own. Types are not checked here:
 * `npm run typecheck` (and CI) does that.
 *
 * `--if-stale` (what `npm start` runs first) builds only when the sources
 * differ from those the build in `dist/` was made from: a fingerprint of
 * every input file's path and content, kept in `dist/build-stamp.json`.
 * Builds are serialised by an OS lock, and a new build replaces `dist/` in
 * one rename, so a gateway starting meanwhile never reads half a build.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { unlock, waitForLock } from 'fs-native-extensions';

const root = fileURLToPath(new URL('..', import.meta.url));
const distDir = join(root, 'dist');
const stampFile = join(distDir, 'build-stamp.json');

/** What the build is made from; a change to any of these makes `dist/` stale. */
const inputDirs = ['src', 'sandbox', 'resolvers', 'schema', 'examples/operations'];
const inputFiles = ['package.json', 'package-lock.json', 'tsconfig.json', 'codegen.ts', 'scripts/build.ts'];
/** Generated types (imported as types only) and tests are not part of the output. */
const notInput = (path: string): boolean => path.startsWith('src/generated/') || /\.test\.ts$/.test(path);

/** Read at run time, next to the bundle (src/runtime-files.ts says where each one is looked for). */
const runtimeFiles: ReadonlyArray<{ from: string; to: string }> = [
  { from: 'schema', to: 'schema' },
  { from: 'src/widgets/odds', to: 'widgets/odds' },
  { from: 'src/generated/possible-types.json', to: 'generated/possible-types.json' },
  { from: 'examples/operations', to: 'examples/operations' },
];

/** The stamp of a build: which inputs it was made from. */
interface BuildStamp {
  readonly fingerprint: string;
  readonly builtAt: string;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(join(root, dir), { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

export async function inputFingerprint(): Promise<string> {
  const files = [...(await Promise.all(inputDirs.map(listFiles))).flat(), ...inputFiles]
    .filter((path) => !notInput(path))
    .sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(await readFile(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

async function currentStamp(): Promise<BuildStamp | undefined> {
  try {
    return JSON.parse(await readFile(stampFile, 'utf8')) as BuildStamp;
  } catch {
    return undefined;
  }
}

/** codegen's output that the build ships (possible-types.json): made from the schema, so made again with it. */
function codegen(): void {
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'codegen'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** The build's entry points: the gateway process and the image importer. */
const gatewayEntries: Readonly<Record<string, string>> = {
  main: 'src/main.ts',
  'images-import': 'src/images/import-cli.ts',
};

/** Bundles `entryPoints` into `outDir` with the files they read at run time (the bench's gateway entry is built the same way: bench/compile.ts). */
export async function bundle(
  outDir: string,
  entryPoints: Readonly<Record<string, string>> = gatewayEntries,
): Promise<void> {
  codegen();
  await build({
    absWorkingDir: root,
    entryPoints: { ...entryPoints },
    outdir: outDir,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    // Loaded from node_modules at run time: native addons (the DATA_DIR
    // lock; LMDB for the upstream cache file, which finds its prebuilt
    // binary beside it, and msgpackr, which both it and the cache encode
    // with, so that one copy is loaded), ws's optional native helpers, and
    // GraphiQL's 9 MB of assets (imported when first asked for, src/graphiql/assets.ts).
    external: [
      'fs-native-extensions',
      'lmdb',
      'msgpackr',
      'bufferutil',
      'utf-8-validate',
      '@graphql-yoga/render-graphiql',
    ],
    // Bundled CommonJS dependencies call require() for Node's built-ins.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
    },
    legalComments: 'none',
    logLevel: 'warning',
  });
  for (const { from, to } of runtimeFiles) await cp(join(root, from), join(outDir, to), { recursive: true });
  await writeFile(join(outDir, 'package.json'), `${JSON.stringify({ type: 'module', private: true }, null, 2)}\n`);
}

/** Builds into a fresh directory and swaps it in; returns the stamp written. */
async function buildDist(fingerprint: string): Promise<BuildStamp> {
  const staging = join(root, `dist.building-${process.pid}`);
  const previous = join(root, `dist.previous-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    await bundle(staging);
    const stamp: BuildStamp = { fingerprint, builtAt: new Date().toISOString() };
    await writeFile(join(staging, 'build-stamp.json'), `${JSON.stringify(stamp, null, 2)}\n`);
    await rename(distDir, previous).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await rename(staging, distDir);
    await rm(previous, { recursive: true, force: true });
    return stamp;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Holds the build lock (an OS lock: a build killed midway leaves nothing held) while `work` runs. */
async function withBuildLock<T>(work: () => Promise<T>): Promise<T> {
  await mkdir(join(root, 'node_modules', '.cache'), { recursive: true });
  const fd = openSync(join(root, 'node_modules', '.cache', 'sports-graph-build.lock'), 'a+');
  try {
    await waitForLock(fd);
    try {
      return await work();
    } finally {
      unlock(fd);
    }
  } finally {
    closeSync(fd);
  }
}

/** Builds unless `dist/` is current (`ifStale`); says which on stdout. */
export async function ensureBuild({ ifStale }: { ifStale: boolean }): Promise<{ built: boolean; stamp: BuildStamp }> {
  return withBuildLock(async () => {
    const fingerprint = await inputFingerprint();
    const stamp = await currentStamp();
    if (ifStale && stamp?.fingerprint === fingerprint) return { built: false, stamp };
    const started = Date.now();
    const written = await buildDist(fingerprint);
    process.stdout.write(`build: dist/ written in ${Date.now() - started} ms\n`);
    return { built: true, stamp: written };
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== '--if-stale');
  if (unknown.length > 0) {
    process.stderr.write(`build: unknown argument ${unknown.join(' ')} (only --if-stale)\n`);
    process.exit(2);
  }
  await ensureBuild({ ifStale: args.includes('--if-stale') });
}
