/**
 * `hookpm run` checks the trees of the plugins about to run, not of every installed plugin
 * (engine.md X10, plugins.md Q6), through the built binary.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';

const ws = useBinWorkspace('e2e-run-per-event');

/** A plugin whose one PreToolUse handler on `tool` runs `script.sh` (exit 0, or 2 to deny). */
async function plugin(name: string, tool: string): Promise<string> {
  const root = join(ws.dir, `${name}${ws.n}`);
  await mkdir(join(root, 'hooks'), { recursive: true });
  await writeFile(join(root, 'plugin.json'), JSON.stringify({ name, version: '1.0.0' }));
  await writeFile(join(root, 'script.sh'), '#!/bin/sh\ncat >/dev/null\nexit 0\n', { mode: 0o755 });
  const command = 'sh "${CLAUDE_PLUGIN_ROOT}/script.sh"';
  const hooks = { PreToolUse: [{ matcher: tool, hooks: [{ type: 'command', command }] }] };
  await writeFile(join(root, 'hooks', 'hooks.json'), JSON.stringify({ hooks }));
  expect((await ws.hookpm(['install', root, '--yes'])).code).toBe(0);
  const state = JSON.parse(await readFile(join(ws.home, 'hookpm', 'data', 'state.json'), 'utf8'));
  return state.plugins[`${name}@local`].path as string;
}

async function run(tool: string) {
  const payload = join(ws.dir, `payload${ws.n}-${tool}.json`);
  await writeFile(payload, JSON.stringify({ tool_name: tool, tool_input: { command: 'ls' } }));
  const out = await ws.hookpm(['run', 'PreToolUse', '--payload', payload, '--json']);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as {
    permission: { decision: string; reason?: string } | null;
    diagnostics: Array<{ code: string; plugin?: string }>;
    runs: unknown[];
  };
}

describe('hookpm run: the tamper check of the plugins about to run (engine.md X10)', () => {
  it('X10, Q6, B2: a tampered plugin fails closed where its handlers match; elsewhere its tree is not walked', async () => {
    await plugin('bystander', 'Read');
    const tampered = await plugin('edited', 'Bash');
    // Both load once with the full check, which caches their documents once their files are
    // older than the stat cache's racy window (2 s, store/fingerprint-cache.ts).
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await run('Bash')).runs).toHaveLength(1);
    await writeFile(join(tampered, 'script.sh'), '#!/bin/sh\nexit 0\n');
    // A call that none of the edited plugin's handlers match does not check its tree...
    const other = await run('Read');
    expect(other.runs).toHaveLength(1);
    expect(other.diagnostics.map((d) => d.code)).not.toContain('plugin_tampered');
    // ...and one they match leaves it out and fails closed before anything runs.
    const bash = await run('Bash');
    expect(bash.runs).toHaveLength(0);
    expect(bash.permission?.decision).toBe('deny');
    expect(bash.permission?.reason).toMatch(/^hookpm fails closed: plugin edited@local/);
    expect(bash.diagnostics).toContainEqual(
      expect.objectContaining({ code: 'plugin_tampered', plugin: 'edited@local' }),
    );
  });
});
