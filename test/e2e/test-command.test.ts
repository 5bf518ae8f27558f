import { chmod, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/built-bin.js';
import { useBinHome } from '../helpers/bin-workspace.js';

const bin = useBinHome('testcmd');

const hookpm = (args: string[], cwd = bin.dir, stdin?: string) =>
  runBin(args, { cwd, env: bin.env, ...(stdin === undefined ? {} : { stdin }) });

/** A plugin whose one Stop handler runs `script` (sh) and records its data directory. */
async function shPlugin(name: string, script: string): Promise<string> {
  const root = join(bin.dir, name);
  await mkdir(join(root, 'hooks'), { recursive: true });
  await writeFile(join(root, 'plugin.json'), JSON.stringify({ name, version: '1.0.0' }));
  const handler = { type: 'command', command: script };
  await writeFile(
    join(root, 'hooks', 'hooks.json'),
    JSON.stringify({ hooks: { Stop: [{ hooks: [handler] }] } }),
  );
  return root;
}

describe('hookpm test <plugin> <Event>', () => {
  it("runs an init'ed plugin's handler on its sample payload and shows exit code, output and time", async () => {
    expect((await hookpm(['init', 'guard'])).code).toBe(0);
    const run = await hookpm(['test', 'guard', 'PreToolUse', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(Object.keys(report)[0]).toBe('schemaVersion');
    expect(report).toMatchObject({ plugin: 'guard@local', kind: 'directory', failed: false });
    expect(report.handlers).toHaveLength(1);
    const [h] = report.handlers;
    expect(h).toMatchObject({ exitCode: 0, timedOut: false, failed: false, decision: 'deny' });
    expect(h.ms).toBeGreaterThan(0);
    expect(h.stdout).toContain('permissionDecision');
    expect(report.result.permission.decision).toBe('deny');

    const human = await hookpm([
      'test',
      'guard',
      'PreToolUse',
      '--payload',
      '{"tool_name":"Bash","tool_input":{"command":"ls"}}',
    ]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/PreToolUse:0:0 {2}exit 0 {2}[\d.]+ ms {2}ok/);
    expect(human.stdout).toContain('permission: none');
  });

  it('the plugin variables name its root and a scratch data directory, removed afterwards; --data keeps one', async () => {
    const root = await shPlugin(
      'vars',
      'echo "root=$CLAUDE_PLUGIN_ROOT data=$CLAUDE_PLUGIN_DATA same=$([ "$PLUGIN_DATA" = "$CLAUDE_PLUGIN_DATA" ] && echo yes)" >&2; touch "$PLUGIN_DATA/was-here"',
    );
    const run = await hookpm(['test', root, 'Stop', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const { handlers, dataDir } = JSON.parse(run.stdout);
    expect(dataDir).toBeNull();
    const stderr: string = handlers[0].stderr;
    expect(stderr).toContain(`root=${root}`);
    expect(stderr).toContain('same=yes');
    const scratch = /data=(\S+)/.exec(stderr)![1]!;
    expect(scratch).toContain('hookpm-test-data-');
    expect(existsSync(scratch)).toBe(false);
    const kept = join(bin.dir, 'kept-data');
    const withData = await hookpm(['test', root, 'Stop', '--data', kept, '--json']);
    expect(withData.code, withData.stderr).toBe(0);
    expect(await readdir(kept)).toEqual(['was-here']);
  });

  it('cli.md errors: a --data that is a file is E_USAGE naming it, never E_INTERNAL, and the file stays', async () => {
    const root = await shPlugin('data-file', 'true');
    const file = join(bin.dir, 'not-a-dir');
    await writeFile(file, 'mine\n');
    const run = await hookpm(['test', root, 'Stop', '--data', file]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('E_USAGE');
    expect(run.stderr).not.toContain('E_INTERNAL');
    expect(run.stderr).toContain(file);
    expect(await readFile(file, 'utf8')).toBe('mine\n');
  });

  it('exits 1 when a handler fails (exit 1, timeout), 0 for a block (exit 2)', async () => {
    const failing = await shPlugin('failing', 'echo broken >&2; exit 1');
    const fail = await hookpm(['test', failing, 'Stop']);
    expect(fail.code).toBe(1);
    expect(fail.stdout).toContain('exit 1');
    expect(fail.stdout).toContain('FAILED');
    expect(fail.stdout).toContain('broken');
    const blocking = await shPlugin('blocking', 'echo keep going >&2; exit 2');
    const block = await hookpm(['test', blocking, 'Stop', '--json']);
    expect(block.code, block.stdout).toBe(0);
    expect(JSON.parse(block.stdout).handlers[0]).toMatchObject({ exitCode: 2, decision: 'block' });
    const slow = join(bin.dir, 'slow');
    await mkdir(join(slow, 'hooks'), { recursive: true });
    await writeFile(join(slow, 'plugin.json'), JSON.stringify({ name: 'slow' }));
    await writeFile(
      join(slow, 'hooks', 'hooks.json'),
      JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: 'command', command: 'sleep 30', timeout: 1 }] }] },
      }),
    );
    const timeout = await hookpm(['test', slow, 'Stop', '--json']);
    expect(timeout.code).toBe(1);
    expect(JSON.parse(timeout.stdout).handlers[0]).toMatchObject({ timedOut: true, failed: true });
  });

  it('a tarball and an installed plugin are run without installing, enabling or logging anything', async () => {
    expect((await hookpm(['init', 'packed'])).code).toBe(0);
    const pack = await hookpm(['pack', 'packed', '--out', join(bin.dir, 'tgz'), '--json']);
    expect(pack.code, pack.stderr).toBe(0);
    const file = JSON.parse(pack.stdout).file as string;
    const fromTarball = await hookpm([
      'test',
      file,
      'PreToolUse',
      '--payload',
      join(bin.dir, 'packed', 'payloads', 'PreToolUse.json'),
      '--json',
    ]);
    expect(fromTarball.code, fromTarball.stderr).toBe(0);
    expect(JSON.parse(fromTarball.stdout)).toMatchObject({
      kind: 'tarball',
      plugin: 'packed@local',
    });
    expect(existsSync(join(bin.dir, 'hookpm', 'data'))).toBe(false);

    const install = await hookpm(['install', './packed', '--yes']);
    expect(install.code, install.stderr).toBe(0);
    expect((await hookpm(['disable', 'packed'])).code).toBe(0);
    const state = await readFile(join(bin.dir, 'hookpm', 'data', 'state.json'));
    const elsewhere = join(bin.dir, 'elsewhere');
    await mkdir(elsewhere);
    const installed = await hookpm(
      ['test', 'packed', 'PreToolUse', '--payload', '-', '--json'],
      elsewhere,
      '{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}',
    );
    expect(installed.code, installed.stderr).toBe(0);
    const report = JSON.parse(installed.stdout);
    expect(report).toMatchObject({ kind: 'installed', plugin: 'packed@local' });
    expect(report.handlers[0].decision).toBe('deny');
    expect(await readFile(join(bin.dir, 'hookpm', 'data', 'state.json'))).toEqual(state);
    expect(existsSync(join(bin.dir, 'hookpm', 'data', 'log'))).toBe(false);
  });

  it('writing-plugins.md: without --payload a tarball and an installed plugin run on their own payloads/<Event>.json', async () => {
    expect((await hookpm(['init', 'sampled'])).code).toBe(0);
    const pack = await hookpm(['pack', 'sampled', '--out', join(bin.dir, 'tgz2'), '--json']);
    expect(pack.code, pack.stderr).toBe(0);
    const file = JSON.parse(pack.stdout).file as string;
    expect((await hookpm(['install', './sampled', '--yes'])).code).toBe(0);
    const elsewhere = join(bin.dir, 'elsewhere-sampled');
    await mkdir(elsewhere);
    // The sample payload is `rm -rf /` on Bash, which the template's guard denies.
    for (const target of [file, 'sampled@local']) {
      const run = await hookpm(['test', target, 'PreToolUse', '--json'], elsewhere);
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout);
      expect(report.handlers, target).toHaveLength(1);
      expect(report.result.permission.decision, target).toBe('deny');
    }
  });

  it('plugins.md Q6: an installed plugin whose files changed after install exits 1 with plugin_tampered, as run leaves it out', async () => {
    expect((await hookpm(['init', 'changed'])).code).toBe(0);
    expect((await hookpm(['install', './changed', '--yes'])).code).toBe(0);
    const list = JSON.parse((await hookpm(['list', '--json'])).stdout);
    const record = (await readFile(join(bin.dir, 'hookpm', 'data', 'state.json'), 'utf8')).match(
      /"path":\s*"([^"]*changed[^"]*)"/,
    );
    expect(list.plugins.some((p: { id: string }) => p.id === 'changed@local')).toBe(true);
    const script = join(record![1]!, 'hooks', 'pre-tool-use.mjs');
    await chmod(script, 0o755);
    await writeFile(script, 'console.log("{}");\n');
    const run = await hookpm(['test', 'changed@local', 'PreToolUse', '--json']);
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.invalid).toBe(true);
    expect(report.diagnostics).toContainEqual(
      expect.objectContaining({ code: 'plugin_tampered', severity: 'error' }),
    );
  });

  it('a plugin with an invalid hooks document exits 1 and says why; its valid documents still run', async () => {
    const root = await shPlugin('half', 'true');
    await writeFile(
      join(root, 'plugin.json'),
      JSON.stringify({ name: 'half', version: '1.0.0', hooks: './extra.json' }),
    );
    await writeFile(join(root, 'extra.json'), '{"hooks": {');
    const run = await hookpm(['test', root, 'Stop', '--json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ invalid: true, failed: false });
    expect(report.diagnostics.some((d: any) => d.severity === 'error')).toBe(true);
    expect(report.handlers.length).toBeGreaterThanOrEqual(1);
  });

  it('an unknown plugin and a bad payload are clear errors', async () => {
    const none = await hookpm(['test', 'no-such-plugin', 'Stop']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('E_NOT_INSTALLED');
    const bad = await hookpm(['test', join(bin.dir, 'guard'), 'PreToolUse', '--payload', '{"a":']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--payload');
  });

  it("policy.md A11-A13, A18: a plugin the administrator's policy would not let run is E_POLICY, before any handler runs", async () => {
    const root = await shPlugin('held', 'touch "$CLAUDE_PLUGIN_ROOT/ran"');
    const policies = [
      [
        { plugins: { deny: ['held'] } },
        'testing held@local is refused',
        'plugins.deny entry "held"',
      ],
      [{ registries: { allow: ['examples'] } }, 'testing held@local', 'registries.allow'],
      ['{"plugins": {"deny": ["x",]}}', 'testing held@local is refused', 'cannot be used'],
      [{ sandbox: { require: true } }, 'testing held@local', 'sandbox.require'],
    ] as const;
    for (const [policy, what, rule] of policies) {
      const file = join(bin.dir, 'policy.json');
      await writeFile(file, typeof policy === 'string' ? policy : JSON.stringify(policy));
      const run = await runBin(['test', root, 'Stop'], {
        cwd: bin.dir,
        env: { ...bin.env, HOOKPM_POLICY_FILE: file },
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('E_POLICY');
      expect(run.stderr).toContain(what);
      expect(run.stderr).toContain(rule);
      expect(run.stderr).toContain(file);
      expect(existsSync(join(root, 'ran'))).toBe(false);
    }
    const allowed = await runBin(['test', root, 'Stop'], {
      cwd: bin.dir,
      env: { ...bin.env, HOOKPM_POLICY_FILE: join(bin.dir, 'no-policy.json') },
    });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(existsSync(join(root, 'ran'))).toBe(true);
  });
});
