/**
 * Terminal output fitted to the width, by display width (East Asian wide
 * characters and emoji 2 columns, combining marks 0): tables cut cells with `…`, long values wrap
 * at spaces, a command goes on its own line where it does not fit; no width (not a terminal)
 * leaves the output as it was. The pure renderers at 80 and 120 columns.
 */
import { describe, expect, it } from 'vitest';
import { formatHookTable } from '../../src/cli/render/render-hooks.js';
import { renderReview } from '../../src/cli/render/render-review.js';
import { formatSearchTable } from '../../src/cli/render/render-search.js';
import { formatTable } from '../../src/cli/render/table.js';
import { displayWidth, truncateToWidth } from '../../src/cli/render/width.js';
import { wrapLine, wrapText } from '../../src/cli/render/wrap.js';
import type { ListedHandler } from '../../src/ops/run/list-hooks.js';
import type { SearchHit } from '../../src/registry/indexes/search-index.js';
import { reviewHook, reviewReport } from '../helpers/review-report.js';

const widest = (text: string): number => Math.max(...text.split('\n').map(displayWidth));

describe('display width (width.ts)', () => {
  it.each([
    ['guard', 5],
    ['日本語', 6], // East Asian wide: 2 each
    ['ｆｕｌｌ', 8], // fullwidth forms
    ['한국', 4],
    ['🚀 go', 5], // emoji: 2
    ['👩‍💻', 2], // a ZWJ sequence is one grapheme
    ['e\u0301te\u0301', 3], // combining acute accents: 0
    ['naïve café', 10],
    ['', 0],
  ])('%j is %i columns', (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });

  it('truncateToWidth cuts by columns and ends in …, never splitting a wide character', () => {
    expect(truncateToWidth('guard-the-shell', 8)).toBe('guard-t…');
    expect(displayWidth(truncateToWidth('日本語のテキスト', 7))).toBeLessThanOrEqual(7);
    expect(truncateToWidth('日本語のテキスト', 7)).toBe('日本語…');
    expect(truncateToWidth('🚀🚀🚀', 4)).toBe('🚀…');
    expect(truncateToWidth('e\u0301e\u0301e\u0301e\u0301', 3)).toBe('e\u0301e\u0301…');
    expect(truncateToWidth('short', 10)).toBe('short');
  });
});

describe('wrapping (wrap.ts)', () => {
  it('wraps at spaces, never inside a word, with the hanging indent', () => {
    const text = 'Blocks destructive shell commands before they run, and says why it blocked them';
    const lines = wrapText(text, 30, 4);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(30);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toBe(text);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {4}\S/);
    // every break is at a space of the original text
    const words = text.split(' ');
    expect(lines.flatMap((l) => l.trim().split(' '))).toEqual(words);
  });

  it('a word wider than a line is the only thing broken inside', () => {
    const digest = `sha512-${'A'.repeat(100)}`;
    const lines = wrapText(`  integrity:   ${digest}`, 60, 15);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(60);
    expect(lines[0]).toMatch(/^ {2}integrity: {3}sha512-A+$/);
    expect(
      lines[0] +
        lines
          .slice(1)
          .map((l) => l.slice(15))
          .join(''),
    ).toBe(`  integrity:   ${digest}`);
  });

  it('wrapLine hangs continuation lines under the value of a `key: value` line', () => {
    const lines = wrapLine(`  description: ${'word '.repeat(30).trim()}`, 50);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {15}word/);
  });

  it('wide characters count 2 columns when wrapping', () => {
    const lines = wrapText('日本語 日本語 日本語 日本語 日本語 日本語', 14);
    expect(lines).toEqual(['日本語 日本語', '日本語 日本語', '日本語 日本語']);
  });

  it('cli.md section 1: spaces that do not fit break the line, never vanish between two words', () => {
    // A command padded with spaces: dropped, `~/tmp` and `/` would show as the one path `~/tmp/`.
    const command = `"rm -rf ~/tmp${' '.repeat(200)}/"`;
    const lines = wrapLine(`    - command ${command}`, 40);
    expect(lines).toEqual(['    - command "rm -rf ~/tmp', '        /"']);
    // A single space that ends a line exactly.
    expect(wrapText('123456789 x', 10)).toEqual(['123456789', 'x']);
  });

  it('no width (not a terminal) leaves the line whole', () => {
    expect(wrapText('a '.repeat(100), null)).toEqual(['a '.repeat(100)]);
  });
});

describe('tables (table.ts)', () => {
  const headers = ['ID', 'VERSION', 'DESCRIPTION'];
  const rows = [
    ['guard@examples', '1.1.0', 'Blocks destructive shell commands before they run '.repeat(3)],
    ['日本語-plugin@acme', '2.0.0', '説明文 '.repeat(30)],
  ];

  it('without a width the table is as wide as its cells (the output off a terminal)', () => {
    const text = formatTable(headers, rows, { width: null });
    expect(text).toContain(rows[0]?.[2]?.trim());
    expect(text).not.toContain('…');
  });

  it.each([80, 120])(
    'at %i columns every line fits, cut cells end in …, the kept ID is whole',
    (width) => {
      const text = formatTable(headers, rows, { width, keep: [0] });
      expect(widest(text)).toBeLessThanOrEqual(width);
      const lines = text.split('\n');
      expect(lines).toHaveLength(3); // no row broken over two lines
      expect(lines[1]).toMatch(/^guard@examples {2,}1\.1\.0 {2,}Blocks .*…$/);
      expect(lines[2]).toMatch(/^日本語-plugin@acme {2,}2\.0\.0 {2,}説明文.*…$/);
      // the columns line up by display width: VERSION starts at the same column in every row
      const at = (line: string): number =>
        displayWidth(line.slice(0, line.search(/\d\.\d\.\d|VERSION/)));
      expect(new Set(lines.map(at)).size).toBe(1);
    },
  );

  it('`whole` columns (ids, figures) are never cut: the others give way, and a row wider than the width stays whole', () => {
    const h = ['PLUGIN', 'P95', 'DESCRIPTION'];
    const r = [
      ['guard-the-shell@examples', '310 ms', 'Blocks destructive shell commands '.repeat(3)],
    ];
    const fitted = formatTable(h, r, { width: 60, whole: [0, 1] });
    expect(fitted.split('\n')[1]).toMatch(/^guard-the-shell@examples {2}310 ms {2}Blocks.*…$/);
    expect(widest(fitted)).toBeLessThanOrEqual(60);
    const tight = formatTable(h, r, { width: 20, whole: [0, 1] });
    expect(tight.split('\n')[1]).toMatch(/^guard-the-shell@examples {2}310 ms {2}/);
  });

  it('a table that fits is unchanged at any width', () => {
    const small = [['a', '1', 'x']];
    expect(formatTable(headers, small, { width: 80 })).toBe(
      formatTable(headers, small, { width: null }),
    );
  });

  it('`wrap` wraps a long last cell inside its column', () => {
    const text = formatTable(['', ''], [['description', 'word '.repeat(40).trim()]], {
      width: 50,
      last: 'wrap',
    });
    const lines = text.split('\n').slice(1);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(50);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {13}word/);
  });
});

const handler = (over: Partial<ListedHandler>): ListedHandler => ({
  id: 'PreToolUse:0:0',
  event: 'PreToolUse',
  origin: 'plugin',
  plugin: 'guard@examples',
  key: '00e2a80e1d',
  matcher: '^mcp__.*__(shell|exec|execute|run_command|bash)$',
  if: null,
  command: 'node "${CLAUDE_PLUGIN_ROOT}/scripts/guard.mjs" --mode strict --log ~/.guard/audit.log',
  argv: null,
  shell: null,
  timeout: 10,
  statusMessage: null,
  source: 'hooks/hooks.json',
  ...over,
});

describe('`hookpm hooks` table (render-hooks.ts)', () => {
  const listing = {
    snapshotId: 'x',
    diagnostics: [],
    handlers: [
      handler({}),
      handler({ id: 'Stop:0:0', event: 'Stop', key: '71f7b8bd65', matcher: null, command: 'true' }),
    ],
  };

  it('at 80 columns no line is wider, and a command that does not fit is whole on its own line', () => {
    const text = formatHookTable(listing, 80);
    expect(widest(text)).toBeLessThanOrEqual(80);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^ID +ORIGIN +KEY +MATCHER +IF +TIMEOUT +COMMAND$/);
    expect(lines[1]).toMatch(/^PreToolUse:0:0 +plugin .* +00e2a80e1d +\^mcp.* +10s$/);
    // the command is shown whole on the lines under its row, broken only at its spaces
    const own = lines.slice(
      2,
      lines.findIndex((l) => l.startsWith('Stop:0:0')),
    );
    for (const line of own) expect(line).toMatch(/^ {4}\S/);
    expect(own.map((l) => l.trim()).join(' ')).toBe(handler({}).command);
    // a short command stays in its column
    expect(lines.find((l) => l.startsWith('Stop:0:0'))).toMatch(/ 71f7b8bd65 .* 10s +true$/);
  });

  it('at 120 columns the long command still goes under its row, the rest stays in the row', () => {
    const text = formatHookTable(listing, 120);
    expect(widest(text)).toBeLessThanOrEqual(120);
    expect(text).toContain('plugin guard@examples'); // whole: there is room at 120
    expect(text).toContain(' 00e2a80e1d ');
    expect(text).toContain(`\n    ${handler({}).command}\n`);
  });

  it('without a width (off a terminal) the table is unchanged: one line per handler', () => {
    const text = formatHookTable(listing, null);
    expect(text.split('\n')).toHaveLength(3);
    expect(text).toContain(`10s      ${handler({}).command}`);
  });
});

describe('`hookpm search` table (render-search.ts)', () => {
  const hit = (id: string, description: string): SearchHit => ({
    id,
    name: id.split('@')[0] ?? id,
    registry: 'examples',
    version: '1.0.0',
    description,
    keywords: [],
    events: ['PreToolUse', 'PostToolUse'],
    deprecated: null,
  });
  const long =
    'Appends one JSON line per tool use (before and after) to an audit log in the project, rotated daily and never larger than a megabyte';
  const results = [
    hit('audit-log@examples', long),
    hit('format-on-write@examples', 'Formats files'),
  ];

  it.each([80, 120])(
    'at %i columns the rows fit, each whole name shown, the description cut with …',
    (width) => {
      const text = formatSearchTable(results, width);
      expect(widest(text)).toBeLessThanOrEqual(width);
      const lines = text.split('\n');
      expect(lines).toHaveLength(3);
      expect(lines[1]).toMatch(/^audit-log@examples +1\.0\.0 +PreToolUse,Post\S* +Appends .*…$/);
      expect(lines[2]).toMatch(/^format-on-write@examples +1\.0\.0 .* Formats files$/);
    },
  );

  it('the description is cut by the width, not at a fixed length: wider terminals show more of it', () => {
    const at = (width: number): string => formatSearchTable(results, width).split('\n')[1] ?? '';
    expect(displayWidth(at(120))).toBe(120);
    expect(at(200)).toContain(long); // room for all of it
  });

  it('off a terminal the output is as before (descriptions cut at 80 characters)', () => {
    const line = formatSearchTable(results, null).split('\n')[1] ?? '';
    expect(line.endsWith(`${long.slice(0, 77)}...`)).toBe(true);
  });

  it('cli.md conventions: off a terminal a version and an events list a registry gives are cut at 80 characters too, not padded into every row', () => {
    const huge = { ...hit('guard@acme', 'Guards'), version: '9'.repeat(100_000) };
    huge.events = Array.from({ length: 5 }, () => 'E'.repeat(100_000));
    const text = formatSearchTable([huge, ...results], null);
    expect(text.length).toBeLessThan(2_000);
    expect(text.split('\n')[1]).toContain(`${'9'.repeat(77)}...  ${'E'.repeat(77)}...`);
  });
});

describe('`hookpm review` text (render-review.ts)', () => {
  const hook = reviewHook({
    command:
      'node "${CLAUDE_PLUGIN_ROOT}/scripts/guard.mjs" --mode strict --log ~/.guard/audit.log --verbose',
    timeout: 10,
  });
  const report = reviewReport({
    id: 'guard@examples',
    name: 'guard',
    version: '1.1.0',
    description:
      'Blocks destructive shell commands (rm -rf of / ~ . or outside the project, git push --force, git reset --hard, mkfs) before they run.',
    source: 'guard@examples@1.1.0',
    integrity: `sha512-${'Q'.repeat(86)}==`,
    hooks: [hook],
    diff: { added: [{ ...hook, key: 'abcdef0123' }], removed: [hook], changed: [] },
  });

  it.each([80, 120])(
    'at %i columns no line is wider and every word of the plain text is kept whole',
    (width) => {
      const fitted = renderReview(report, { width, colour: false });
      const plain = renderReview(report, { width: null, colour: false });
      expect(widest(fitted)).toBeLessThanOrEqual(width);
      // only the digest (one word wider than a line at 80) may be broken, nothing else
      const words = (text: string): string[] =>
        text.split(/\s+/).filter((w) => !w.startsWith('sha512-') && !/^Q+==$/.test(w));
      expect(words(fitted)).toEqual(words(plain));
    },
  );

  it('without a width the review is unchanged (one line per fact)', () => {
    const plain = renderReview(report, { width: null, colour: false });
    expect(plain).toContain(`  description: ${report.description}`);
  });

  it('diff lines are coloured only when colour is on: added green, removed red', () => {
    const coloured = renderReview(report, { width: null, colour: true });
    expect(coloured).toMatch(/\u001b\[32m {2}\+ PreToolUse command .*\u001b\[39m/);
    expect(coloured).toMatch(/\u001b\[31m {2}- PreToolUse command .*\u001b\[39m/);
    expect(coloured).not.toMatch(/\u001b\[3\dm {2}source:/);
    expect(renderReview(report, { width: null, colour: false })).not.toContain('\u001b[');
  });
});
