import { spawnSync } from 'node:child_process';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '../../src/hooks/events.js';
import { validate } from '../../src/ops/validate/validate.js';
import { packPlugin } from '../../src/publish/pack.js';
import { BIN, runBin } from '../helpers/built-bin.js';
import { useBinHome } from '../helpers/bin-workspace.js';

const bin = useBinHome('init');

const hookpm = (args: string[]) => runBin(args, { cwd: bin.dir, env: bin.env });

describe('hookpm init', () => {
  it('the new plugin validates strictly and packs at once, for every event', async () => {
    for (const [i, event] of EVENT_NAMES.entries()) {
      const name = `p-${event.toLowerCase()}`;
      const init = await hookpm(['init', name, '--event', event, '--json']);
      expect(init.code, init.stderr).toBe(0);
      const result = JSON.parse(init.stdout);
      expect(Object.keys(result)[0]).toBe('schemaVersion');
      expect(result.files).toContain('hooks/hooks.json');
      expect(result.files).toContain(`payloads/${event}.json`);
      // What init wrote is under test, not validate and pack: the built commands check the first
      // event's plugin, the functions they call (in this process, no CLI start-up) the others.
      if (i === 0) {
        const validate = await hookpm(['validate', name, '--strict', '--json']);
        expect(validate.code, validate.stdout).toBe(0);
        expect(JSON.parse(validate.stdout).events).toEqual([event]);
        const pack = await hookpm(['pack', name, '--out', join(bin.dir, 'out'), '--json']);
        expect(pack.code, pack.stderr).toBe(0);
        expect(JSON.parse(pack.stdout).name).toBe(name);
      } else {
        const report = await validate({ path: join(bin.dir, name), strict: true });
        expect(report.ok, JSON.stringify(report.diagnostics)).toBe(true);
        expect(report.events).toEqual([event]);
        const packed = await packPlugin(join(bin.dir, name), { outDir: join(bin.dir, 'out') });
        expect(packed.name).toBe(name);
      }
    }
  });

  it('the PreToolUse example has matcher Bash, a manifest, a script, a payload and a README', async () => {
    const init = await hookpm(['init', 'guard']);
    expect(init.code, init.stderr).toBe(0);
    const root = join(bin.dir, 'guard');
    const hooks = JSON.parse(await readFile(join(root, 'hooks', 'hooks.json'), 'utf8'));
    expect(hooks.hooks.PreToolUse[0].matcher).toBe('Bash');
    const manifest = JSON.parse(
      await readFile(join(root, '.claude-plugin', 'plugin.json'), 'utf8'),
    );
    expect(manifest).toMatchObject({ name: 'guard', version: '0.1.0' });
    expect((await readdir(join(root, 'hooks'))).sort()).toEqual(['hooks.json', 'pre-tool-use.mjs']);
    expect(await readFile(join(root, 'README.md'), 'utf8')).toContain('hookpm test');
  });

  it('a non-empty directory is refused and left byte-identical; --existing never overwrites', async () => {
    const root = join(bin.dir, 'mine');
    await mkdir(join(root, 'hooks'), { recursive: true });
    await writeFile(join(root, 'hooks', 'hooks.json'), 'my own text');
    const refused = await hookpm(['init', 'mine']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('E_TARGET_EXISTS');
    const clash = await hookpm(['init', 'mine', '--existing']);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain('hooks/hooks.json');
    expect(await readdir(root)).toEqual(['hooks']);
    expect(await readdir(join(root, 'hooks'))).toEqual(['hooks.json']);
    expect(await readFile(join(root, 'hooks', 'hooks.json'), 'utf8')).toBe('my own text');

    const other = join(bin.dir, 'other');
    await mkdir(other);
    await writeFile(join(other, 'NOTES.txt'), 'keep');
    const added = await hookpm(['init', 'other', '--existing']);
    expect(added.code, added.stderr).toBe(0);
    expect(await readFile(join(other, 'NOTES.txt'), 'utf8')).toBe('keep');
  });

  it("plugins.md P1, G5: --existing beside a manifest of its own (plugin.json, Codex's) is refused: the new one would not name the plugin", async () => {
    for (const manifest of ['plugin.json', '.codex-plugin/plugin.json']) {
      const root = join(bin.dir, `has-${manifest.length}`);
      await mkdir(join(root, manifest, '..'), { recursive: true });
      const text = JSON.stringify({ name: 'theirs', version: '2.0.0' });
      await writeFile(join(root, manifest), text);
      const refused = await hookpm(['init', root, '--existing']);
      expect(refused.code, refused.stdout).toBe(1);
      expect(refused.stderr).toContain('E_TARGET_EXISTS');
      expect(refused.stderr).toContain(manifest);
      expect(await readFile(join(root, manifest), 'utf8')).toBe(text);
      expect(await readdir(join(root, '.claude-plugin')).catch(() => null)).toBeNull();
    }
  });

  it('security.md, errors.md E_IO: a file the disk refuses fails init with the path named and takes back what it made: a new directory is gone, an --existing one is as it was', async () => {
    // A full disk refuses the bytes after the file is made; `ulimit -f 0` (EFBIG) does the same
    // without root or a mount.
    const limited = (args: string[]) =>
      spawnSync('bash', ['-c', 'ulimit -f 0; exec "$0" "$@"', process.execPath, BIN, ...args], {
        cwd: bin.dir,
        env: bin.env,
        encoding: 'utf8',
      });
    const fresh = limited(['init', 'full', '--json']);
    expect(fresh.status, fresh.stderr).toBe(1);
    const error = JSON.parse(fresh.stdout).error;
    expect(error.code).toBe('E_IO');
    expect(error.message).toContain(join(bin.dir, 'full', '.claude-plugin', 'plugin.json'));
    expect(await readdir(bin.dir)).not.toContain('full');
    const root = join(bin.dir, 'mine-full');
    await mkdir(root);
    await writeFile(join(root, 'notes.txt'), 'my own text');
    const existing = limited(['init', 'mine-full', '--existing', '--json']);
    expect(existing.status, existing.stderr).toBe(1);
    expect(await readdir(root)).toEqual(['notes.txt']);
    // And once the disk takes it, the same command succeeds: nothing was left in its way.
    expect((await hookpm(['init', 'full'])).code).toBe(0);
  });

  it('an invalid directory name asks for --name; an unknown event is a usage error', async () => {
    const bad = await hookpm(['init', 'Bad Name']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('E_NAME_INVALID');
    expect(bad.stderr).toContain('--name');
    const named = await hookpm(['init', 'Bad Name', '--name', 'good-name', '--json']);
    expect(named.code, named.stderr).toBe(0);
    expect(JSON.parse(named.stdout).name).toBe('good-name');
    const event = await hookpm(['init', 'x', '--event', 'pretooluse']);
    expect(event.code).toBe(2);
    expect(event.stderr).toContain('E_USAGE');
  });

  it('the command it says to try names a directory with a space or a quote as one shell word, and runs as printed', async () => {
    const init = await hookpm(['init', "my plugin's #1", '--name', 'quoted']);
    expect(init.code, init.stderr).toBe(0);
    const line = init.stdout.split('\n').find((l) => l.startsWith('try it: hookpm '));
    expect(line).toBe(
      "try it: hookpm test 'my plugin'\\''s #1' PreToolUse --payload 'my plugin'\\''s #1/payloads/PreToolUse.json'",
    );
    const command = line!.slice('try it: hookpm '.length);
    const run = spawnSync('/bin/sh', ['-c', `"$0" "$1" ${command}`, process.execPath, BIN], {
      cwd: bin.dir,
      env: bin.env,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
  });
});
