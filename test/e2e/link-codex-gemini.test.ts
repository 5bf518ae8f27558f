import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runBin } from '../helpers/built-bin.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';

// `hookpm link codex|gemini [--project]`, `unlink`, `link` alone and doctor, with the rules of
// `link claude`: only hookpm's handlers added, everything else kept byte for byte, idempotent,
// unlink exact, invalid files refused untouched.

const ws = useBinWorkspace('e2e-link-cg');

const hookpm = (args: string[], extra: Record<string, string> = {}, cwd = ws.repo) =>
  runBin(args, { cwd, env: ws.env(extra) });

async function json(args: string[], extra: Record<string, string> = {}) {
  const run = await hookpm([...args, '--json'], extra);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Record<string, any>;
}

const CODEX_HOOKS =
  '{\n  "description": "mine",\n  "hooks": {\n    "PreToolUse": [{"matcher": "^Bash$", "hooks": [{"type": "command", "command": "./mine.sh", "timeout": 5}]}]\n  }\n}\n';
const GEMINI_SETTINGS =
  '{\n  "ui": {"theme": "GitHub"},\n  "hooks": {\n    "enabled": true,\n    "disabled": ["old-hook"],\n    "BeforeTool": [{"matcher": "write_file", "hooks": [{"name": "mine", "type": "command", "command": "./mine.sh"}]}]\n  }\n}\n';

describe('hookpm link codex', () => {
  it('writes $CODEX_HOME/hooks.json (default ~/.codex): one handler per Codex event the engine has, the rest byte-kept; twice changes nothing; unlink restores the bytes', async () => {
    const file = join(ws.home, '.codex', 'hooks.json');
    await mkdir(join(ws.home, '.codex'), { recursive: true });
    await writeFile(file, CODEX_HOOKS);
    const linked = await json(['link', 'codex']);
    expect(linked).toMatchObject({
      agent: 'codex',
      scope: 'user',
      file,
      changed: true,
      eventsNotLinked: ['PostCompact', 'Interrupt'],
    });
    expect(linked['trustNote']).toMatch(/\/hooks/);
    const text = await readFile(file, 'utf8');
    const doc = JSON.parse(text) as { description: string; hooks: Record<string, any[]> };
    expect(doc.description).toBe('mine');
    expect(Object.keys(doc.hooks).sort()).toEqual(
      [
        'PermissionRequest',
        'PostToolUse',
        'PreCompact',
        'PreToolUse',
        'SessionEnd',
        'SessionStart',
        'Stop',
        'SubagentStart',
        'SubagentStop',
        'UserPromptSubmit',
      ].sort(),
    );
    expect(doc.hooks['PreToolUse']?.[0]).toEqual({
      matcher: '^Bash$',
      hooks: [{ type: 'command', command: './mine.sh', timeout: 5 }],
    });
    const run = `'${process.execPath}' '${BIN}' wire codex --deadline 600 --home '${join(ws.home, 'hookpm')}'`;
    expect(doc.hooks['Stop']?.[0].hooks[0]).toEqual({
      type: 'command',
      command: expect.stringContaining(`[ -f '${BIN}' ] && exec ${run}; case $(cat) in `),
      timeout: 600,
    });
    // Codex cuts a SessionEnd hook to 3 s (and warns about a longer one): link asks for 3.
    expect(doc.hooks['SessionEnd']?.[0].hooks[0].timeout).toBe(3);
    const mtime = (await stat(file)).mtimeMs;
    expect(await json(['link', 'codex'])).toMatchObject({ changed: false });
    expect((await stat(file)).mtimeMs).toBe(mtime);
    expect(await json(['unlink', 'codex'])).toMatchObject({ outcome: 'restored' });
    expect(await readFile(file, 'utf8')).toBe(CODEX_HOOKS);
  });

  it('CODEX_HOME moves the user file; --project edits <project root>/.codex/hooks.json from a subdirectory', async () => {
    const codexHome = join(ws.dir, `codex-home${ws.n}`);
    await json(['link', 'codex'], { CODEX_HOME: codexHome });
    expect(existsSync(join(codexHome, 'hooks.json'))).toBe(true);
    expect(existsSync(join(ws.home, '.codex'))).toBe(false);
    // A relative CODEX_HOME is read from where the command starts, as Codex reads it.
    await mkdir(join(ws.dir, `cwd${ws.n}`));
    await hookpm(['link', 'codex'], { CODEX_HOME: 'rel-codex' }, join(ws.dir, `cwd${ws.n}`));
    expect(existsSync(join(ws.dir, `cwd${ws.n}`, 'rel-codex', 'hooks.json'))).toBe(true);
    expect(existsSync(join(ws.home, '.codex'))).toBe(false);
    await mkdir(join(ws.repo, 'src'), { recursive: true });
    const run = await hookpm(['link', 'codex', '--project'], {}, join(ws.repo, 'src'));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(join(ws.repo, '.codex', 'hooks.json'));
    expect(run.stdout).toMatch(/trusted in Codex/);
    await hookpm(['unlink', 'codex', '--project']);
    expect(existsSync(join(ws.repo, '.codex', 'hooks.json'))).toBe(false);
  });

  it('a hooks.json with a trailing comma is refused with E_AGENT_SETTINGS by link and unlink, and left byte-identical', async () => {
    const file = join(ws.home, '.codex', 'hooks.json');
    await mkdir(join(ws.home, '.codex'), { recursive: true });
    const broken = '{"hooks": {"Stop": [],}}\n';
    await writeFile(file, broken);
    for (const verb of ['link', 'unlink']) {
      const run = await hookpm([verb, 'codex']);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain('E_AGENT_SETTINGS');
      expect(await readFile(file, 'utf8')).toBe(broken);
    }
  });

  it('the text output says which Codex events are not linked and what to do once in Codex', async () => {
    const run = await hookpm(['link', 'codex']);
    expect(run.stdout).toContain(
      "not linked (no such event in hookpm's engine): PostCompact, Interrupt",
    );
    expect(run.stdout).toMatch(/once: Codex runs new hooks only once you trust them/);
  });
});

describe('hookpm link gemini', () => {
  it("writes ~/.gemini/settings.json under Gemini CLI's event names, ms timeouts, keeps its hooks settings; unlink restores the bytes", async () => {
    const file = join(ws.home, '.gemini', 'settings.json');
    await mkdir(join(ws.home, '.gemini'), { recursive: true });
    await writeFile(file, GEMINI_SETTINGS);
    const linked = await json(['link', 'gemini']);
    expect(linked).toMatchObject({
      agent: 'gemini',
      changed: true,
      eventsNotLinked: ['BeforeModel', 'AfterModel', 'BeforeToolSelection'],
      trustNote: null,
    });
    expect(linked['events']).toEqual([
      'SessionStart',
      'BeforeAgent',
      'SessionEnd',
      'Notification',
      'BeforeTool',
      'AfterTool',
      'PreCompress',
      'AfterAgent',
    ]);
    const doc = JSON.parse(await readFile(file, 'utf8')) as { hooks: Record<string, any> };
    expect(doc.hooks['enabled']).toBe(true);
    expect(doc.hooks['disabled']).toEqual(['old-hook']);
    expect(doc.hooks['BeforeTool'][0].matcher).toBe('write_file');
    expect(doc.hooks['BeforeTool'][1].hooks[0].timeout).toBe(600_000);
    expect(await json(['link', 'gemini'])).toMatchObject({ changed: false });
    expect(await json(['unlink', 'gemini'])).toMatchObject({ outcome: 'restored' });
    expect(await readFile(file, 'utf8')).toBe(GEMINI_SETTINGS);
  });

  it('a settings.json with comments (which Gemini CLI allows) is refused with E_AGENT_SETTINGS and left byte-identical', async () => {
    const file = join(ws.home, '.gemini', 'settings.json');
    await mkdir(join(ws.home, '.gemini'), { recursive: true });
    const commented = '{\n  // my theme\n  "ui": {"theme": "GitHub"}\n}\n';
    await writeFile(file, commented);
    const run = await hookpm(['link', 'gemini', '--json']);
    expect(run.code).not.toBe(0);
    expect(run.stderr + run.stdout).toContain('E_AGENT_SETTINGS');
    expect(await readFile(file, 'utf8')).toBe(commented);
  });

  it('--project edits <project root>/.gemini/settings.json and says Gemini CLI runs project hooks only in a trusted folder; GEMINI_CLI_HOME moves the user file', async () => {
    const run = await hookpm(['link', 'gemini', '--project']);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(ws.repo, '.gemini', 'settings.json'))).toBe(true);
    expect(run.stdout).toMatch(/trusted folder/);
    const geminiHome = join(ws.dir, `gemini-home${ws.n}`);
    await json(['link', 'gemini'], { GEMINI_CLI_HOME: geminiHome });
    expect(existsSync(join(geminiHome, '.gemini', 'settings.json'))).toBe(true);
  });
});

describe('link alone and doctor see Codex and Gemini CLI', () => {
  it('link lists both agents at both scopes; doctor reports each link', async () => {
    await json(['link', 'codex']);
    await json(['link', 'gemini']);
    const links = (await json(['link'])) as {
      links: Array<{ agent: string; scope: string; state: string }>;
    };
    expect(links.links).toContainEqual(
      expect.objectContaining({ agent: 'codex', scope: 'user', state: 'linked' }),
    );
    expect(links.links).toContainEqual(
      expect.objectContaining({ agent: 'gemini', scope: 'user', state: 'linked' }),
    );
    expect(links.links).toContainEqual(
      expect.objectContaining({ agent: 'gemini', scope: 'project', state: 'unlinked' }),
    );
    const doctor = JSON.parse((await hookpm(['doctor', '--json'])).stdout) as {
      checks: Array<{ name: string; status: string }>;
    };
    expect(doctor.checks).toContainEqual(
      expect.objectContaining({ name: 'link:codex:user', status: 'ok' }),
    );
    expect(doctor.checks).toContainEqual(
      expect.objectContaining({ name: 'link:gemini:user', status: 'ok' }),
    );
  });

  it("agents.md Checking links: doctor warns of a Gemini CLI link whose hooksConfig turns hooks off, or skips hookpm's handler", async () => {
    await json(['link', 'gemini']);
    const file = join(ws.home, '.gemini', 'settings.json');
    const linked = JSON.parse(await readFile(file, 'utf8')) as { hooks: Record<string, any> };
    const command = linked.hooks['BeforeTool'][0].hooks[0].command as string;
    const gemini = async () =>
      (JSON.parse((await hookpm(['doctor', '--json'])).stdout) as { checks: any[] }).checks.find(
        (check) => check.name === 'link:gemini:user',
      );
    for (const [hooksConfig, says] of [
      [{ enabled: false }, '`hooksConfig.enabled` is false, so Gemini CLI runs no hook'],
      [{ disabled: ['mine', command] }, "`hooksConfig.disabled` lists hookpm's handler"],
    ] as const) {
      await writeFile(file, JSON.stringify({ ...linked, hooksConfig }));
      expect(await gemini()).toMatchObject({
        status: 'warning',
        code: 'link_hooks_off',
        message: expect.stringContaining(says),
      });
    }
    for (const hooksConfig of [{ enabled: true, disabled: ['mine'] }, { notifications: false }]) {
      await writeFile(file, JSON.stringify({ ...linked, hooksConfig }));
      expect(await gemini()).toMatchObject({ status: 'ok' });
    }
  });
});
