/**
 * Every relative link of the README and of docs/*.md leads somewhere: the file exists, and
 * a `#fragment` names a heading of it (as GitHub makes a heading's anchor).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const DOCUMENTS = [
  join(ROOT, 'README.md'),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(ROOT, 'docs', name)),
];

/** A document's text without its fenced code blocks and inline code spans. */
function prose(path: string): string {
  return readFileSync(path, 'utf8')
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings (a repeated one gets `-1`, `-2`, …). */
function anchors(path: string): Set<string> {
  const text = readFileSync(path, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} +(.+)$/gm)) {
    const base = anchor(heading!.replace(/`/g, ''));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}

/** The relative links of a document: `[text](target)`, web and mail addresses left out. */
function links(path: string): string[] {
  return [...prose(path).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target));
}

describe('relative links of the README and docs/', () => {
  it('finds links to check', () => {
    expect(DOCUMENTS.reduce((n, path) => n + links(path).length, 0)).toBeGreaterThan(50);
  });

  it.each(DOCUMENTS.map((path) => [relative(ROOT, path), path]))('%s', (_name, path) => {
    const broken: string[] = [];
    for (const target of links(path)) {
      const [file, fragment] = target.split('#') as [string, string | undefined];
      const resolved = file === '' ? path : join(dirname(path), decodeURIComponent(file));
      if (!existsSync(resolved)) broken.push(`${target}: no such file`);
      else if (fragment !== undefined && resolved.endsWith('.md')) {
        if (!anchors(resolved).has(decodeURIComponent(fragment)))
          broken.push(`${target}: no such heading`);
      }
    }
    expect(broken).toEqual([]);
  });
});
