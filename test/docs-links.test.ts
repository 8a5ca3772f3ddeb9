/**
 * Every relative link in README.md and docs/*.md resolves: the file exists,
 * and a `#anchor` names a heading of the page it points at (as GitHub
 * slugs headings). Links to other sites are not fetched.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, linksOf } from './support/markdown.js';

const root = resolve(import.meta.dirname, '..');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** What is wrong with `href` in `page`, or undefined when it resolves. */
function brokenLink(page: string, href: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return undefined;
  const [path = '', anchor] = href.split('#', 2);
  const target = path === '' ? join(root, page) : resolve(dirname(join(root, page)), decodeURIComponent(path));
  if (!existsSync(target)) return `no file ${path}`;
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(target).isDirectory() || !target.endsWith('.md')) return `#${anchor} on a file that is not Markdown`;
  return anchorsOf(target).has(decodeURIComponent(anchor))
    ? undefined
    : `no heading #${anchor} in ${path === '' ? page : path}`;
}

describe('docs links', () => {
  it('README.md is at most 200 lines and links every page of docs/', () => {
    expect(readFileSync(join(root, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(200);
    const readme = linksOf(join(root, 'README.md')).map((link) => link.href.split('#')[0]);
    expect(pages.filter((page) => page.startsWith('docs/') && !readme.includes(page))).toEqual([]);
  });

  it.each(pages)('every relative link of %s resolves', (page) => {
    const links = linksOf(join(root, page));
    const broken = links.flatMap(({ href, line }) => {
      const problem = brokenLink(page, href);
      return problem === undefined ? [] : [`${page}:${line} ${href}: ${problem}`];
    });
    expect(broken).toEqual([]);
  });

  it('finds links and anchors at all (the parser reads these files)', () => {
    expect(linksOf(join(root, 'README.md')).length).toBeGreaterThan(10);
    expect(anchorsOf(join(root, 'docs/errors.md'))).toContain('every-code');
  });
});
