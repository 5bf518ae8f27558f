/**
 * security.md Z1-Z4 and Z8 through the built `bin/hookpm`: `capabilities` in the manifest is
 * validated, shown by `review` (text and `--json`), part of the consent surface (an update that
 * widens it waits for consent, one that narrows it does not), and a user can confine an undeclared
 * plugin with `hookpm enable <plugin> --confine`, recorded with the consent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';
import { BWRAP, INSTALL_TIMEOUT_MS, requireTool } from '../helpers/system-package.js';

const ws = useBinWorkspace('e2e-confine-consent');
const PROBE = join(import.meta.dirname, '..', 'fixtures', 'handlers', 'confine-probe.mjs');

beforeAll(() => requireTool(BWRAP), INSTALL_TIMEOUT_MS);

async function writePlugin(version: string, capabilities: unknown): Promise<string> {
  const root = join(ws.dir, `cap${ws.n}`);
  await writeClaudePlugin(root, 'cap', {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [{ type: 'command', command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/probe.mjs'] }],
      },
    ],
  });
  await copyFile(PROBE, join(root, 'probe.mjs'));
  const manifest = {
    name: 'cap',
    version,
    ...(capabilities === undefined ? {} : { capabilities }),
  };
  await writeFile(join(root, '.claude-plugin', 'plugin.json'), JSON.stringify(manifest));
  return root;
}

const stateOf = () =>
  JSON.parse(readFileSync(join(ws.home, 'hookpm', 'data', 'state.json'), 'utf8')) as {
    plugins: Record<string, { version: string; consent: Record<string, unknown> | null }>;
  };

async function wireHome(): Promise<string> {
  const body = JSON.stringify({
    session_id: `s${ws.n}-${Math.random()}`,
    transcript_path: join(ws.home, 't.jsonl'),
    cwd: ws.repo,
    hook_event_name: 'PreToolUse',
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: { command: 'home' },
    tool_use_id: 'toolu_1',
  });
  const run = await ws.hookpm(['wire', 'claude'], { stdin: body });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout).hookSpecificOutput.permissionDecisionReason as string;
}

describe('declared capabilities and consent (security.md Z1-Z4)', () => {
  it('Z1: validate refuses capabilities that are not {network: boolean, write: [data|project|tmp]}', async () => {
    const root = await writePlugin('1.0.0', { network: 'no', write: ['home'] });
    const run = await ws.hookpm(['validate', root, '--json']);
    expect(run.code).not.toBe(0);
    const text = run.stdout + run.stderr;
    expect(text).toContain('invalid_manifest');
    expect(text).toContain('capabilities');
  });

  it('Z1/Q3: review shows the declared capabilities (text and --json), what a writable project reaches, and says plainly when a plugin declares none', async () => {
    const root = await writePlugin('1.0.0', { network: false, write: ['tmp', 'data'] });
    const text = await ws.hookpm(['review', root]);
    expect(text.stdout).toContain('confinement: network: none; writes: data, tmp');
    const json = JSON.parse((await ws.hookpm(['review', root, '--json'])).stdout);
    expect(json.capabilities).toEqual({ network: false, write: ['data', 'tmp'] });

    expect(text.stdout).not.toContain('writable project');
    const project = await writePlugin('1.0.0', { network: false, write: ['project'] });
    expect((await ws.hookpm(['review', project])).stdout).toContain(
      "writable project: its hooks may edit the agents' settings and git's hooks there, which run unconfined",
    );

    const bare = await writePlugin('1.0.0', undefined);
    const plain = await ws.hookpm(['review', bare]);
    expect(plain.stdout).toContain(
      "confinement: undeclared: its hooks run unconfined, with all of the user's rights",
    );
    expect(JSON.parse((await ws.hookpm(['review', bare, '--json'])).stdout).capabilities).toBe(
      null,
    );
  });

  it('Z2: an update that widens the capabilities waits for consent; one that narrows them carries it', async () => {
    let root = await writePlugin('1.0.0', { network: false, write: ['data'] });
    expect((await ws.hookpm(['install', root, '--yes'])).code).toBe(0);

    root = await writePlugin('1.0.1', { network: true, write: ['data'] });
    const widened = await ws.hookpm(['install', root, '--json']);
    expect(widened.code).not.toBe(0);
    expect(JSON.parse(widened.stdout)).toMatchObject({ error: { code: 'E_CONSENT_REQUIRED' } });
    const review = await ws.hookpm(['review', root]);
    expect(review.stdout).toContain(
      'capabilities widened, waits for consent: was network: none; writes: data',
    );

    root = await writePlugin('1.0.2', { network: false, write: [] });
    const narrowed = await ws.hookpm(['install', root, '--json']);
    expect(narrowed.code, narrowed.stdout + narrowed.stderr).toBe(0);
    expect(stateOf().plugins['cap@local']).toMatchObject({
      version: '1.0.2',
      consent: { version: '1.0.2' },
    });
  });

  it('Z2: dropping the declaration (running unconfined again) waits for consent', async () => {
    let root = await writePlugin('1.0.0', { network: false, write: [] });
    expect((await ws.hookpm(['install', root, '--yes'])).code).toBe(0);
    root = await writePlugin('1.0.1', undefined);
    const run = await ws.hookpm(['install', root, '--json']);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { code: 'E_CONSENT_REQUIRED' } });
  });

  it('Z4: a linked plugin that declares capabilities runs confined, as a copy does', async () => {
    const root = await writePlugin('1.0.0', { network: false, write: [] });
    const link = await ws.hookpm(['install', '--link', root, '--yes']);
    expect(link.code, link.stderr).toBe(0);
    expect(await wireHome()).toBe('probe home: blocked EROFS');
    expect(existsSync(join(ws.home, 'pwned'))).toBe(false);
  });

  it('Z4: enable --confine confines an undeclared plugin, recorded with the consent; --confine off lifts it', async () => {
    const root = await writePlugin('1.0.0', undefined);
    expect((await ws.hookpm(['install', root, '--yes'])).code).toBe(0);
    const bad = await ws.hookpm(['enable', 'cap', '--confine', 'network=maybe', '--json']);
    expect(JSON.parse(bad.stdout)).toMatchObject({ error: { code: 'E_USAGE' } });

    const run = await ws.hookpm(['enable', 'cap', '--confine', 'network=false,write=data']);
    expect(run.code, run.stderr).toBe(0);
    expect(stateOf().plugins['cap@local']?.consent?.confine).toEqual({
      network: false,
      write: ['data'],
    });
    expect(await wireHome()).toBe('probe home: blocked EROFS');
    expect(existsSync(join(ws.home, 'pwned'))).toBe(false);
    expect((await ws.hookpm(['review', 'cap'])).stdout).toContain(
      'confined by you: network: none; writes: data (enable --confine)',
    );

    const lift = await ws.hookpm(['enable', 'cap', '--confine', 'off', '--json']);
    expect(JSON.parse(lift.stdout)).toMatchObject({ error: { code: 'E_CONSENT_REQUIRED' } });
    expect((await ws.hookpm(['enable', 'cap', '--confine', 'off', '--yes'])).code).toBe(0);
    expect(stateOf().plugins['cap@local']?.consent?.confine).toBeUndefined();
    expect(await wireHome()).toBe('probe home: DONE');
  });
});
