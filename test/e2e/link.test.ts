import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import {
  chmod,
  chown,
  mkdir,
  readFile,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, runBin } from '../helpers/built-bin.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { useBubblewrap } from '../helpers/bubblewrap.js';

// `hookpm link <agent> [--project]`, `unlink`, `link` alone, doctor's checks.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GUARD = join(ROOT, 'registry-fixtures', 'plugins', 'guard');

// guard declares capabilities: its handlers run under bubblewrap.
useBubblewrap();

const ws = useBinWorkspace('e2e-link', '.claude');

const hookpm = (args: string[], stdin?: string) => ws.hookpm(args, { stdin });

const claudeFile = () => join(ws.home, '.claude', 'settings.json');
const USER_SETTINGS =
  '{\n  "model": "opus",\n  "permissions": {"allow": ["Bash(ls)"]},\n  "hooks": {\n    "PreToolUse": [\n      {"matcher": "Bash", "hooks": [{"type": "command", "command": "./mine.sh"}]}\n    ]\n  }\n}\n';

async function linkJson(args: string[]) {
  const run = await hookpm([...args, '--json']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

describe('hookpm link claude / unlink claude', () => {
  it('link adds one handler per event and keeps every other key; linking twice changes nothing; unlink gives back the same bytes', async () => {
    await writeFile(claudeFile(), USER_SETTINGS);
    const linked = await linkJson(['link', 'claude']);
    expect(linked).toMatchObject({
      agent: 'claude',
      scope: 'user',
      file: claudeFile(),
      changed: true,
    });
    const text = await readFile(claudeFile(), 'utf8');
    const settings = JSON.parse(text) as {
      model: string;
      permissions: unknown;
      hooks: Record<string, unknown[]>;
    };
    expect(settings.model).toBe('opus');
    expect(settings.permissions).toEqual({ allow: ['Bash(ls)'] });
    expect(Object.keys(settings.hooks)).toHaveLength(12);
    expect(settings.hooks['PreToolUse']?.[0]).toEqual({
      matcher: 'Bash',
      hooks: [{ type: 'command', command: './mine.sh' }],
    });
    // The handler names node and hookpm by absolute path (no PATH needed) and hookpm's home, and
    // checks that both are there before it runs them (engine.md B9).
    const handler = (
      settings.hooks['Stop']?.[0] as { hooks: Array<{ command: string; timeout: number }> }
    ).hooks[0]!;
    const run = `'${process.execPath}' '${BIN}' wire claude --deadline 600 --home '${join(ws.home, 'hookpm')}'`;
    const checked = `[ -x '${process.execPath}' ] && [ -f '${BIN}' ] && exec ${run}; case $(cat) in `;
    expect(handler.command.slice(0, checked.length)).toBe(checked);
    expect(handler.timeout).toBe(600);
    // The backup holds the file as it was.
    expect(await readFile(linked['backup'] as string, 'utf8')).toBe(USER_SETTINGS);

    const mtime = (await stat(claudeFile())).mtimeMs;
    expect(await linkJson(['link', 'claude'])).toMatchObject({ changed: false, backup: null });
    expect(await readFile(claudeFile(), 'utf8')).toBe(text);
    expect((await stat(claudeFile())).mtimeMs).toBe(mtime);

    expect(await linkJson(['unlink', 'claude'])).toMatchObject({ outcome: 'restored' });
    expect(await readFile(claudeFile(), 'utf8')).toBe(USER_SETTINGS);
    expect(await linkJson(['unlink', 'claude'])).toMatchObject({ outcome: 'unchanged' });
  });

  it('no settings file before link: unlink leaves none', async () => {
    await linkJson(['link', 'claude']);
    expect(existsSync(claudeFile())).toBe(true);
    await linkJson(['unlink', 'claude']);
    expect(existsSync(claudeFile())).toBe(false);
  });

  it('agents.md What link writes: an empty settings file (`touch`, or white space only) is linked as `{}` is; unlink leaves `{}` (an empty backup may be torn, and is never restored)', async () => {
    for (const empty of ['', ' \n', '\ufeff\r\n']) {
      await writeFile(claudeFile(), empty);
      expect(await linkJson(['link', 'claude'])).toMatchObject({ changed: true });
      const text = await readFile(claudeFile(), 'utf8');
      expect(text.startsWith('\ufeff')).toBe(empty.startsWith('\ufeff'));
      const settings = JSON.parse(text.replace(/^\ufeff/, '')) as { hooks: object };
      expect(Object.keys(settings)).toEqual(['hooks']);
      expect(Object.keys(settings.hooks)).toHaveLength(12);
      const doctor = await hookpm(['doctor', '--json']);
      expect(doctor.stdout).toContain('"link:claude:user"');
      expect(doctor.stdout).not.toContain('link_unreadable');
      expect(await linkJson(['unlink', 'claude'])).toMatchObject({ outcome: 'edited' });
      const left = await readFile(claudeFile(), 'utf8');
      expect(left.startsWith('\ufeff')).toBe(empty.startsWith('\ufeff'));
      expect(JSON.parse(left.replace(/^\ufeff/, ''))).toEqual({});
    }
  });

  it("agents.md Unlink: no project directory before link --project: unlink leaves none, and keeps one the user's files went into", async () => {
    const dir = join(ws.repo, '.claude');
    await linkJson(['link', 'claude', '--project']);
    expect(existsSync(join(dir, 'settings.json'))).toBe(true);
    await linkJson(['unlink', 'claude', '--project']);
    expect(existsSync(dir)).toBe(false);
    await linkJson(['link', 'claude', '--project']);
    await writeFile(join(dir, 'settings.local.json'), '{}\n');
    await linkJson(['unlink', 'claude', '--project']);
    expect(readdirSync(dir)).toEqual(['settings.local.json']);
  });

  it('a file edited after link loses only hookpm handlers at unlink, and keeps the edit', async () => {
    await writeFile(claudeFile(), USER_SETTINGS);
    await linkJson(['link', 'claude']);
    const edited = (await readFile(claudeFile(), 'utf8')).replace('"opus"', '"sonnet"');
    await writeFile(claudeFile(), edited);
    expect(await linkJson(['unlink', 'claude'])).toMatchObject({ outcome: 'edited' });
    expect(await readFile(claudeFile(), 'utf8')).toBe(USER_SETTINGS.replace('"opus"', '"sonnet"'));
  });

  it("a file edited after link keeps the hooks containers it had before link, emptied: an empty `hooks` and event list are the user's", async () => {
    const own = '{\n  "model": "opus",\n  "hooks": {\n    "Stop": []\n  }\n}\n';
    await writeFile(claudeFile(), own);
    await linkJson(['link', 'claude']);
    const edited = (await readFile(claudeFile(), 'utf8')).replace('"opus"', '"sonnet"');
    await writeFile(claudeFile(), edited);
    expect(await linkJson(['unlink', 'claude'])).toMatchObject({ outcome: 'edited' });
    expect(await readFile(claudeFile(), 'utf8')).toBe(own.replace('"opus"', '"sonnet"'));
    // Without an event list of its own, the `hooks` the user had stays, empty.
    const bare = '{\n  "model": "opus",\n  "hooks": {}\n}\n';
    await writeFile(claudeFile(), bare);
    await linkJson(['link', 'claude']);
    await writeFile(
      claudeFile(),
      (await readFile(claudeFile(), 'utf8')).replace('"opus"', '"haiku"'),
    );
    await linkJson(['unlink', 'claude']);
    expect(await readFile(claudeFile(), 'utf8')).toBe(bare.replace('"opus"', '"haiku"'));
  });

  it.each([
    ['a trailing comma', '{\n  "model": "opus",\n}\n'],
    ['a comment', '{\n  // my model\n  "model": "opus"\n}\n'],
    ['a duplicate key', '{"model": "opus", "model": "sonnet"}'],
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])],
  ])(
    'a file with %s is refused with E_AGENT_SETTINGS and left byte-identical, by link and unlink',
    async (_name, content) => {
      await writeFile(claudeFile(), content);
      const before = await readFile(claudeFile());
      for (const verb of ['link', 'unlink']) {
        const run = await hookpm([verb, 'claude']);
        expect(run.code).toBe(1);
        expect(run.stderr).toContain('error[E_AGENT_SETTINGS]');
        expect(run.stderr).toContain(claudeFile());
        expect((await readFile(claudeFile())).equals(before)).toBe(true);
      }
      expect(existsSync(join(ws.home, 'hookpm', 'data', 'links'))).toBe(false);
    },
  );

  it('--project edits <project root>/.claude/settings.json from a subdirectory, and not the user file', async () => {
    await writeFile(claudeFile(), USER_SETTINGS);
    await mkdir(join(ws.repo, 'src', 'deep'), { recursive: true });
    const run = await runBin(['link', 'claude', '--project', '--json'], {
      cwd: join(ws.repo, 'src', 'deep'),
      env: ws.env(),
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      scope: 'project',
      file: join(ws.repo, '.claude', 'settings.json'),
    });
    expect(await readFile(claudeFile(), 'utf8')).toBe(USER_SETTINGS);
    const list = (await linkJson(['link'])) as {
      links: Array<{ agent: string; scope: string; state: string }>;
    };
    expect(list.links.map((l) => [l.agent, l.scope, l.state])).toEqual([
      ['claude', 'user', 'unlinked'],
      ['claude', 'project', 'linked'],
      ['deepagents', 'user', 'unlinked'],
      ['deepagents', 'project', 'unlinked'],
      ['codex', 'user', 'unlinked'],
      ['codex', 'project', 'unlinked'],
      ['gemini', 'user', 'unlinked'],
      ['gemini', 'project', 'unlinked'],
    ]);
    await linkJson(['unlink', 'claude', '--project']);
    expect(existsSync(join(ws.repo, '.claude', 'settings.json'))).toBe(false);
  });

  it('a settings file that is a symlink (a dotfiles repository) stays a link; its target is edited', async () => {
    const dotfiles = join(ws.home, 'dotfiles');
    await mkdir(dotfiles);
    await writeFile(join(dotfiles, 'claude.json'), USER_SETTINGS);
    await symlink(join(dotfiles, 'claude.json'), claudeFile());
    await linkJson(['link', 'claude']);
    expect(lstatSync(claudeFile()).isSymbolicLink()).toBe(true);
    expect(await readFile(join(dotfiles, 'claude.json'), 'utf8')).toContain('wire claude');
    await linkJson(['unlink', 'claude']);
    expect(lstatSync(claudeFile()).isSymbolicLink()).toBe(true);
    expect(await readFile(join(dotfiles, 'claude.json'), 'utf8')).toBe(USER_SETTINGS);
  });

  it('a settings file, or its folder, that is a symlink leading to nothing is refused by link and unlink, naming the symlink; nothing is created', async () => {
    const gone = join(ws.home, 'dotfiles', 'claude.json');
    await symlink(gone, claudeFile());
    for (const command of ['link', 'unlink']) {
      const run = await hookpm([command, 'claude']);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `error[E_IO]: cannot read ${claudeFile()}: it is a symlink to ${gone}, which leads to nothing`,
      );
      expect(run.stderr).toContain('Create what the symlink leads to, or remove the symlink');
    }
    await rm(join(ws.home, '.claude'), { recursive: true });
    await symlink(join(ws.home, 'dotfiles', 'claude'), join(ws.home, '.claude'));
    const run = await hookpm(['link', 'claude']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${join(ws.home, '.claude')} is a symlink to`);
    expect(existsSync(join(ws.home, 'dotfiles'))).toBe(false);
    expect(existsSync(join(ws.home, 'hookpm', 'data', 'links'))).toBe(false);
  });

  it('a ~/.claude that is a file is refused by link, unlink and doctor, naming it with a fix; it is left as it is', async () => {
    await rm(join(ws.home, '.claude'), { recursive: true });
    await writeFile(join(ws.home, '.claude'), 'mine\n');
    const refusal = `cannot read ${claudeFile()}: ${join(ws.home, '.claude')} is not a directory`;
    for (const command of ['link', 'unlink']) {
      const run = await hookpm([command, 'claude']);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`error[E_IO]: ${refusal}`);
      expect(run.stderr).toContain(`Move ${join(ws.home, '.claude')} away`);
    }
    expect((await hookpm(['doctor'])).stdout).toContain(refusal);
    expect(await readFile(join(ws.home, '.claude'), 'utf8')).toBe('mine\n');
  });

  it('a CRLF settings file keeps its own line ends: link writes CRLF only, unlink gives back the same bytes', async () => {
    const crlf = Buffer.from(USER_SETTINGS.replaceAll('\n', '\r\n'));
    await writeFile(claudeFile(), crlf);
    await linkJson(['link', 'claude']);
    const linked = await readFile(claudeFile(), 'utf8');
    expect(linked).toContain('wire claude');
    expect(linked).not.toMatch(/(?<!\r)\n/);
    expect(await linkJson(['unlink', 'claude'])).toMatchObject({ outcome: 'restored' });
    expect((await readFile(claudeFile())).equals(crlf)).toBe(true);
  });

  it('a read-only (0444) settings file is refused with E_AGENT_SETTINGS by link and unlink, before any backup, and left byte-identical', async () => {
    // Tests run as root, whom access(W_OK) never refuses: the mode bits decide.
    const backups = join(ws.home, 'hookpm', 'data', 'links', 'backups');
    const refused = async (verb: string) => {
      const before = await readFile(claudeFile());
      const kept = existsSync(backups) ? readdirSync(backups) : null;
      const run = await hookpm([verb, 'claude']);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('error[E_AGENT_SETTINGS]');
      expect(run.stderr).toContain(`${claudeFile()} is read-only (mode 444)`);
      expect((await readFile(claudeFile())).equals(before)).toBe(true);
      expect((await stat(claudeFile())).mode & 0o777).toBe(0o444);
      expect(existsSync(backups) ? readdirSync(backups) : null).toEqual(kept);
    };
    await writeFile(claudeFile(), USER_SETTINGS);
    await chmod(claudeFile(), 0o444);
    await refused('link');
    await chmod(claudeFile(), 0o644);
    await linkJson(['link', 'claude']);
    await chmod(claudeFile(), 0o444);
    // A link already there needs no write: not refused.
    expect(await linkJson(['link', 'claude'])).toMatchObject({ changed: false });
    await refused('unlink');
  });

  it("agents.md What link writes: a settings file of another user's, linked and unlinked by root (sudo), keeps its owner, group and mode", async () => {
    // Tests run as root: hookpm replaces the file with one it writes, which would be root's.
    await writeFile(claudeFile(), USER_SETTINGS);
    await chown(claudeFile(), 1234, 1235);
    await chmod(claudeFile(), 0o600);
    const owned = async () => {
      const info = await stat(claudeFile());
      return { uid: info.uid, gid: info.gid, mode: info.mode & 0o7777 };
    };
    expect(await linkJson(['link', 'claude'])).toMatchObject({ changed: true });
    expect(await owned()).toEqual({ uid: 1234, gid: 1235, mode: 0o600 });
    expect(await linkJson(['unlink', 'claude'])).toMatchObject({ outcome: 'restored' });
    expect(await owned()).toEqual({ uid: 1234, gid: 1235, mode: 0o600 });
  });

  it('no settings file before link, then the file moved to a dotfiles repository and symlinked back: unlink keeps the target and the link, with only hookpm handlers gone', async () => {
    const dotfiles = join(ws.home, 'dotfiles');
    const moved = join(dotfiles, 'claude.json');
    await mkdir(dotfiles);
    await linkJson(['link', 'claude']);
    await rename(claudeFile(), moved);
    await symlink(moved, claudeFile());
    expect(await linkJson(['unlink', 'claude'])).toMatchObject({ outcome: 'edited' });
    expect(lstatSync(claudeFile()).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(moved, 'utf8'))).toEqual({});
    // The user's keys added since survive the next link and unlink, through the link.
    await writeFile(moved, '{\n  "model": "opus"\n}\n');
    await linkJson(['link', 'claude']);
    expect(await readFile(moved, 'utf8')).toContain('wire claude');
    expect(await linkJson(['unlink', 'claude'])).toMatchObject({ outcome: 'restored' });
    expect(lstatSync(claudeFile()).isSymbolicLink()).toBe(true);
    expect(await readFile(moved, 'utf8')).toBe('{\n  "model": "opus"\n}\n');
  });

  it('D2: a link killed at any instant leaves the old file or the new one, never a torn one', async () => {
    await writeFile(claudeFile(), USER_SETTINGS);
    await linkJson(['link', 'claude']);
    const linkedText = await readFile(claudeFile(), 'utf8');
    await linkJson(['unlink', 'claude']);
    const seen = new Set<string>();
    const within = <T>(what: string, p: Promise<T>) =>
      Promise.race([
        p,
        new Promise<never>((_, no) => setTimeout(() => no(new Error(`stuck: ${what}`)), 15_000)),
      ]);
    for (let i = 0; i < 24; i++) {
      const verb = i % 2 === 0 ? 'link' : 'unlink';
      const child = spawn(process.execPath, [BIN, verb, 'claude'], {
        cwd: ws.repo,
        env: ws.env(),
        stdio: 'ignore',
      });
      const closed = new Promise((r) => child.on('close', r));
      // Spread over the run: start-up, reading, the backup, the write, the record.
      await new Promise((r) => setTimeout(r, 60 + ((i * 23) % 120)));
      child.kill('SIGKILL');
      await within(`close ${i}`, closed);
      const now = await readFile(claudeFile(), 'utf8');
      expect([USER_SETTINGS, linkedText]).toContain(now);
      seen.add(now === USER_SETTINGS ? 'old' : 'new');
      // Whatever was left, the next run completes (the store lock of a killed run is taken over).
      const done = await within(`run ${i}`, hookpm([verb, 'claude']));
      expect(done.code).toBe(0);
    }
    // Kills landed both before and after the rename.
    expect(seen).toEqual(new Set(['old', 'new']));
  }, 120_000);

  it('doctor reports each link, and a link left pointing at a hookpm that moved; link repairs it', async () => {
    await linkJson(['link', 'claude']);
    let report = (await hookpm(['doctor', '--json'])).stdout;
    expect(JSON.parse(report).checks).toContainEqual(
      expect.objectContaining({ name: 'link:claude:user', status: 'ok' }),
    );
    const moved = (await readFile(claudeFile(), 'utf8')).replaceAll(
      BIN.replaceAll('/', '\\/').replaceAll('\\/', '/'),
      join(ws.dir, 'gone', 'bin', 'hookpm.js'),
    );
    await writeFile(claudeFile(), moved);
    const list = (await linkJson(['link'])) as {
      links: Array<{ scope: string; agent: string; state: string; problem: string }>;
    };
    expect(list.links[0]).toMatchObject({ agent: 'claude', scope: 'user', state: 'moved' });
    const doctor = await hookpm(['doctor', '--json']);
    expect(doctor.code).toBe(1);
    report = doctor.stdout;
    expect(JSON.parse(report).checks).toContainEqual(
      expect.objectContaining({
        name: 'link:claude:user',
        status: 'error',
        code: 'link_moved',
        fix: 'Run `hookpm link claude` with the hookpm you use now.',
      }),
    );
    expect(await linkJson(['link', 'claude'])).toMatchObject({ changed: true });
    expect(
      ((await linkJson(['link'])) as { links: Array<{ state: string }> }).links[0]?.state,
    ).toBe('linked');
  });

  it('doctor: a link this hookpm made for another store says so, naming both stores, not another hookpm', async () => {
    await linkJson(['link', 'claude']);
    const linked = (await readFile(claudeFile(), 'utf8')).match(/--home '([^']*)'/)?.[1];
    expect(linked).toBeDefined();
    const other = join(ws.dir, 'other-home');
    const doctor = await hookpm(['doctor', '--json', '--home', other]);
    expect(JSON.parse(doctor.stdout).checks).toContainEqual(
      expect.objectContaining({
        name: 'link:claude:user',
        status: 'warning',
        code: 'link_other',
        message: expect.stringContaining(
          `runs this hookpm on another store (--home ${linked}), not the one this command reads (--home ${other})`,
        ),
      }),
    );
  });

  it('security.md: a link whose hookpm path is 200 KB long is reported by doctor and `link` quoting its first 200 characters', async () => {
    const gone = `/${'x'.repeat(200_000)}`;
    const command = `'${process.execPath}' '${gone}' wire claude --deadline 600`;
    await writeFile(
      claudeFile(),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command }] }] } }),
    );
    const doctor = await hookpm(['doctor']);
    expect(doctor.stdout).toContain(`the handler runs ${gone.slice(0, 200)}... with`);
    const listed = await hookpm(['link']);
    expect(listed.stdout).toContain(`the handler runs ${gone.slice(0, 200)}... with`);
    for (const run of [doctor, listed])
      expect(run.stdout.length + run.stderr.length).toBeLessThan(20_000);
  });

  it('W1: doctor warns of a link an earlier hookpm wrote without --deadline; link rewrites it with one', async () => {
    await linkJson(['link', 'claude']);
    const text = await readFile(claudeFile(), 'utf8');
    expect(text).toMatch(/ wire claude --deadline 600/);
    await writeFile(claudeFile(), text.replaceAll(' --deadline 600', ''));
    const doctor = await hookpm(['doctor', '--json']);
    expect(JSON.parse(doctor.stdout).checks).toContainEqual(
      expect.objectContaining({
        name: 'link:claude:user',
        status: 'warning',
        code: 'link_no_deadline',
        fix: 'Run `hookpm link claude` to write the deadline.',
      }),
    );
    expect(await linkJson(['link', 'claude'])).toMatchObject({ changed: true });
    expect(await readFile(claudeFile(), 'utf8')).toMatch(/ wire claude --deadline 600/);
    expect(JSON.parse((await hookpm(['doctor', '--json'])).stdout).checks).toContainEqual(
      expect.objectContaining({ name: 'link:claude:user', status: 'ok' }),
    );
  });

  it('engine.md B9: doctor warns of a bare link an earlier hookpm wrote, which fails open when hookpm is gone (link_unchecked); link rewrites it checked', async () => {
    await linkJson(['link', 'claude']);
    const text = await readFile(claudeFile(), 'utf8');
    const settings = JSON.parse(text) as {
      hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>;
    };
    for (const groups of Object.values(settings.hooks))
      for (const handler of groups[0]!.hooks) {
        const { command } = handler;
        handler.command = command.slice(command.indexOf('exec ') + 5, command.indexOf('; case '));
      }
    await writeFile(claudeFile(), JSON.stringify(settings));
    expect(JSON.parse((await hookpm(['doctor', '--json'])).stdout).checks).toContainEqual(
      expect.objectContaining({
        name: 'link:claude:user',
        status: 'warning',
        code: 'link_unchecked',
        fix: 'Run `hookpm link claude` to write the checked command.',
      }),
    );
    expect(await linkJson(['link', 'claude'])).toMatchObject({ changed: true });
    expect(JSON.parse(await readFile(claudeFile(), 'utf8'))).toEqual(JSON.parse(text));
    expect(JSON.parse((await hookpm(['doctor', '--json'])).stdout).checks).toContainEqual(
      expect.objectContaining({ name: 'link:claude:user', status: 'ok' }),
    );
  });

  it("agents.md: a link handler put in a group with a matcher sees some calls only: doctor says partial, link moves it to a group of its own, the user's handler stays", async () => {
    await linkJson(['link', 'claude']);
    const linked = JSON.parse(await readFile(claudeFile(), 'utf8')) as {
      hooks: Record<string, Array<{ matcher?: string; hooks: unknown[] }>>;
    };
    const mine = { type: 'command', command: './mine.sh' };
    const handler = linked.hooks['PreToolUse']![0]!.hooks[0];
    linked.hooks['PreToolUse'] = [{ matcher: 'Bash', hooks: [handler, mine] }];
    await writeFile(claudeFile(), `${JSON.stringify(linked, null, 2)}\n`);
    const list = (await linkJson(['link'])) as {
      links: Array<{ state: string; missing: string[] }>;
    };
    expect(list.links[0]).toMatchObject({ state: 'partial', missing: ['PreToolUse'] });
    expect(await linkJson(['link', 'claude'])).toMatchObject({ changed: true });
    const relinked = JSON.parse(await readFile(claudeFile(), 'utf8')) as typeof linked;
    expect(relinked.hooks['PreToolUse']).toEqual([
      { matcher: 'Bash', hooks: [mine] },
      { hooks: [handler] },
    ]);
    expect(
      ((await linkJson(['link'])) as { links: Array<{ state: string }> }).links[0]?.state,
    ).toBe('linked');
  });

  it('agents.md Checking links: a link handler the agent runs in the background (`async: true`, or the `--background` entry alone) decides nothing: doctor says partial, link restores the foreground one', async () => {
    await linkJson(['link', 'claude']);
    const linked = JSON.parse(await readFile(claudeFile(), 'utf8')) as {
      hooks: Record<string, Array<{ hooks: Array<{ command: string; async?: boolean }> }>>;
    };
    const foreground = linked.hooks['PreToolUse']![0]!.hooks[0]!;
    // PreToolUse: only a background entry; Stop: the foreground entry marked async.
    linked.hooks['PreToolUse']![0]!.hooks[0] = {
      ...foreground,
      // The bare run, as an earlier hookpm wrote it, made the background entry.
      command: foreground.command
        .slice(foreground.command.indexOf('exec ') + 5, foreground.command.indexOf('; case '))
        .replace(' wire claude ', ' wire claude --background '),
      async: true,
    };
    linked.hooks['Stop']![0]!.hooks[0] = { ...linked.hooks['Stop']![0]!.hooks[0]!, async: true };
    await writeFile(claudeFile(), `${JSON.stringify(linked, null, 2)}\n`);
    const list = (await linkJson(['link'])) as {
      links: Array<{ state: string; missing: string[] }>;
    };
    expect(list.links[0]).toMatchObject({ state: 'partial', missing: ['PreToolUse', 'Stop'] });
    const doctor = JSON.parse((await hookpm(['doctor', '--json'])).stdout) as {
      checks: Array<Record<string, unknown>>;
    };
    expect(doctor.checks).toContainEqual(
      expect.objectContaining({ name: 'link:claude:user', code: 'link_partial' }),
    );
    expect(await linkJson(['link', 'claude'])).toMatchObject({ changed: true });
    expect(
      ((await linkJson(['link'])) as { links: Array<{ state: string }> }).links[0]?.state,
    ).toBe('linked');
  });

  it('agents.md: doctor warns of a link in a settings file whose disableAllHooks is true, where no plugin runs', async () => {
    await linkJson(['link', 'claude']);
    const linked = JSON.parse(await readFile(claudeFile(), 'utf8')) as Record<string, unknown>;
    await writeFile(claudeFile(), JSON.stringify({ ...linked, disableAllHooks: true }));
    const doctor = JSON.parse((await hookpm(['doctor', '--json'])).stdout) as {
      checks: Array<Record<string, unknown>>;
    };
    expect(doctor.checks).toContainEqual(
      expect.objectContaining({
        name: 'link:claude:user',
        status: 'warning',
        code: 'link_hooks_off',
        message: expect.stringContaining('`disableAllHooks` is true, so Claude Code runs no hook'),
      }),
    );
    const list = (await linkJson(['link'])) as { links: Array<Record<string, unknown>> };
    expect(list.links[0]).toMatchObject({ state: 'linked', hooksOff: expect.any(String) });
    await writeFile(claudeFile(), JSON.stringify({ ...linked, disableAllHooks: false }));
    expect(JSON.parse((await hookpm(['doctor', '--json'])).stdout).checks).toContainEqual(
      expect.objectContaining({ name: 'link:claude:user', status: 'ok' }),
    );
  });

  it('an unknown agent is a usage error with a suggestion', async () => {
    const run = await hookpm(['link', 'Claude']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Did you mean claude?');
  });
});

describe('hookpm link deepagents', () => {
  it('S1: `hookpm run` with the linked ~/.deepagents/hooks.json runs each plugin once and the user hook once', async () => {
    const log = join(ws.dir, `log${ws.n}`);
    await mkdir(join(ws.home, '.deepagents'), { recursive: true });
    await writeFile(
      join(ws.home, '.deepagents', 'hooks.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: `echo user >> '${log}'` }] },
          ],
        },
      }),
    );
    expect((await hookpm(['install', GUARD, '--yes'])).code).toBe(0);
    await linkJson(['link', 'deepagents']);
    const payload = JSON.stringify({
      tool_name: 'Bash',
      tool_input: { command: 'git push --force origin main' },
    });
    const run = await hookpm(['run', 'PreToolUse', '--payload', '-', '--json'], payload);
    const result = JSON.parse(run.stdout) as {
      runs: Array<{ origin: string; plugin: string | null }>;
      permission: { decision: string };
    };
    expect(result.runs.map((r) => [r.origin, r.plugin])).toEqual([
      ['user', null],
      ['plugin', 'guard@local'],
    ]);
    expect(result.permission.decision).toBe('deny');
    expect(await readFile(log, 'utf8')).toBe('user\n');
    await rm(log);
  });
});
