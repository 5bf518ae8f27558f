import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { confineCommand, type ConfineInput } from '../../src/engine/confine-command.js';
import { join } from 'node:path';
import { useTempDir } from '../helpers/temp-dir.js';
import { BWRAP, INSTALL_TIMEOUT_MS, requireTool } from '../helpers/system-package.js';

const tmp = useTempDir('confine-command');
let bwrapDir = '';
beforeAll(async () => {
  bwrapDir = dirname(await requireTool(BWRAP));
}, INSTALL_TIMEOUT_MS);

function input(over: Partial<ConfineInput> = {}): ConfineInput {
  const dir = tmp.dir;
  return {
    confine: { network: false, write: [], hide: [] },
    file: '/bin/true',
    args: [],
    cwd: dir,
    projectDir: dir,
    pluginRoot: null,
    pluginData: join(dir, 'data'),
    env: { PATH: bwrapDir },
    ...over,
  };
}

describe('the bubblewrap command line (security.md Z4-Z7)', () => {
  it('Z5: no network unless declared; Z4: the root read-only, own /proc and /dev, no capabilities, dies with its parent', () => {
    const closed = confineCommand(input());
    if (!closed.ok) throw new Error(closed.message);
    expect(closed.args).toEqual(
      expect.arrayContaining(['--unshare-net', '--unshare-pid', '--die-with-parent', 'ALL']),
    );
    expect(closed.args.join(' ')).toContain('--ro-bind / / --dev /dev --proc /proc');
    expect(closed.args.slice(-4)).toEqual(['--json-status-fd', '3', '--', '/bin/true']);
    const open = confineCommand(input({ confine: { network: true, write: [], hide: [] } }));
    expect(open.ok && open.args.includes('--unshare-net')).toBe(false);
  });

  it('Z4: only the declared places are bound writable; tmp is a private folder removed afterwards', () => {
    const base = input({ confine: { network: false, write: ['data', 'tmp'], hide: [] } });
    const launch = confineCommand(base);
    if (!launch.ok) throw new Error(launch.message);
    const binds = launch.args.flatMap((a, i) => (a === '--bind' ? [launch.args[i + 1]] : []));
    const temp = launch.env['TMPDIR'] ?? '';
    expect(binds).toEqual([base.pluginData, temp]);
    expect(existsSync(temp)).toBe(true);
    launch.cleanup();
    expect(existsSync(temp)).toBe(false);
  });

  it('Z3: `project` is bound writable, except a project of `/`, which would bind the whole file system', () => {
    const binds = (projectDir: string) => {
      const launch = confineCommand(
        input({ projectDir, confine: { network: false, write: ['project'], hide: [] } }),
      );
      if (!launch.ok) throw new Error(launch.message);
      return launch.args.flatMap((a, i) => (a === '--bind' ? [launch.args[i + 1]] : []));
    };
    expect(binds(tmp.dir)).toEqual([tmp.dir]);
    expect(binds('/')).toEqual([]);
  });

  it('Z6: without bwrap on PATH the command is refused, naming the fix', () => {
    const launch = confineCommand(input({ env: { PATH: '/nonexistent' } }));
    expect(launch).toMatchObject({
      ok: false,
      message: expect.stringContaining('install bubblewrap'),
    });
  });

  it('Z7: off Linux a confined handler is refused rather than run unconfined', () => {
    const launch = confineCommand(input(), 'darwin');
    expect(launch).toMatchObject({ ok: false, message: expect.stringContaining('only on Linux') });
  });
});
