/**
 * Off a terminal: a warning's lead is coloured only with FORCE_COLOR and never with NO_COLOR;
 * HOOKPM_COLUMNS fits text output to a width but never touches `--json`. The built binary, its
 * stdout and stderr pipes.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/cli/render/width.js';
import { runBin, type BinRun } from '../helpers/built-bin.js';
import { useBuiltHome } from '../helpers/registry-home.js';

const home = useBuiltHome('hookpm-colour-');

const hookpm = (args: string[], env: Record<string, string> = {}): Promise<BinRun> =>
  runBin(args, { env: { ...home.env, ...env }, cwd: home.dir });

describe('colour of warnings', () => {
  it('a skipped registry warning: yellow lead with FORCE_COLOR, plain with NO_COLOR too, plain by default', async () => {
    const reg = join(home.dir, 'reg');
    await mkdir(reg);
    await writeFile(
      join(reg, 'index.json'),
      JSON.stringify({ formatVersion: 1, name: 'bad', plugins: {} }),
    );
    expect((await hookpm(['registry', 'add', 'bad', reg])).code).toBe(0);
    await writeFile(join(reg, 'index.json'), 'garbage');
    const forced = await hookpm(['search'], { FORCE_COLOR: '1' });
    expect(forced.stderr).toMatch(
      /^\u001b\[33mhookpm: warning\[E_REGISTRY_SCHEMA\]:\u001b\[39m registry bad skipped/m,
    );
    const both = await hookpm(['search'], { FORCE_COLOR: '1', NO_COLOR: '1' });
    expect(both.stderr).toMatch(/^hookpm: warning\[E_REGISTRY_SCHEMA\]: registry bad skipped/m);
    expect(both.stderr + both.stdout).not.toContain('\u001b[');
    const plain = await hookpm(['search']);
    expect(plain.stderr + plain.stdout).not.toContain('\u001b[');
    const zero = await hookpm(['search'], { FORCE_COLOR: '0' });
    expect(zero.stderr + zero.stdout).not.toContain('\u001b[');
    await writeFile(
      join(reg, 'index.json'),
      JSON.stringify({ formatVersion: 1, name: 'bad', plugins: {} }),
    );
  });
});

describe('HOOKPM_COLUMNS', () => {
  it('fits the text of `search`, `hooks` and `info` to the width it names, and leaves every --json byte-identical', async () => {
    for (const args of [['search'], ['info', 'guard@examples'], ['hooks']]) {
      const narrow = await hookpm(args, { HOOKPM_COLUMNS: '60' });
      expect(narrow.code, narrow.stderr).toBe(0);
      for (const line of narrow.stdout.split('\n').filter((l) => !l.startsWith('snapshot ')))
        expect(displayWidth(line), `${args.join(' ')}: ${line}`).toBeLessThanOrEqual(60);
      const json = await hookpm([...args, '--json']);
      const narrowJson = await hookpm([...args, '--json'], { HOOKPM_COLUMNS: '40' });
      expect(narrowJson.stdout).toBe(json.stdout);
    }
  });
});
