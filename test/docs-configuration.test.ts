/**
 * Every environment variable the gateway reads is documented: in
 * docs/configuration.md, or, for the bench's own switches (read by the
 * bench's gateway entry, bench/gateway-main.ts), in docs/performance.md; the
 * cluster launcher's in docs/cluster.md. A setting added to the source
 * without its row fails here, naming it.
 *
 * Variables are found where the code reads them: the reader calls of the
 * config modules (`int('NAME', ...)`, `bool(...)`, and every other quoted
 * name in those modules) and `env['NAME']` / `env.NAME` anywhere in src/,
 * sandbox/ and scripts/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const NAME = '[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*';

/** The modules that turn the environment into settings: every quoted capitalised name in them is a variable. */
const configModules = [
  'src/config.ts',
  'src/config/persisted.ts',
  'src/config/tracing.ts',
  'scripts/cluster-settings.ts',
  'bench/gateway-main.ts',
];
/** Read by the platform, not settings of ours. */
const notOurs = new Set(['NODE_ENV', 'PATH']);
/** Switches only the bench sets (bench-only code paths), documented with the bench. */
const benchOnly = new Set(['BENCH_CONTROL', 'BENCH_ENGINE_FLOOR_PORT', 'UPSTREAM_CACHE', 'UPSTREAM_LOADERS']);

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .filter((path) => !path.startsWith('src/generated/'));
}

const withoutComments = (text: string): string =>
  text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

function variablesRead(): Map<string, string> {
  const found = new Map<string, string>();
  for (const path of [...sources('src'), ...sources('sandbox'), ...sources('scripts'), 'bench/gateway-main.ts']) {
    // An error's code is not a variable (cluster-settings.ts's CLUSTER_SETTINGS).
    const text = withoutComments(readFileSync(join(root, path), 'utf8')).replace(/\bcode\s*[:=]\s*'[^']*'/g, '');
    const names = [
      ...[...text.matchAll(new RegExp(`env\\[['"](${NAME})['"]\\]`, 'g'))].map((m) => m[1]!),
      ...[...text.matchAll(new RegExp(`env\\.(${NAME})\\b`, 'g'))].map((m) => m[1]!),
      ...(configModules.includes(path) ? [...text.matchAll(new RegExp(`'(${NAME})'`, 'g'))].map((m) => m[1]!) : []),
    ];
    for (const name of names) if (!notOurs.has(name) && !found.has(name)) found.set(name, path);
  }
  return found;
}

const backticked = (page: string): Set<string> =>
  new Set(
    [...readFileSync(join(root, 'docs', page), 'utf8').matchAll(new RegExp(`\`(${NAME})(?:=[^\`]*)?\``, 'g'))].map(
      (m) => m[1]!,
    ),
  );

describe('docs: every environment variable', () => {
  const read = variablesRead();

  it('finds the variables (the patterns still match how the code reads them)', () => {
    for (const name of [
      'SPORTS_API_KEY',
      'LIMIT_MAX_DEPTH',
      'GATEWAY_CLIENT_KEYS',
      'OTEL_SERVICE_NAME',
      'APQ_TTL_SECONDS',
      'SANDBOX_DATASET',
      'CLUSTER_REPLICAS',
    ]) {
      expect(read.has(name), name).toBe(true);
    }
  });

  it('documents each where a reader looks for it', () => {
    const configuration = backticked('configuration.md');
    const performance = backticked('performance.md');
    const cluster = backticked('cluster.md');
    const missing = [...read]
      .filter(([name, path]) => {
        if (benchOnly.has(name)) return !performance.has(name);
        if (path.startsWith('scripts/')) return !cluster.has(name) && !configuration.has(name);
        return !configuration.has(name);
      })
      .map(([name, path]) => `${name} (read in ${path})`);
    expect(missing).toEqual([]);
  });
});
