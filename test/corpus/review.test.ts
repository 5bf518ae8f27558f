import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHookpmError } from '../../src/errors.js';
import { installPlugins } from '../../src/ops/install/install.js';
import { reviewPlugin } from '../../src/ops/review/review.js';
import { resolveStorePaths } from '../../src/store/paths.js';
import type { StorePaths } from '../../src/store/store-paths.js';
import { CORPUS, EXCEPTIONS, REPO, indexedEvents, pluginFolders } from './corpus-plugins.js';

/**
 * Conformance of `hookpm review --json` over every plugin folder of ../shared/corpus (plugins.md
 * P1-P4, Q1-Q3): the review reports the engine events the folder's manifest and hook documents
 * declare, compared with corpus/INDEX.md with every difference explained in EXCEPTIONS (shared
 * with plugins.test.ts); a folder install would refuse has ok: false and an error naming the file.
 * Reviews call the op directly; one spawned `hookpm review --json` checks the CLI gives the same.
 */
let root: string;
let paths: StorePaths;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hookpm-corpus-review-'));
  paths = resolveStorePaths({ HOOKPM_HOME: join(root, 'hookpm') });
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('hookpm review over the corpus', () => {
  const index = readFileSync(join(CORPUS, 'INDEX.md'), 'utf8');
  const folders = pluginFolders();

  it.each(folders)(
    'Q1, Q3: review of %s reports the events INDEX.md lists, or the file that is wrong',
    async (folder) => {
      const review = await reviewPlugin(paths, { target: join(CORPUS, folder), cwd: root });
      const exception = EXCEPTIONS[folder];
      const wanted = indexedEvents(index, folder).filter(
        (e) => !(exception?.missing ?? []).includes(e),
      );
      expect([...review.events].sort(), exception?.reason).toEqual(wanted);
      expect(review.surfaceHash).toMatch(/^sha256-[A-Za-z0-9+/]+=*$/);
      for (const hook of review.hooks)
        expect(hook.valid || typeof hook.diagnostic === 'string').toBe(true);
      if (!review.ok) {
        // A folder without a manifest name takes its directory's name (P1); the corpus folder names
        // have upper case, so P3 refuses them with an error naming the directory instead of a file.
        const named = review.diagnostics.filter(
          (d) =>
            d.severity === 'error' &&
            ((d.path !== null && d.path.length > 0) ||
              (d.code === 'invalid_plugin_name' && d.message.includes(folder))),
        );
        expect(named.length, `${folder}: an error names its file`).toBeGreaterThan(0);
      }
    },
  );

  it('P4: review ok predicts install: every folder without errors installs; every other is refused naming the file', async () => {
    const outcomes: string[] = [];
    for (const folder of folders) {
      const dir = join(CORPUS, folder);
      const review = await reviewPlugin(paths, { target: dir, cwd: root });
      try {
        const [entry] = (
          await installPlugins(
            { paths },
            { specs: [dir], cwd: root, enable: 'no', force: false, dryRun: false },
          )
        ).installed;
        expect(review.ok, `${folder} installed although review says not ok`).toBe(true);
        expect(entry!.events).toEqual(review.events);
        outcomes.push('installed');
      } catch (error) {
        if (!isHookpmError(error)) throw error;
        expect(review.ok, `${folder} refused (${error.message}) although review says ok`).toBe(
          false,
        );
        expect(['E_MANIFEST_INVALID', 'E_HOOKS_INVALID', 'E_NAME_INVALID']).toContain(error.code);
        expect(typeof error.details.file).toBe('string');
        outcomes.push('refused');
      }
    }
    expect(outcomes).toContain('installed');
    expect(outcomes).toContain('refused');
  }, 60_000);

  it('the CLI path: `hookpm review --json <folder>` prints the same document as the op', async () => {
    const folder = join(CORPUS, 'anthropics__claude-plugins-official__hookify');
    const env = { ...process.env, HOME: root, HOOKPM_HOME: join(root, 'cli-home') };
    const child = spawnSync(
      process.execPath,
      [join(REPO, 'bin', 'hookpm.js'), 'review', '--json', folder],
      { env, encoding: 'utf8' },
    );
    expect(child.status, child.stderr).toBe(0);
    const expected = await reviewPlugin(resolveStorePaths({ HOOKPM_HOME: env.HOOKPM_HOME }), {
      target: folder,
      cwd: root,
    });
    // The --json document is the op's result after its schemaVersion.
    expect(JSON.parse(child.stdout)).toEqual({
      schemaVersion: 1,
      ...JSON.parse(JSON.stringify(expected)),
    });
  });
});
