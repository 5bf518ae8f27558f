/**
 * Projects, adapter level: a project install holds the store lock from its consent question to its
 * last write, and a project file another command (or an editor) changed meanwhile makes it fail
 * with E_PROJECT_FILE having changed nothing: no state written, no tree left, the file as the
 * other writer left it. A real registry on 127.0.0.1, a real store in a temporary home.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHookpmError } from '../../src/errors.js';
import { installProjectSpecs } from '../../src/ops/project/install-project.js';
import { installedFilesDir } from '../../src/store/installed-files.js';
import { pluginsDir, resolveStorePaths } from '../../src/store/paths.js';
import {
  publishPlugin,
  startPluginRegistry,
  type ServedRegistry,
} from '../helpers/plugin-registry.js';

let acme: ServedRegistry;
let dir: string;

beforeAll(async () => {
  acme = await startPluginRegistry('acme');
  await publishPlugin(acme, 'team-guard', '1.0.0', { PreToolUse: ['echo check'] });
  dir = await mkdtemp(join(tmpdir(), 'hookpm-project-commit-'));
});
afterAll(async () => {
  await acme.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the project scope of the install transaction under the store lock', () => {
  it('a hookpm.json changed while the consent question was open fails E_PROJECT_FILE and changes nothing', async () => {
    const project = join(dir, 'repo');
    await mkdir(join(project, '.git'), { recursive: true });
    const initial = `${JSON.stringify({ plugins: {}, registries: { acme: acme.url } }, null, 2)}\n`;
    await writeFile(join(project, 'hookpm.json'), initial);
    const edited = `${JSON.stringify({ plugins: { 'other@acme': '^1.0.0' }, registries: { acme: acme.url } })}\n`;
    const paths = resolveStorePaths({ HOOKPM_HOME: join(dir, 'home') });
    let asked = 0;
    const confirm = async (): Promise<boolean> => {
      asked += 1;
      await writeFile(join(project, 'hookpm.json'), edited);
      return true;
    };
    const failure = await installProjectSpecs({ paths, confirm }, ['team-guard@acme'], {
      cwd: project,
      enable: 'ask',
    }).catch((error: unknown) => error);
    expect(asked).toBe(1);
    expect(isHookpmError(failure, 'E_PROJECT_FILE')).toBe(true);
    expect(await readFile(join(project, 'hookpm.json'), 'utf8')).toBe(edited);
    expect(existsSync(join(project, 'hookpm.lock'))).toBe(false);
    expect(existsSync(join(paths.data, 'state.json'))).toBe(false);
    const trees = existsSync(join(paths.data, 'plugins'))
      ? readdirSync(join(paths.data, 'plugins'))
      : [];
    expect(trees).toEqual([]);
  });

  it('one transaction for both scopes: a failed first project install, like a user-wide one, leaves no empty store directory behind', async () => {
    const project = join(dir, 'repo-first');
    await mkdir(join(project, '.git'), { recursive: true });
    await writeFile(
      join(project, 'hookpm.json'),
      `${JSON.stringify({ plugins: {}, registries: { acme: acme.url } }, null, 2)}\n`,
    );
    const paths = resolveStorePaths({ HOOKPM_HOME: join(dir, 'home-first') });
    const confirm = async (): Promise<boolean> => {
      await writeFile(join(project, 'hookpm.json'), '{"plugins":{},"registries":{}}\n');
      return true;
    };
    const failure = await installProjectSpecs({ paths, confirm }, ['team-guard@acme'], {
      cwd: project,
      enable: 'ask',
    }).catch((error: unknown) => error);
    expect(isHookpmError(failure, 'E_PROJECT_FILE')).toBe(true);
    expect(existsSync(pluginsDir(paths))).toBe(false);
    expect(existsSync(installedFilesDir(paths))).toBe(false);
    expect(existsSync(join(paths.data, 'state.json'))).toBe(false);
  });
});
