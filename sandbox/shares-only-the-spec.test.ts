/**
 * The sandbox and the gateway share the spec and nothing else (issue 30,
 * item 9; the list is in sandbox/tsconfig.json). Read from the imports
 * themselves: every relative import of a sandbox module lands in sandbox/
 * or on one of the spec modules; the gateway's own code reaches into the
 * sandbox only where it starts one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** The spec, as both sides read it. */
const specModules: ReadonlyArray<RegExp> = [/^src\/upstream\/routes\/[^/]+\.ts$/, /^src\/upstream\/assumptions\.ts$/];

/** Gateway modules that start a sandbox: the embedded upstream of `npm start`, and the image importer's. */
const startsTheSandbox = new Set(['src/serve.ts', 'src/images/import-cli.ts']);

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** Repo-relative targets of a module's relative imports (static, dynamic and re-exports), `.js` read as `.ts`. */
function relativeImports(path: string): string[] {
  const text = readFileSync(join(root, path), 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specifiers.map((specifier) => normalize(join(dirname(path), specifier)).replace(/\.js$/, '.ts'));
}

describe('the sandbox, a room of its own', () => {
  it('imports from outside sandbox/ only the spec modules', () => {
    const files = sources('sandbox');
    expect(files).toContain('sandbox/server.ts');
    const strays = files.flatMap((path) =>
      relativeImports(path)
        .filter((target) => !target.startsWith('sandbox/') && !specModules.some((spec) => spec.test(target)))
        .map((target) => `${path} -> ${target}`),
    );
    expect(strays).toEqual([]);
  });

  it('is imported by the gateway only where one is started', () => {
    const importers = sources('src').filter((path) =>
      relativeImports(path).some((target) => target.startsWith('sandbox/')),
    );
    expect(importers).toContain('src/serve.ts');
    expect(importers.filter((path) => !startsTheSandbox.has(path))).toEqual([]);
  });
});
