import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../src/ops/validate/validate.js';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { CORPUS } from './corpus-plugins.js';

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
