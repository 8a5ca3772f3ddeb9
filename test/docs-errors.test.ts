/**
 * docs/errors.md lists exactly the codes the gateway raises, in both
 * directions: a code raised anywhere in src/ or resolvers/ and missing from
 * the page's "Every code" table fails, and so does a code in the table
 * that nothing raises.
 *
 * The codes are collected from the source by the forms the code base uses
 * to raise them (`collectRaisedCodes`), plus the few that libraries raise
 * on the gateway's behalf (`libraryCodes`, each checked in its library). A
 * new way of raising a code needs a pattern here: the test of the patterns
 * below fails when a known code stops being found.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refusalStatus } from '../src/plugins/use-error-codes.js';
import { ErrorCode } from '../src/upstream/errors.js';
import { tableUnder } from './support/markdown.js';

const root = resolve(import.meta.dirname, '..');
const CODE = '[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{4,}';

/** Generated code raises nothing. (The sandbox, whose codes are the upstream's, lives outside src/.) */
const notTheGateway = ['src/generated/'];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .filter((path) => !notTheGateway.some((prefix) => path.startsWith(prefix)));
}

/** Comments name codes they do not raise; only code counts. */
const withoutComments = (text: string): string =>
  text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

interface RaisedCode {
  code: string;
  where: string;
}

/**
 * Every code the source raises, with one place that raises it:
 * - `ErrorCode.X` (src/upstream/errors.ts), every value of the enum;
 * - a `code` property or field given a literal: `code: 'X'`, `code = 'X'`,
 *   `code = cond ? 'X' : 'Y'`;
 * - a `code` given a constant: `code: X` where `const X = 'X'`;
 * - a function that returns the code it picks (`codeFor` in use-error-codes.ts: `return 'X'`);
 * - the statuses of refusals by code (`refusalStatus`, whose keys are codes yoga or we raise).
 */
function collectRaisedCodes(): RaisedCode[] {
  const found = new Map<string, string>();
  const add = (code: string, where: string): void => {
    if (!found.has(code)) found.set(code, where);
  };
  for (const code of Object.values(ErrorCode)) add(code, 'src/upstream/errors.ts ErrorCode');
  for (const code of Object.keys(refusalStatus)) add(code, 'src/plugins/use-error-codes.ts refusalStatus');
  const files = [...sourceFiles('src'), ...sourceFiles('resolvers')].map((path) => ({
    path,
    text: withoutComments(readFileSync(join(root, path), 'utf8')),
  }));
  const constants = new Map<string, string>();
  for (const { text } of files) {
    for (const [, name, value] of text.matchAll(new RegExp(`const (${CODE}) = '(${CODE})'`, 'g')))
      constants.set(name!, value!);
  }
  for (const { path, text } of files) {
    for (const [, code] of text.matchAll(new RegExp(`\\bcode\\??:\\s*['"](${CODE})['"]`, 'g'))) add(code!, path);
    for (const [statement] of text.matchAll(/\bcode\s*=(?!=)[^;\n]*/g)) {
      for (const [, code] of statement.matchAll(new RegExp(`'(${CODE})'`, 'g'))) add(code!, path);
    }
    for (const [, name] of text.matchAll(new RegExp(`\\bcode\\??:\\s*(${CODE})\\b(?!\\.)`, 'g'))) {
      const value = constants.get(name!);
      if (value !== undefined) add(value, path);
    }
    if (path === 'src/plugins/use-error-codes.ts') {
      for (const [, code] of text.matchAll(new RegExp(`return '(${CODE})'`, 'g'))) add(code!, path);
    }
  }
  return [...found].map(([code, where]) => ({ code, where }));
}

/** Codes a library raises in the gateway's answers, and the library file that raises it. */
const libraryCodes: ReadonlyArray<{ code: string; module: string }> = [
  { code: 'PERSISTED_QUERY_MISMATCH', module: '@graphql-yoga/plugin-apq' },
  { code: 'BAD_REQUEST', module: 'graphql-yoga' },
];

function libraryRaises(code: string, module: string): boolean {
  const require = createRequire(join(root, 'package.json'));
  const entry = require.resolve(module);
  const dir = dirname(entry);
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((file) => file.isFile() && file.name.endsWith('.js'))
    .some(
      (file) =>
        readFileSync(join(file.parentPath, file.name), 'utf8').includes(`'${code}'`) ||
        readFileSync(join(file.parentPath, file.name), 'utf8').includes(`"${code}"`),
    );
}

/** The codes of docs/errors.md's "Every code" table: the backticked codes of each row's first cell. */
function documentedCodes(): string[] {
  const [header, ...rows] = tableUnder(join(root, 'docs/errors.md'), 'Every code');
  expect(header?.[0]).toBe('code');
  return rows.flatMap((row) =>
    [...(row[0] ?? '').matchAll(new RegExp(`\`(${CODE})\``, 'g'))].map((match) => match[1]!),
  );
}

describe('docs/errors.md and the codes the source raises', () => {
  const raised = collectRaisedCodes();
  const raisedCodes = new Set([...raised.map((entry) => entry.code), ...libraryCodes.map((entry) => entry.code)]);

  it('finds the codes of every form the source raises them in', () => {
    // One code per pattern: if a pattern breaks, its code goes missing here before the page test can mislead.
    for (const code of [
      'UPSTREAM_INVALID_RESPONSE',
      'HOST_NOT_ALLOWED',
      'UNAUTHENTICATED',
      'STATE_FILE_INVALID',
      'ODDS_FEED_LIMIT',
      'OPERATION_TIMEOUT',
      'GRAPHQL_PARSE_FAILED',
      'BAD_REQUEST',
    ]) {
      expect(raisedCodes).toContain(code);
    }
    // Not codes: a stale answer's reason, a sport, the sandbox's own upstream error body.
    for (const other of ['UPSTREAM_SLOW', 'FOOTBALL', 'UPSTREAM_ERROR']) expect(raisedCodes).not.toContain(other);
  });

  it.each(libraryCodes)('$module raises $code', ({ code, module }) => {
    expect(libraryRaises(code, module)).toBe(true);
  });

  it('every code the source raises is in the page', () => {
    const documented = new Set(documentedCodes());
    expect(
      raised.filter((entry) => !documented.has(entry.code)).map((entry) => `${entry.code} (raised in ${entry.where})`),
    ).toEqual([]);
    expect(libraryCodes.filter((entry) => !documented.has(entry.code)).map((entry) => entry.code)).toEqual([]);
  });

  it('every code in the page is raised somewhere', () => {
    expect(documentedCodes().filter((code) => !raisedCodes.has(code))).toEqual([]);
  });

  it('lists each code once', () => {
    const codes = documentedCodes();
    expect(codes.filter((code, i) => codes.indexOf(code) !== i)).toEqual([]);
  });
});
