/**
 * engine.md X9 through `hookpm wire claude` (the command `hookpm link claude` writes, payload on
 * stdin): a plugin handler with `onFailure: "block"` that fails - exits 1, times out, cannot launch
 * - denies the tool call with a reason naming hookpm, the handler and the plugin; the same failure
 * without it lets the call through (K3, X6, X8). `hookpm review` shows the field, and an update
 * that drops it needs consent again (Q2, Q5).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';
import { claudeBashPayload } from '../helpers/claude-payload.js';

const ws = useBinWorkspace('e2e-wire-on-failure');

/** One handler per `if` rule, so that each Bash command reaches exactly one of them. */
const HANDLERS = [
  { if: 'Bash(exit-one *)', command: 'echo boom >&2; exit 1', onFailure: 'block' },
  { if: 'Bash(exit-one-open *)', command: 'echo boom >&2; exit 1' },
  { if: 'Bash(hang *)', command: 'sleep 30', timeout: 1, onFailure: 'block' },
  { if: 'Bash(hang-open *)', command: 'sleep 30', timeout: 1 },
  { if: 'Bash(missing *)', command: '/nonexistent/guard-bin', args: [], onFailure: 'block' },
  { if: 'Bash(fine *)', command: 'exit 0', onFailure: 'block' },
];

function hooks(handlers: Array<Record<string, unknown>>): Record<string, unknown> {
  return {
    PreToolUse: [{ matcher: 'Bash', hooks: handlers.map((h) => ({ type: 'command', ...h })) }],
  };
}

async function installStrict(): Promise<string> {
  const root = await writeClaudePlugin(join(ws.dir, `strict${ws.n}`), 'strict', hooks(HANDLERS));
  const run = await ws.hookpm(['install', root, '--yes']);
  expect(run.code, run.stderr).toBe(0);
  return root;
}

async function wireBash(command: string) {
  const payload = claudeBashPayload(ws, `s${ws.n}`, command);
  const run = await ws.hookpm(['wire', 'claude'], { stdin: payload });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout === '' ? null : (JSON.parse(run.stdout) as Record<string, any>);
}

describe('hookpm wire claude: onFailure "block" (engine.md X9)', () => {
  it('X9: a handler with onFailure "block" that exits 1, times out or cannot launch denies, naming hookpm, the handler and the plugin', async () => {
    await installStrict();
    const cases: Array<[string, RegExp]> = [
      ['exit-one now', /failed \(nonzero_exit: exit code 1: boom\)/],
      ['hang now', /failed \(timeout: timed out after 1s; no output applied\)/],
      ['missing now', /failed \(launch_failed: \/nonexistent\/guard-bin: program not found\)/],
    ];
    for (const [command, why] of cases) {
      const out = await wireBash(command);
      expect(out?.hookSpecificOutput, command).toMatchObject({
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
      });
      const reason = out?.hookSpecificOutput.permissionDecisionReason as string;
      expect(reason).toMatch(/^hookpm: handler PreToolUse:0:\d of plugin strict@\S+ failed /);
      expect(reason).toMatch(why);
      expect(reason).toContain('declares onFailure "block"');
    }
  });

  it('K3/X6/X9: without onFailure the same exit 1 and timeout let the call through, and a handler with it that succeeds allows', async () => {
    await installStrict();
    for (const command of ['exit-one-open now', 'hang-open now', 'fine now']) {
      const out = await wireBash(command);
      expect(out?.hookSpecificOutput?.permissionDecision, command).toBeUndefined();
    }
  });

  it('Q3/Q5/X9: review shows onFailure, and an update that drops it is a change that needs consent', async () => {
    const root = await installStrict();
    const review = await ws.hookpm(['review', 'strict']);
    expect(review.code, review.stderr).toBe(0);
    expect(review.stdout).toMatch(/command "echo boom >&2; exit 1"\n\s+on failure "block"\n/);

    const relaxed = HANDLERS.map(({ onFailure: _dropped, ...rest }) => rest);
    await writeFile(join(root, 'hooks', 'hooks.json'), JSON.stringify({ hooks: hooks(relaxed) }));
    await writeFile(
      join(root, '.claude-plugin', 'plugin.json'),
      JSON.stringify({ name: 'strict', version: '1.0.1' }),
    );
    const update = await ws.hookpm(['install', root, '--json']);
    expect(update.code).not.toBe(0);
    expect(JSON.parse(update.stdout)).toMatchObject({ error: { code: 'E_CONSENT_REQUIRED' } });
    const out = await wireBash('exit-one now');
    expect(out?.hookSpecificOutput.permissionDecision).toBe('deny');
  });
});
