/**
 * Z4-Z7 (docs/reference/rules/security.md#confinement): the command line that runs one handler
 * inside bubblewrap, held to its plugin's capabilities. Part of the engine runner (run-handler.ts).
 *
 * The sandbox: the whole file system read-only (`--ro-bind / /`); the store's directories hidden
 * behind empty ones (Z3), the plugin's own tree shown again read-only and its data directory
 * read-only or, when declared, writable; the project and a private temporary folder writable when
 * declared; a fresh /dev and a /proc of its own process namespace (`--unshare-pid`), so no process
 * outside is visible, and `/proc/<pid>/root` leads nowhere; no capabilities (`--cap-drop ALL`, which
 * matters when hookpm runs as root); no network (`--unshare-net`) unless declared. It stays in the
 * runner's process group, and `--die-with-parent` plus the namespace's end take every process it
 * started with it when the group is killed (X6).
 */
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, relative, isAbsolute } from 'node:path';
import type { HandlerConfinement } from '../hooks/types.js';
import { unixSocketFilter } from './socket-filter.js';

/** The fix named wherever confinement cannot be set up (Z6). */
export const CONFINE_FIX =
  'install bubblewrap (Debian/Ubuntu: `apt-get install bubblewrap`; Fedora: `dnf install bubblewrap`)';

export interface ConfineInput {
  confine: HandlerConfinement;
  file: string;
  args: readonly string[];
  cwd: string;
  projectDir: string;
  /** The plugin's tree and data directory (CLAUDE_PLUGIN_ROOT, CLAUDE_PLUGIN_DATA). */
  pluginRoot: string | null;
  pluginData: string | null;
  /** The handler's environment: its PATH finds bwrap; TMPDIR is set here for `tmp`. */
  env: Record<string, string>;
}

export type ConfinedLaunch =
  | {
      ok: true;
      file: string;
      args: string[];
      env: Record<string, string>;
      cleanup: () => void;
      /** Z5: the seccomp program bwrap reads from fd 4 (`--seccomp 4`), or null. */
      seccomp: Buffer | null;
    }
  | { ok: false; message: string };

const found = new Map<string, string>();

/**
 * `bwrap` on PATH, or null. A hit is cached per PATH value (until forgetBwrap); a miss is not, so a
 * long-lived host (`hookpm session`) finds bubblewrap once the user installs it.
 */
export function findBwrap(path: string | undefined): string | null {
  const key = path ?? '';
  const cached = found.get(key);
  if (cached !== undefined) return cached;
  let hit: string | null = null;
  for (const dir of key.split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const candidate = join(dir, 'bwrap');
    try {
      accessSync(candidate, constants.X_OK);
      hit = candidate;
      break;
    } catch {
      // not here
    }
  }
  if (hit !== null) found.set(key, hit);
  return hit;
}

/** Z6: `bwrap`, found before, could not be started: the next handler looks for it on PATH again. */
export function forgetBwrap(bwrap: string): void {
  for (const [path, hit] of found) if (hit === bwrap) found.delete(path);
}

/**
 * Z4: the bwrap command line for one handler, or, Z6, why it cannot be confined here (no Linux,
 * no bwrap on PATH): the caller then does not run it at all.
 */
export function confineCommand(input: ConfineInput, platform = process.platform): ConfinedLaunch {
  if (platform !== 'linux')
    return {
      ok: false,
      message: `confined handlers run only on Linux, under bubblewrap; on ${platform} hookpm does not run them (security.md Z7)`,
    };
  const bwrap = findBwrap(input.env['PATH']);
  if (bwrap === null)
    return {
      ok: false,
      message: `the sandbox cannot be set up: bubblewrap (bwrap) is not on PATH; ${CONFINE_FIX}`,
    };
  const { confine } = input;
  const args = ['--die-with-parent', '--unshare-pid', '--unshare-ipc', '--cap-drop', 'ALL'];
  const seccomp = confine.network ? null : unixSocketFilter();
  if (seccomp !== null) args.push('--unshare-net', '--seccomp', '4');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  // Mounts apply in order: the project is bound before the store is hidden, so a project that
  // holds the store (the agent run in HOME) does not bring it back, writable (Z3).
  // A project of `/` (an agent run there) would make the whole file system writable: not bound.
  // Every place is given to bwrap as its real path: bwrap makes a mount point without following
  // symlinks, so a place reached through one (a symlinked home) could not be mounted at all, and
  // a symlink left in the sandbox leads to the place mounted at its target.
  const projectDir = realPath(input.projectDir);
  if (confine.write.includes('project') && projectDir !== '/' && existsSync(projectDir))
    args.push('--bind', projectDir, projectDir);
  const hide = confine.hide.map(realPath);
  for (const dir of hide) if (existsSync(dir)) args.push('--tmpfs', dir);
  const shown = (dir: string): boolean => hide.some((h) => isInside(dir, h));
  const pluginRoot = input.pluginRoot === null ? null : realPath(input.pluginRoot);
  if (pluginRoot !== null && shown(pluginRoot) && existsSync(pluginRoot))
    args.push('--ro-bind', pluginRoot, pluginRoot);
  const env = { ...input.env };
  let temp: string | null = null;
  try {
    if (input.pluginData !== null) {
      if (confine.write.includes('data')) {
        mkdirSync(input.pluginData, { recursive: true });
        const data = realPath(input.pluginData);
        args.push('--bind', data, data);
      } else {
        const data = realPath(input.pluginData);
        if (shown(data) && existsSync(data)) args.push('--ro-bind', data, data);
      }
    }
    if (confine.write.includes('tmp')) {
      temp = realPath(mkdtempSync(join(tmpdir(), 'hookpm-confined-')));
      args.push('--bind', temp, temp);
      env['TMPDIR'] = env['TMP'] = env['TEMP'] = temp;
    }
  } catch (error) {
    if (temp !== null) rmSync(temp, { recursive: true, force: true });
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `the sandbox cannot be set up: ${why}` };
  }
  args.push('--json-status-fd', '3', '--', input.file, ...input.args);
  const cleanup = (): void => {
    if (temp !== null) rmSync(temp, { recursive: true, force: true });
  };
  return { ok: true, file: bwrap, args, env, cleanup, seccomp };
}

/** The path with every symlink in it resolved; as given when it does not exist (yet). */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** `inner` is `outer` or inside it. */
function isInside(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Z6: reads bwrap's status pipe (`--json-status-fd 3`) and answers whether the sandbox was set up.
 * bwrap reports the handler's pid once it made the sandbox's first process, before the mounts,
 * which can still fail (a place to hide that is a file, a bind that cannot be made), and the
 * handler's exit code only when the handler had started in the finished sandbox. So a bwrap that
 * `exited` with a code of its own was set up when it reported the exit code; one ended at the
 * deadline or by a signal reports none, and was set up, as far as hookpm can tell, when it
 * reported the pid.
 */
export function watchSandboxStatus(
  stream: NodeJS.ReadableStream | null | undefined,
): (exited: boolean) => boolean {
  let text = '';
  stream?.on('error', () => {});
  stream?.on('data', (chunk: Buffer) => {
    if (text.length < 4096) text += chunk.toString('utf8');
  });
  return (exited) => text.includes(exited ? '"exit-code"' : '"child-pid"');
}

/**
 * Z6: the failure of a confined run whose sandbox was never set up (bwrap's own words kept), or
 * (`timedOut`) was still not set up at the handler's deadline: bwrap hung, as a bind of a stuck
 * network or FUSE mount does.
 */
export function sandboxFailure(stderr: string, timedOut = false): string {
  const said = stderr.trim().split('\n').slice(-3).join(' ').slice(-500);
  const words = said === '' ? '' : ` (${said})`;
  if (timedOut)
    return `the sandbox was not set up by the handler's deadline${words}; check that every place bwrap binds (the project, the plugin, its data) can be read, as a stuck network mount cannot`;
  return `the sandbox cannot be set up${words}; ${CONFINE_FIX}, and check that user namespaces are allowed`;
}
