import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { GIT, requireTool } from './system-package.js';

let gitPath: string | undefined;

/**
 * Finds git (installing it on first use, or failing with the command to run); a test file that
 * calls git(), makeRepo() or commitFiles() awaits it in `beforeAll` (timeout INSTALL_TIMEOUT_MS).
 */
export async function requireGit(): Promise<string> {
  gitPath = await requireTool(GIT);
  return gitPath;
}

/** An environment for git in tests: HOME is a temp dir, so no user or system config leaks in. */
export function gitTestEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.invalid',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.invalid',
  };
}

export function git(cwd: string, env: Record<string, string>, ...args: string[]): string {
  if (gitPath === undefined) throw new Error('Assertion failed: requireGit() was not awaited');
  return execFileSync(gitPath, args, { cwd, env, encoding: 'utf8' }).trim();
}

/** Writes `files` (relative path -> content) into `dir`, creating directories. */
export async function writeFiles(
  dir: string,
  files: Readonly<Record<string, string>>,
): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, ...path.split('/'));
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content);
  }
}

/** A git repository at `dir` with `files` committed on `main`; returns the commit. */
export async function makeRepo(
  dir: string,
  env: Record<string, string>,
  files: Readonly<Record<string, string>>,
): Promise<string> {
  await mkdir(dir, { recursive: true });
  git(dir, env, 'init', '-q', '-b', 'main');
  return commitFiles(dir, env, files, 'initial');
}

export async function commitFiles(
  dir: string,
  env: Record<string, string>,
  files: Readonly<Record<string, string>>,
  message: string,
): Promise<string> {
  await writeFiles(dir, files);
  git(dir, env, 'add', '-A');
  git(dir, env, 'commit', '-q', '-m', message);
  return git(dir, env, 'rev-parse', 'HEAD');
}
