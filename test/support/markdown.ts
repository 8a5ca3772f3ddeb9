/**
 * What the docs tests read from a Markdown file: its links and its
 * headings' anchors, parsed with markdown-it (so nothing inside a code
 * block or code span counts) and slugged with github-slugger (the anchors
 * GitHub gives headings, duplicates numbered as GitHub numbers them).
 */
import GithubSlugger from 'github-slugger';
import MarkdownIt, { type Token } from 'markdown-it';
import { readFileSync } from 'node:fs';

const markdown = new MarkdownIt({ html: true });

function tokensOf(path: string): Token[] {
  return markdown.parse(readFileSync(path, 'utf8'), {});
}

export interface MarkdownLink {
  href: string;
  /** 1-based line of the paragraph or cell holding it. */
  line: number;
}

export function linksOf(path: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const token of tokensOf(path)) {
    for (const child of token.children ?? []) {
      const href = child.type === 'link_open' ? child.attrGet('href') : null;
      if (href !== null) links.push({ href: String(href), line: (token.map?.[0] ?? 0) + 1 });
    }
  }
  return links;
}

/** Every heading's anchor, in order. */
export function anchorsOf(path: string): Set<string> {
  const slugger = new GithubSlugger();
  const tokens = tokensOf(path);
  const anchors = new Set<string>();
  tokens.forEach((token, i) => {
    if (token.type !== 'heading_open') return;
    const inline = tokens[i + 1];
    // GitHub slugs the heading's text content: code spans keep their text, markup goes.
    const text = (inline?.children ?? [])
      .map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : ''))
      .join('');
    anchors.add(slugger.slug(text));
  });
  return anchors;
}

/** The rows of the first table under the heading `heading` (level 2), as their cells' text. */
export function tableUnder(path: string, heading: string): string[][] {
  const tokens = tokensOf(path);
  const start = tokens.findIndex(
    (token, i) => token.type === 'heading_open' && token.tag === 'h2' && tokens[i + 1]?.content === heading,
  );
  if (start < 0) throw new Error(`${path} has no "## ${heading}"`);
  const rows: string[][] = [];
  let row: string[] | undefined;
  for (let i = start + 2; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type === 'heading_open' && token.tag === 'h2') break;
    if (token.type === 'tr_open') row = [];
    else if (token.type === 'inline' && row !== undefined) row.push(token.content);
    else if (token.type === 'tr_close' && row !== undefined) {
      rows.push(row);
      row = undefined;
    } else if (token.type === 'table_close') break;
  }
  return rows;
}
