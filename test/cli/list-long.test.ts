/**
 * `hookpm list --long` (or `-l`) adds the source, integrity, and install and
 * update times to the table; plain `hookpm list` keeps its columns. Runs the built CLI.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/built-bin.js';
import { useBuiltHome } from '../helpers/registry-home.js';

const home = useBuiltHome('hookpm-list-long-');

beforeAll(async () => {
  const installed = await runBin(['install', 'guard@examples', '--yes'], {
    env: home.env,
    cwd: home.dir,
  });
  expect(installed.code, installed.stderr).toBe(0);
}, 120_000);

async function hookpm(...args: string[]): Promise<string> {
  const run = await runBin(args, { env: home.env, cwd: home.dir });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

describe('hookpm list --long', () => {
  it('shows SOURCE, INTEGRITY, INSTALLED and UPDATED with the values of list --json', async () => {
    const [plugin] = (
      JSON.parse(await hookpm('list', '--json')) as { plugins: Array<Record<string, string>> }
    ).plugins;
    for (const args of [
      ['list', '--long'],
      ['list', '-l'],
      ['--cwd', '.', 'list', '--long'],
    ]) {
      const [header, row] = (await hookpm(...args)).trimEnd().split('\n');
      expect(header?.split(/\s{2,}/)).toEqual([
        'ID',
        'VERSION',
        'STATE',
        'PENDING',
        'EVENTS',
        'SOURCE',
        'INTEGRITY',
        'INSTALLED',
        'UPDATED',
        'CHECKED',
      ]);
      for (const field of ['id', 'source', 'integrity', 'installedAt', 'updatedAt', 'checkedAt'])
        expect(row).toContain(plugin?.[field]);
    }
  });

  it('plain list keeps its five columns', async () => {
    const [header] = (await hookpm('list')).split('\n');
    expect(header?.split(/\s{2,}/)).toEqual(['ID', 'VERSION', 'STATE', 'PENDING', 'EVENTS']);
  });
});
