/**
 * The rules the code cites resolve inside the repository: every rule id named in a comment of src/
 * or test/, or in a test's title, has a heading of its own in docs/reference/rules/*.md; every
 * docs page (and anchor) a comment of src/ names exists, and src/ names sections of the rules by
 * those paths; the links between docs pages resolve; and README.md, docs/, src/, test/ and bench/
 * cite no tracker ("issue <n>"), which readers of the repository cannot open.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RULES = join(ROOT, 'docs', 'reference', 'rules');

/** Tokens of the rule-id shape that name something else: control sets, the JS engine, percentiles. */
const NOT_RULES = new Set(['C0', 'V8', 'P50', 'P95']);
const RULE_ID = /\b[A-Z][0-9]+[a-z]?\b/g;
/** "issue <n>", also when a comment wraps between the word and the number. */
const ISSUE = /\b[Ii]ssues?(?:\s*\n\s*(?:\*|\/\/)?)?\s+#?[0-9]+/g;

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path, keep));
    else if (entry.isFile() && keep(path)) out.push(path);
  }
  return out.sort();
}

const isCode = (path: string): boolean => /\.(ts|mts|js|mjs|cjs)$/.test(path);

/** The text of a source file's comments, and of its test titles (`it('E2: ...')`). */
function citingText(source: string): string[] {
  const texts: string[] = [];
  for (const match of source.matchAll(/\/\*[\s\S]*?\*\//g)) texts.push(match[0]);
  for (const match of source.matchAll(/(?:^|[\s;{}(),])\/\/([^\n]*)/g)) texts.push(match[1] ?? '');
  const title = /\b(?:it|test|describe)(?:\.\w+)*\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
  for (const match of source.matchAll(title)) texts.push(match[2] ?? '');
  return texts;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fence = !fence;
    if (fence) continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) anchors.add(slug(heading[1] ?? ''));
    for (const id of line.matchAll(/<a id="([^"]+)"/g)) anchors.add(id[1] ?? '');
  }
  return anchors;
}

function ruleHeadings(): Map<string, string[]> {
  const headings = new Map<string, string[]>();
  for (const file of filesUnder(RULES, (path) => path.endsWith('.md'))) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const heading = /^#{2,6}\s+([A-Z][0-9]+[a-z]?)\b/.exec(line);
      if (heading?.[1] === undefined) continue;
      headings.set(heading[1], [...(headings.get(heading[1]) ?? []), relative(ROOT, file)]);
    }
  }
  return headings;
}

function citedRules(): Map<string, string> {
  const cited = new Map<string, string>();
  for (const dir of ['src', 'test']) {
    for (const file of filesUnder(join(ROOT, dir), isCode)) {
      for (const text of citingText(readFileSync(file, 'utf8'))) {
        for (const [id] of text.matchAll(RULE_ID)) {
          if (!NOT_RULES.has(id) && !cited.has(id)) cited.set(id, relative(ROOT, file));
        }
      }
    }
  }
  return cited;
}

describe('docs/reference/rules: the rules code and tests cite', () => {
  it('every rule id cited in a comment or a test title of src/ and test/ has a heading in docs/reference/rules/', () => {
    const headings = ruleHeadings();
    const cited = citedRules();
    expect(cited.size).toBeGreaterThan(80);
    const missing = [...cited]
      .filter(([id]) => !headings.has(id))
      .map(([id, file]) => `${id} (${file})`);
    expect(missing).toEqual([]);
  });

  it('the comments of src/ name only docs pages and anchors that exist', () => {
    const broken: string[] = [];
    for (const file of filesUnder(join(ROOT, 'src'), isCode)) {
      for (const text of citingText(readFileSync(file, 'utf8'))) {
        for (const [, path, anchor] of text.matchAll(
          /\b(docs\/(?:README|development|guides\/|reference\/|design\/)[\w./-]*\.md)(?:#([\w-]+))?/g,
        )) {
          let markdown: string;
          try {
            markdown = readFileSync(join(ROOT, path ?? ''), 'utf8');
          } catch {
            broken.push(`${relative(ROOT, file)}: ${path}`);
            continue;
          }
          if (anchor !== undefined && !anchorsOf(markdown).has(anchor)) {
            broken.push(`${relative(ROOT, file)}: ${path}#${anchor}`);
          }
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('the links between docs pages name pages and anchors that exist', () => {
    const broken: string[] = [];
    const pages = [
      join(ROOT, 'README.md'),
      ...filesUnder(join(ROOT, 'docs'), (path) => path.endsWith('.md')),
    ];
    for (const page of pages) {
      const text = readFileSync(page, 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (target === undefined || /^[a-z]+:/.test(target)) continue;
        const [path = '', anchor] = target.split('#');
        const file = path === '' ? page : join(page, '..', path);
        let markdown: string;
        try {
          markdown = readFileSync(file, 'utf8');
        } catch {
          broken.push(`${relative(ROOT, page)}: ${target}`);
          continue;
        }
        if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(markdown).has(anchor)) {
          broken.push(`${relative(ROOT, page)}: ${target}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('README.md, docs/, src/, test/ and bench/ cite no tracker issue ("issue <n>", "Issue <n> item <m>")', () => {
    const files = [
      join(ROOT, 'README.md'),
      ...filesUnder(join(ROOT, 'docs'), (path) => path.endsWith('.md')),
      ...['src', 'test', 'bench'].flatMap((dir) => filesUnder(join(ROOT, dir), isCode)),
    ];
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const hit of text.matchAll(ISSUE)) {
        const line = text.slice(0, hit.index).split('\n').length;
        found.push(`${relative(ROOT, file)}:${line}: ${hit[0].replace(/\s+/g, ' ')}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('src/ cites a section of the rules by its docs path, never as "registry.md section 7"', () => {
    const found: string[] = [];
    for (const file of filesUnder(join(ROOT, 'src'), isCode)) {
      for (const text of citingText(readFileSync(file, 'utf8'))) {
        for (const [hit] of text.matchAll(
          /\b(?:engine|plugins|registry|cli|security)\.md,?\s+(?:\*\s+)?sections?\s+[0-9]+/g,
        )) {
          found.push(`${relative(ROOT, file)}: ${hit}`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('docs/README.md links every page of docs/', () => {
    const index = readFileSync(join(ROOT, 'docs', 'README.md'), 'utf8');
    const linked = new Set(
      [...index.matchAll(/\]\(([^)#\s]+)/g)].map((match) => join(ROOT, 'docs', match[1] ?? '')),
    );
    const pages = filesUnder(join(ROOT, 'docs'), (path) => path.endsWith('.md')).filter(
      (path) => path !== join(ROOT, 'docs', 'README.md'),
    );
    expect(pages.filter((page) => !linked.has(page)).map((page) => relative(ROOT, page))).toEqual(
      [],
    );
  });
});
