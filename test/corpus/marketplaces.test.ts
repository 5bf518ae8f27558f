import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../src/ops/validate/validate.js';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { CORPUS, REPO } from './corpus-plugins.js';
import { gitTestEnv, makeRepo, requireGit } from '../helpers/git-repo.js';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';

/**
 * Conformance over every marketplace catalog of ../shared/corpus (registry.md section 1, kind
 * marketplace; cli.md `hookpm validate`): the valid ones are ok with all their plugins listed,
 * the invalid ones are rejected with a diagnostic naming the entry (or, for a file that is not a
 * catalog at all, the document).
 */
const files = execFileSync('find', [CORPUS, '-name', 'marketplace.json'], { encoding: 'utf8' })
  .trim()
  .split('\n')
  .map((f) => relative(CORPUS, f))
  .sort();

/** The invalid ones, and why (the corpus INDEX.md says INVALID, or the spec decides). */
const INVALID: Readonly<Record<string, RegExp>> = {
  // INDEX.md: "only an 'agents' array, no name/owner/plugins".
  'davila7__claude-code-templates__marketplace-INVALID':
    /not a marketplace catalog: name is missing/,
  // "./../../" resolves against .dev-marketplace/ (the directory holding .claude-plugin/) to
  // two levels above it: outside the marketplace root, and outside the repository it came from.
  'severity1__claude-code-prompt-improver__dev-marketplace':
    /plugins\[0\] \("prompt-improver"\): source "\.\.\/\.\." resolves outside/,
};

/** The `name`s of the entries of a catalog, straight from the JSON. */
function entryNames(file: string): string[] {
  const doc = JSON.parse(readFileSync(join(CORPUS, file), 'utf8')) as {
    plugins?: { name: string }[];
  };
  return (doc.plugins ?? []).map((p) => p.name);
}

function folderOf(file: string): string {
  return file.split('/')[0] ?? file;
}

describe('corpus marketplaces', () => {
  it('the corpus holds the marketplaces INDEX.md lists', () => {
    const index = readFileSync(join(CORPUS, 'INDEX.md'), 'utf8');
    const listed = [...index.matchAll(/^- \*\*([^*]+)\*\* .*— file: \S*marketplace\.json/gm)]
      .map((m) => m[1]!)
      .sort();
    expect(files.map(folderOf)).toEqual(listed);
    expect(files.length).toBeGreaterThanOrEqual(20);
  });

  it.each(files.filter((f) => INVALID[folderOf(f)] === undefined))(
    'registry.md 1: %s validates as a marketplace with every plugin listed',
    async (file) => {
      const report = await validate({ path: join(CORPUS, file), strict: false });
      expect(report.kind).toBe('marketplace');
      expect(report.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(report.ok).toBe(true);
      expect(report.plugins).toEqual(entryNames(file));
    },
  );

  it.each(files.filter((f) => INVALID[folderOf(f)] !== undefined))(
    'registry.md 1: %s is rejected with a diagnostic naming what is wrong',
    async (file) => {
      const report = await validate({ path: dirname(dirname(join(CORPUS, file))), strict: false });
      expect(report.kind).toBe('marketplace');
      expect(report.ok).toBe(false);
      const errors = report.diagnostics.filter((d) => d.severity === 'error');
      expect(errors.map((d) => d.message).join('\n')).toMatch(INVALID[folderOf(file)]!);
    },
  );

  it('a marketplace name with capitals (Mixedbread-Grep) is a label, not a plugin name', async () => {
    const report = await validate({
      path: join(CORPUS, 'mixedbread-ai__mgrep__marketplace'),
      strict: false,
    });
    expect(report.ok).toBe(true);
    expect(report.plugins).toEqual(['mgrep']);
  });

  it("G13: Codex's api_marketplace.json and Cursor's catalog validate as marketplaces, by directory and by file", async () => {
    for (const [dir, file, name] of [
      [API_LAYOUT, '.agents/plugins/api_marketplace.json', 'api-guard'],
      [CURSOR_LAYOUT, '.cursor-plugin/marketplace.json', 'cursor-audit'],
    ] as const) {
      for (const path of [dir, join(dir, ...file.split('/'))]) {
        const report = await validate({ path, strict: false });
        expect(report).toMatchObject({ kind: 'marketplace', ok: true, plugins: [name] });
        expect(report.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      }
    }
  });

  describe('the built CLI', () => {
    let home: TempHome;
    beforeAll(async () => {
      ensureBuilt();
      home = await makeTempHome();
    });
    afterAll(async () => {
      await home.cleanup();
    });

    it('cli.md 3: `hookpm validate --json <dir>` reports kind marketplace, and exit 1 for an invalid one', async () => {
      const good = await runBin(
        ['validate', '--json', join(CORPUS, 'obra__superpowers-marketplace__marketplace')],
        { env: home.env, cwd: home.dir },
      );
      expect(good.code, good.stderr).toBe(0);
      const report = JSON.parse(good.stdout) as { ok: boolean; kind: string; plugins: string[] };
      expect(report).toMatchObject({ ok: true, kind: 'marketplace' });
      expect(report.plugins).toHaveLength(10);
      const bad = await runBin(
        [
          'validate',
          '--json',
          join(CORPUS, 'severity1__claude-code-prompt-improver__dev-marketplace/.dev-marketplace'),
        ],
        { env: home.env, cwd: home.dir },
      );
      expect(bad.code).toBe(1);
      const badReport = JSON.parse(bad.stdout) as { ok: boolean; diagnostics: { path: string }[] };
      expect(badReport.ok).toBe(false);
      expect(badReport.diagnostics.map((d) => d.path)).toContain(
        '.claude-plugin/marketplace.json:plugins[0].source',
      );
    });
  });
});

/**
 * The new layouts, in corpus-style fixtures of this repository (test/corpus/layouts): a catalog in
 * Codex's `.agents/plugins/marketplace.json` whose plugins carry only `.codex-plugin/plugin.json`
 * and `.cursor-plugin/plugin.json` (plugins.md G5, G10).
 */
const LAYOUTS = join(REPO, 'test/corpus/layouts/agents-catalog');
/** Codex's `.agents/plugins/api_marketplace.json` alone, and Cursor's catalog alone (G13). */
const API_LAYOUT = join(REPO, 'test/corpus/layouts/api-catalog');
const CURSOR_LAYOUT = join(REPO, 'test/corpus/layouts/cursor-catalog');

/** Every file of a directory, by relative path, for a repository made of the fixture. */
async function filesOf(dir: string, prefix = ''): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) Object.assign(out, await filesOf(dir, rel));
    else out[rel] = await readFile(join(dir, rel), 'utf8');
  }
  return out;
}

describe('the new catalog and manifest layouts (test/corpus/layouts)', () => {
  it('G10, G5: the .agents/plugins catalog validates as a marketplace listing its .codex-plugin and .cursor-plugin plugins', async () => {
    const report = await validate({ path: LAYOUTS, strict: false });
    expect(report).toMatchObject({ kind: 'marketplace', ok: true });
    expect(report.plugins).toEqual(['codex-guard', 'cursor-guard']);
    expect(report.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(report.diagnostics.map((d) => [d.code, d.path])).toContainEqual([
      'ignored_manifest',
      'plugins/cursor-guard/.cursor-plugin/plugin.json:hooks',
    ]);
  });

  describe('the built CLI', () => {
    let home: TempHome;
    let scratch: string;
    beforeAll(async () => {
      ensureBuilt();
      await requireGit();
      home = await makeTempHome();
      scratch = await mkdtemp(join(tmpdir(), 'hookpm-layouts-'));
    }, 60_000);
    afterAll(async () => {
      await home.cleanup();
      await rm(scratch, { recursive: true, force: true });
    });

    async function hookpm(args: string[], stdin?: string) {
      const run = await runBin(args, {
        env: home.env,
        cwd: home.dir,
        ...(stdin === undefined ? {} : { stdin }),
      });
      expect(run.code, run.stderr).toBe(0);
      return run;
    }

    async function guardReasons(command: string): Promise<string | null> {
      const payload = JSON.stringify({ tool_name: 'Bash', tool_input: { command } });
      const run = await hookpm(['run', 'PreToolUse', '--payload', '-', '--json'], payload);
      const out = JSON.parse(run.stdout) as { permission: { reason: string } | null };
      return out.permission?.reason ?? null;
    }

    it('G10: `registry add` of the directory and of a file:// git repository of it list both plugins; both install and run', async () => {
      const local = await hookpm(['registry', 'add', 'layouts', LAYOUTS, '--json']);
      expect(JSON.parse(local.stdout)).toMatchObject({
        added: { kind: 'marketplace', plugins: 2 },
      });
      const repo = join(scratch, 'repo');
      await makeRepo(repo, gitTestEnv(scratch), await filesOf(LAYOUTS));
      const cloned = await hookpm([
        'registry',
        'add',
        'layoutsgit',
        pathToFileURL(repo).href,
        '--json',
      ]);
      expect(JSON.parse(cloned.stdout)).toMatchObject({
        added: { kind: 'marketplace', plugins: 2 },
      });
      const installed = await hookpm([
        'install',
        'codex-guard@layouts',
        'cursor-guard@layoutsgit',
        '--yes',
        '--json',
      ]);
      const result = JSON.parse(installed.stdout) as {
        installed: { id: string; version: string; events: string[] }[];
      };
      expect(result.installed.map((p) => [p.id, p.version, p.events])).toEqual([
        ['codex-guard@layouts', '1.0.0', ['PreToolUse']],
        ['cursor-guard@layoutsgit', '2.0.0', ['PreToolUse']],
      ]);
      expect(await guardReasons('ls')).toBeNull();
      expect(await guardReasons('rm -rf build')).toMatch(
        /^(codex|cursor)-guard: rm -rf is refused$/,
      );
    });

    it("G13: `registry add` of Codex's api_marketplace.json directory and of a file:// git repository of Cursor's catalog; both install and run", async () => {
      await hookpm(['registry', 'add', 'apicat', API_LAYOUT, '--json']);
      const repo = join(scratch, 'cursor-repo');
      await makeRepo(repo, gitTestEnv(scratch), await filesOf(CURSOR_LAYOUT));
      const cloned = await hookpm([
        'registry',
        'add',
        'cursorcat',
        pathToFileURL(repo).href,
        '--json',
      ]);
      expect(JSON.parse(cloned.stdout)).toMatchObject({
        added: { kind: 'marketplace', plugins: 1 },
      });
      const installed = await hookpm([
        'install',
        'api-guard@apicat',
        'cursor-audit@cursorcat',
        '--yes',
        '--json',
      ]);
      const result = JSON.parse(installed.stdout) as {
        installed: { id: string; version: string; events: string[] }[];
      };
      expect(result.installed.map((p) => [p.id, p.version, p.events])).toEqual([
        ['api-guard@apicat', '1.1.0', ['PreToolUse']],
        ['cursor-audit@cursorcat', '3.0.0', ['PreToolUse']],
      ]);
      expect(await guardReasons('rm -rf build')).toMatch(/-(guard|audit): rm -rf is refused$/);
    });
  });
});
