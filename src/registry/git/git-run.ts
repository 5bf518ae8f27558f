import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { redact } from '../../errors.js';
import { letGoAfterExit } from '../../io/after-exit-read.js';

/** What one git command did. */
export type GitOutcome = { ok: true; stdout: string } | { ok: false; reason: string };

/** What every git command hookpm runs shares: an environment that can never prompt, and a deadline. */
export interface GitContext {
  env: Record<string, string | undefined>;
  /** Milliseconds since the epoch after which git is killed. */
  deadline: number;
}

/**
 * What one command is watched for while it runs: each piece of its stdout (`output`, which then
 * also gets what passes OUTPUT_CAP), and a check every WATCH_EVERY_MS (`poll`). A reason either
 * returns (not null) kills git and its helpers at once, and is the outcome's reason.
 */
export interface GitWatch {
  output?(chunk: Buffer): string | null;
  poll?(): string | null;
}

/** How often GitWatch's `poll` runs. */
const WATCH_EVERY_MS = 200;

const OUTPUT_CAP = 64 * 1024;

/** Variables that would point git at another repository, template or config than the one made here. */
const LOCATION_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
  'GIT_TEMPLATE_DIR',
];

/**
 * The environment git runs in: the caller's, without the variables that relocate the repository
 * or its templates or make git trace (isTraceVariable); only `protocol` allowed (GIT_ALLOW_PROTOCOL
 * overrides any configuration); no terminal prompt and no askpass program (an empty GIT_ASKPASS
 * stops git from falling back to SSH_ASKPASS; credential helpers still answer); no LFS smudge; C
 * messages. `ssh` is `batch` for ssh run as `ssh -o BatchMode=yes`, or `own` when the user names
 * their own ssh program (GIT_SSH_COMMAND, GIT_SSH, `core.sshCommand`), which is left as it is: git
 * runs either without a terminal (runGit starts git in a session of its own, its askpass programs
 * off), so neither can prompt.
 */
export function gitEnvironment(
  base: Record<string, string | undefined>,
  protocol: string,
  ssh: 'batch' | 'own',
): Record<string, string | undefined> {
  const env = { ...base };
  for (const name of LOCATION_VARIABLES) delete env[name];
  for (const name of Object.keys(env)) if (isTraceVariable(name)) delete env[name];
  return {
    ...env,
    GIT_ALLOW_PROTOCOL: protocol,
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    SSH_ASKPASS_REQUIRE: 'never',
    GCM_INTERACTIVE: 'never',
    ...(ssh === 'batch' ? { GIT_SSH_COMMAND: 'ssh -o BatchMode=yes' } : {}),
    GIT_LFS_SKIP_SMUDGE: '1',
    GIT_PROTOCOL_FROM_USER: '0',
    LC_ALL: 'C',
  };
}

/**
 * GIT_TRACE, GIT_TRACE2*, GIT_TRACE_CURL and the rest of git's GIT_TRACE* variables, and
 * GIT_CURL_VERBOSE: set for the user's own git commands, they would make git write a trace of
 * hookpm's clone to stderr, whose last lines are then a failure's reason instead of git's own
 * message (runGit), or to the file they name, with the HTTP headers it sends (K6's tokens and a
 * headers helper's, which git redacts only under some names: never printed nor written, N5).
 */
function isTraceVariable(name: string): boolean {
  return name.startsWith('GIT_TRACE') || name === 'GIT_CURL_VERBOSE';
}

/**
 * Runs `git <args>` without a shell (a fixed argv; user text only ever after `--` or as a
 * checked value), stdin closed, in its own process group so the deadline kills git and every
 * helper it started (git-remote-https, ssh, upload-pack). Never throws: a failure is a reason,
 * with credentials redacted.
 */
export function runGit(
  args: readonly string[],
  ctx: GitContext,
  watch: GitWatch = {},
): Promise<GitOutcome> {
  const left = ctx.deadline - Date.now();
  if (left <= 0) return Promise.resolve({ ok: false, reason: 'timed out' });
  return new Promise((done) => {
    let child: ChildProcessByStdio<null, Readable, Readable>;
    try {
      child = spawn('git', args, {
        env: ctx.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
    } catch (error) {
      // spawn throws at once for arguments the system refuses (E2BIG, a NUL byte).
      done({ ok: false, reason: `cannot start git: ${(error as Error).message}` });
      return;
    }
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let stopped: string | null = null;
    const stop = (reason: string | null): void => {
      if (reason === null || stopped !== null) return;
      stopped = reason;
      killGroup(child.pid);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, left);
    // A process git started that left its group (a credential helper's daemon) may hold git's
    // pipes open: they are let go a moment after git exits.
    letGoAfterExit(child, () => {
      child.stdout.destroy();
      child.stderr.destroy();
    });
    const poll = watch.poll;
    const polling = poll === undefined ? null : setInterval(() => stop(poll()), WATCH_EVERY_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      if (watch.output !== undefined) stop(watch.output(chunk));
      if (stdout.length < OUTPUT_CAP) stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < OUTPUT_CAP) stderr += chunk.toString('utf8');
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (polling !== null) clearInterval(polling);
      const reason =
        error.code === 'ENOENT'
          ? 'git is not installed (no `git` on PATH)'
          : `cannot start git: ${error.message}`;
      done({ ok: false, reason });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (polling !== null) clearInterval(polling);
      if (stopped !== null) done({ ok: false, reason: stopped });
      else if (timedOut) {
        killGroup(child.pid);
        done({ ok: false, reason: 'timed out' });
      } else if (code === 0) done({ ok: true, stdout });
      else
        done({
          ok: false,
          reason: lastLines(stderr) || `git exited with ${code ?? signal ?? 'an error'}`,
        });
    });
  });
}

/** SIGKILL to the process group `pid` leads (a child spawned `detached`), if it is still there. */
export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

/** The last few lines of git's stderr, redacted, control characters removed. */
function lastLines(text: string): string {
  const lines = text
    .replace(/\r/g, '\n')
    .split('\n')
    .map((l) => l.replace(/[\u0000-\u001f\u007f]/g, '').trim())
    .filter((l) => l !== '');
  return redact(lines.slice(-3).join('; ')).slice(0, 500);
}
