import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/built-bin.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { useBubblewrap } from '../helpers/bubblewrap.js';
import { claudeBashPayload } from '../helpers/claude-payload.js';

// registry.md D7: a file hookpm reads that is a FIFO or a device (here a symlink to /dev/zero) is
// refused at once with a clear message: no command waits on it or reads it without end. Each
// command runs with a time limit; before the rule, `link`, `doctor`, `log` and `stats` hung.

const GUARD = fileURLToPath(new URL('../../registry-fixtures/plugins/guard', import.meta.url));
const FORCE_PUSH = 'git push --force origin main';
/** Far above what any of these commands takes (about a second), far below a hang. */
const LIMIT_MS = 15_000;

// guard declares capabilities: its handlers run under bubblewrap.
useBubblewrap();

const ws = useBinWorkspace('e2e-special-files', '.claude');

interface LimitedRun {
  code: number | null;
  /** Set when the run was killed at LIMIT_MS. */
  killed: boolean;
  stdout: string;
  stderr: string;
  ms: number;
}

/** `hookpm ...args` in the repository, killed (and marked so) if it runs past LIMIT_MS. */
function hookpm(args: string[], stdin = ''): Promise<LimitedRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ws.repo, env: ws.env() });
    let stdout = '';
    let stderr = '';
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, LIMIT_MS);
    child.on('error', reject);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, killed, stdout, stderr, ms: performance.now() - started });
    });
  });
}

/** The PreToolUse payload Claude Code sends for a Bash command. */
const bash = (command: string) => claudeBashPayload(ws, `s${ws.n}`, command);

/** Guard installed, Claude Code linked, and one linked event logged. */
async function linkedGuard(): Promise<void> {
  for (const args of [
    ['install', GUARD, '--yes'],
    ['link', 'claude'],
  ]) {
    const run = await hookpm(args);
    expect(run.code, run.stderr).toBe(0);
  }
  expect(denies(await hookpm(['wire', 'claude'], bash(FORCE_PUSH)))).toBe(true);
}

function denies(run: LimitedRun): boolean {
  if (run.code !== 0 || run.stdout === '') return false;
  const out = JSON.parse(run.stdout) as { hookSpecificOutput?: { permissionDecision?: string } };
  return out.hookSpecificOutput?.permissionDecision === 'deny';
}

const files = {
  "Claude Code's settings": () => join(ws.home, '.claude', 'settings.json'),
  'the decision log': () => join(ws.home, 'hookpm', 'data', 'log', 'dispatch.jsonl'),
  'the state': () => join(ws.home, 'hookpm', 'data', 'state.json'),
  "hookpm's settings.json": () => join(ws.home, 'hookpm', 'config', 'settings.json'),
};
type Which = keyof typeof files;

const kinds = {
  FIFO: (file: string) => expect(spawnSync('mkfifo', [file]).status).toBe(0),
  'symlink to /dev/zero': (file: string) => symlinkSync('/dev/zero', file),
};
type Kind = keyof typeof kinds;

/** What a refusal says of the file: a FIFO is named, a link to /dev/zero is a link or a device. */
const says = (kind: Kind, followed: boolean) =>
  kind === 'FIFO'
    ? 'is a FIFO, not a regular file'
    : followed
      ? 'is a character device, not a regular file'
      : 'is a symbolic link';

const cases = (Object.keys(files) as Which[]).flatMap((which) =>
  (Object.keys(kinds) as Kind[]).map((kind) => [which, kind] as const),
);

describe.runIf(process.platform === 'linux')('files that are not regular files (D7)', () => {
  it.each(cases)(
    'D7: with %s a %s, link, link status, doctor, log, stats and wire each end within the limit, refusing the file clearly',
    async (which, kind) => {
      await linkedGuard();
      const file = files[which]();
      rmSync(file, { force: true });
      mkdirSync(dirname(file), { recursive: true });
      kinds[kind](file);

      const runs = {
        link: await hookpm(['link', 'claude']),
        status: await hookpm(['link']),
        doctor: await hookpm(['doctor']),
        log: await hookpm(['log']),
        stats: await hookpm(['stats']),
        wire: await hookpm(['wire', 'claude'], bash(FORCE_PUSH)),
      };
      for (const [name, run] of Object.entries(runs)) {
        expect(run.killed, `${name} hung: ${run.stderr}`).toBe(false);
        expect(run.ms, name).toBeLessThan(LIMIT_MS);
        expect(run.stderr, name).not.toContain('E_INTERNAL');
      }

      if (which === "Claude Code's settings") {
        // The user's file is followed (a dotfiles link), so /dev/zero is named as a device.
        expect(runs.link.code).not.toBe(0);
        expect(runs.link.stderr).toContain('error[E_IO]');
        expect(runs.link.stderr).toContain(says(kind, true));
        expect(runs.status.stdout).toMatch(/claude\s+user\s+cannot read/);
        expect(runs.doctor.stdout).toContain(says(kind, true));
      } else if (which === 'the decision log') {
        for (const run of [runs.log, runs.stats]) {
          expect(run.code).not.toBe(0);
          expect(run.stderr).toContain('error[E_IO]');
          expect(run.stderr).toContain(says(kind, false));
        }
        expect(runs.doctor.stdout).toContain(says(kind, false));
      } else if (which === 'the state') {
        expect(runs.doctor.stdout).toContain(`state.json cannot be read (it ${says(kind, false)}`);
      } else {
        expect(runs.status.code).toBe(0);
      }
      // Guard still decides wherever its own files are intact.
      if (which !== 'the state') expect(denies(runs.wire), runs.wire.stderr).toBe(true);
    },
    120_000,
  );

  it('D7: a dispatch.jsonl that is a symlink to a file elsewhere is never appended through; log refuses it', async () => {
    await linkedGuard();
    const log = files['the decision log']();
    const elsewhere = join(ws.dir, `elsewhere-${ws.n}.txt`);
    writeFileSync(elsewhere, 'not the log\n');
    rmSync(log);
    symlinkSync(elsewhere, log);
    expect(denies(await hookpm(['wire', 'claude'], bash(FORCE_PUSH)))).toBe(true);
    expect(readFileSync(elsewhere, 'utf8')).toBe('not the log\n');
    const read = await hookpm(['log']);
    expect(read.code).not.toBe(0);
    expect(read.stderr).toContain('dispatch.jsonl: it is a symbolic link');
  }, 60_000);

  it('D7: log and stats skip lines that are not log entries (bad JSON, wrong field types) and count them, never E_INTERNAL', async () => {
    await linkedGuard();
    const entry = {
      v: 1,
      time: '2026-01-01T00:00:00.000Z',
      event: 'PreToolUse',
      source: 'run',
      session: null,
      snapshot: 'x',
      decision: null,
    };
    const damaged = [
      'not json',
      '{"v":1,"time":"x","event":"PreToolUse","runs":[1]}',
      JSON.stringify({ ...entry, runs: [null] }),
      JSON.stringify({ ...entry, runs: [{ plugin: 5, origin: [], handler: {}, ms: 'x' }] }),
      JSON.stringify({ ...entry, time: 7, runs: [] }),
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
    ];
    appendFileSync(files['the decision log'](), `${damaged.join('\n')}\n`);
    const log = await hookpm(['log']);
    expect(log.code, log.stderr).toBe(0);
    expect(log.stdout).toContain('guard@local');
    expect(log.stdout).toContain(`(${damaged.length} damaged line(s) skipped)`);
    const stats = await hookpm(['stats']);
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.stdout).toContain('1 dispatch(es) logged');
    expect(stats.stdout).toContain(`(${damaged.length} damaged line(s) skipped)`);
    for (const args of [
      ['log', '--json'],
      ['stats', '--json'],
    ]) {
      const run = await hookpm(args);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ damaged: damaged.length });
    }
  }, 60_000);
});

describe.runIf(process.platform === 'linux')(
  'a local registry whose files are not regular files (D7)',
  () => {
    /** The files of a built local registry that an install reads, by what they are. */
    const targets = {
      'plugin document': () => join('plugins', 'gu', 'guard.json'),
      tarball: (reg: string) => join('tarballs', readdirSync(join(reg, 'tarballs'))[0] ?? ''),
    };
    type Target = keyof typeof targets;
    // Each file with one kind of special file: the reading code is the same for both files (and
    // the other kind), and each case builds, adds and installs from a registry of its own.
    const registryCases: ReadonlyArray<readonly [Target, Kind]> = [
      ['plugin document', 'FIFO'],
      ['tarball', 'symlink to /dev/zero'],
    ];

    it.each(registryCases)(
      'D7: with its %s a %s, install is E_IO saying what the file is, within the limit; the regular file installs',
      async (target, kind) => {
        const src = join(ws.dir, `src-${ws.n}`);
        const reg = join(ws.dir, `reg-${ws.n}`);
        cpSync(GUARD, join(src, 'guard'), { recursive: true });
        for (const args of [
          ['registry', 'build', src, '--out', reg],
          ['registry', 'add', 'loc', reg],
        ]) {
          const run = await hookpm(args);
          expect(run.code, run.stderr).toBe(0);
        }
        const file = join(reg, targets[target](reg));
        const bytes = readFileSync(file);
        rmSync(file);
        kinds[kind](file);

        const refused = await hookpm(['install', 'guard@loc', '--yes']);
        expect(refused.killed, `install hung: ${refused.stderr}`).toBe(false);
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toContain('error[E_IO]');
        // A local registry's files are the user's: a link is followed and its end named.
        expect(refused.stderr).toContain(`${file}: it ${says(kind, true)}`);

        rmSync(file);
        writeFileSync(file, bytes);
        const installed = await hookpm(['install', 'guard@loc', '--yes']);
        expect(installed.code, installed.stderr).toBe(0);
      },
      60_000,
    );
  },
);
