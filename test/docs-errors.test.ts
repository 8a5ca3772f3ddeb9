/**
 * The registry of codes (src/codes/) is the source of truth, and
 * docs/errors.md is checked against it in both directions:
 * - every `extensions.code` and refusal code in the registry is a row of
 *   the page's "Every code" table with the same HTTP status, and every code
 *   of that table is in the registry;
 * - every WebSocket close code in the registry is in the page's close-code
 *   table, and that table names no other.
 *
 * And the source raises codes only through the registry: no string literal
 * in src/ or resolvers/ (outside src/codes/) is a code or is given to a
 * `code`. A code written as a literal would escape the type that makes a
 * misspelt code fail to compile.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeCodes } from '../src/codes/close-codes.js';
import { errorCodes, type Code } from '../src/codes/error-codes.js';
import { refusalStatus } from '../src/plugins/use-error-codes.js';
import { tableUnder } from './support/markdown.js';

const root = resolve(import.meta.dirname, '..');
const page = join(root, 'docs/errors.md');
const CODE = '[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{4,}';

const registry = Object.entries(errorCodes) as Array<[Code, (typeof errorCodes)[Code]]>;
const registered: ReadonlySet<string> = new Set(Object.keys(errorCodes));

/**
 * The registry itself, and generated code, which raises nothing. (The
 * sandbox, whose codes are the upstream's, lives outside src/.)
 */
const notScanned = ['src/codes/', 'src/generated/'];

/** Literals that spell a code without being one, each with why. */
const notCodes: ReadonlyArray<{ path: string; literal: string; why: string }> = [];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .filter((path) => !notScanned.some((prefix) => path.startsWith(prefix)));
}

/** Comments name codes they do not raise; only code counts. */
const withoutComments = (text: string): string =>
  text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/**
 * The code literals of a source text: every quoted string that is a
 * registered code, and every quoted code-like string a `code` is given
 * (`code: 'X'`, `code = 'X'`, `code = cond ? 'X' : 'Y'`), registered or not.
 * Comparisons of a `code` with another library's codes (`=== 'ENOENT'`) are
 * neither.
 */
function codeLiterals(source: string): string[] {
  const text = withoutComments(source);
  const found = new Set<string>();
  for (const [, literal] of text.matchAll(/['"]([A-Z][A-Z0-9_]*)['"]/g)) {
    if (registered.has(literal!)) found.add(literal!);
  }
  for (const [, literal] of text.matchAll(new RegExp(`\\bcode\\??:\\s*['"](${CODE})['"]`, 'g'))) found.add(literal!);
  for (const [statement] of text.matchAll(/\bcode\s*=(?!=)[^;\n]*/g)) {
    for (const [, literal] of statement.matchAll(new RegExp(`['"](${CODE})['"]`, 'g'))) found.add(literal!);
  }
  return [...found];
}

function libraryRaises(code: string, module: string): boolean {
  const require = createRequire(join(root, 'package.json'));
  const dir = dirname(require.resolve(module));
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((file) => file.isFile() && file.name.endsWith('.js'))
    .some((file) => {
      const text = readFileSync(join(file.parentPath, file.name), 'utf8');
      return text.includes(`'${code}'`) || text.includes(`"${code}"`);
    });
}

interface DocumentedCode {
  code: string;
  /** The status cell's leading HTTP status, if it starts with one. */
  status: number | undefined;
}

/** The "Every code" table: the backticked codes of each row's first cell, with the row's status. */
function documentedCodes(): DocumentedCode[] {
  const [header, ...rows] = tableUnder(page, 'Every code');
  expect(header?.slice(0, 2)).toEqual(['code', 'HTTP status']);
  return rows.flatMap((row) => {
    const leading = /^(\d{3})\b/.exec(row[1] ?? '')?.[1];
    const status = leading === undefined ? undefined : Number(leading);
    return [...(row[0] ?? '').matchAll(new RegExp(`\`(${CODE})\``, 'g'))].map((match) => ({ code: match[1]!, status }));
  });
}

/** The close codes of the graphql-ws table under "Refusals and their statuses". */
function documentedCloseCodes(): number[] {
  const [header, ...rows] = tableUnder(page, 'Refusals and their statuses');
  expect(header?.[1]).toBe('close code');
  return rows.flatMap((row) => [...(row[1] ?? '').matchAll(/\b[14]\d{3}\b/g)].map((match) => Number(match[0])));
}

describe('the registry of codes and docs/errors.md', () => {
  it('every registered code is in the page, with its HTTP status', () => {
    const documented = new Map(documentedCodes().map((entry) => [entry.code, entry.status]));
    expect(registry.filter(([code]) => !documented.has(code)).map(([code]) => code)).toEqual([]);
    expect(
      registry
        .filter(([code, entry]) => documented.has(code) && documented.get(code) !== entry.status)
        .map(
          ([code, entry]) =>
            `${code}: ${entry.status ?? 'no status'} registered, ${documented.get(code) ?? 'none'} in the page`,
        ),
    ).toEqual([]);
  });

  it('every code in the page is registered', () => {
    expect(documentedCodes().filter((entry) => !registered.has(entry.code))).toEqual([]);
  });

  it('lists each code once', () => {
    const codes = documentedCodes().map((entry) => entry.code);
    expect(codes.filter((code, i) => codes.indexOf(code) !== i)).toEqual([]);
  });

  it('every registered close code is in the page, and the page names no other', () => {
    const documented = new Set(documentedCloseCodes());
    const codes = Object.values(closeCodes).map((entry) => entry.code);
    expect(codes.filter((code) => !documented.has(code))).toEqual([]);
    expect([...documented].filter((code) => !codes.includes(code))).toEqual([]);
  });

  it.each(
    registry.flatMap(([code, entry]) => (entry.raisedBy === undefined ? [] : [{ code, module: entry.raisedBy }])),
  )('$module raises $code', ({ code, module }) => {
    expect(libraryRaises(code, module)).toBe(true);
  });

  it("a refusal's status by code (use-error-codes.ts) is the registry's", () => {
    expect(
      Object.entries(refusalStatus).filter(([code, status]) => errorCodes[code as Code]?.status !== status),
    ).toEqual([]);
  });
});

describe('codes are raised through the registry only', () => {
  it('finds the literal forms of a code', () => {
    const source = [
      "throw new GraphQLError('no', { extensions: { code: 'NOT_FOUND' } });",
      "const refusal = { status: 400, code: 'SOME_NEW_CODE', message };",
      "readonly code = 'ANOTHER_NEW_CODE';",
      "const code = status === 401 ? 'FIRST_CODE' : 'SECOND_CODE';",
      "if (error.code === 'QUOTA_EXHAUSTED') return;",
      "  | 'VARIABLES_TOO_DEEP'",
    ].join('\n');
    expect(codeLiterals(source).sort()).toEqual(
      [
        'ANOTHER_NEW_CODE',
        'FIRST_CODE',
        'NOT_FOUND',
        'QUOTA_EXHAUSTED',
        'SECOND_CODE',
        'SOME_NEW_CODE',
        'VARIABLES_TOO_DEEP',
      ].sort(),
    );
  });

  it('leaves other libraries’ codes, non-codes and comments alone', () => {
    const source = [
      "if ((error as { code?: unknown }).code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') throw error;",
      "if (code === 'ENOSPC' || code === 'EDQUOT') return;",
      "export const UPSTREAM_SLOW = 'UPSTREAM_SLOW';",
      "const sport = 'FOOTBALL';",
      "// code: 'NOT_FOUND'",
      "/** answered 404 'NOT_FOUND' */",
      'return { code: Code.NOT_FOUND };',
    ].join('\n');
    expect(codeLiterals(source)).toEqual([]);
  });

  it('no source file outside src/codes/ writes a code as a literal', () => {
    const found = [...sourceFiles('src'), ...sourceFiles('resolvers')].flatMap((path) =>
      codeLiterals(readFileSync(join(root, path), 'utf8'))
        .filter((literal) => !notCodes.some((known) => known.path === path && known.literal === literal))
        .map((literal) => `${path}: '${literal}'`),
    );
    expect(found).toEqual([]);
  });
});
