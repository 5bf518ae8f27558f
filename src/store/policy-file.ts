import { lstatSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, win32 } from 'node:path';
import { parseJson } from '../json/parse-json.js';
import { errnoCode } from '../io/fs-error.js';
import { readFailureReason, readRegularFile } from '../io/read-regular-file.js';
import { checkPolicy, type Policy, type PolicyInForce } from '../policy/policy.js';
import { strictUtf8 } from '../text/strict-utf8.js';

/** A policy file larger than this is not used (A11); a real one is a few hundred bytes. */
const POLICY_MAX_BYTES = 1024 * 1024;
/**
 * No file at the path: no policy. ENOTDIR is not among them: a path that goes through a file as a
 * folder (`policy.json/`, or `/etc/hookpm` a file) names something the administrator put there,
 * which cannot be read (A11).
 */
const MISSING_CODES = new Set(['ENOENT']);

/**
 * A10: where the administrator's policy is: HOOKPM_POLICY_FILE when set and not empty, else the
 * platform's location: `%ProgramData%\hookpm\policy.json` on Windows,
 * `/Library/Application Support/hookpm/policy.json` on macOS, `/etc/hookpm/policy.json` elsewhere.
 */
export function policyFileOf(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
): { file: string; from: PolicyInForce['from'] } {
  const named = env['HOOKPM_POLICY_FILE'];
  if (named !== undefined && named !== '') return { file: named, from: 'env' };
  if (platform === 'win32')
    return {
      file: win32.join(
        env['ProgramData'] ?? env['PROGRAMDATA'] ?? 'C:\\ProgramData',
        'hookpm',
        'policy.json',
      ),
      from: 'system',
    };
  if (platform === 'darwin')
    return { file: '/Library/Application Support/hookpm/policy.json', from: 'system' };
  return { file: join('/etc', 'hookpm', 'policy.json'), from: 'system' };
}

/**
 * A10, A11: reads the policy in force, synchronously (a linked agent's event reads it; it is one
 * small file). No file: `absent`. A relative HOOKPM_POLICY_FILE, a file that cannot be read (or
 * is not a regular file of at most POLICY_MAX_BYTES), a symbolic link to nothing (the file's or
 * its folder's), a path through a file as a folder, a file that is not UTF-8, not strict JSON or
 * not of the policy's shape: `invalid`, with the problem. Never throws.
 */
export function readPolicyFile(
  env: Readonly<Record<string, string | undefined>>,
  platform?: NodeJS.Platform,
): PolicyInForce {
  const { file, from } = policyFileOf(env, platform);
  // A path relative to the working directory would name another file in each directory a command
  // or an agent's event runs in, one a cloned repository could hold.
  if (from === 'env' && !isAbsolute(file))
    return {
      status: 'invalid',
      file,
      from,
      problem: 'HOOKPM_POLICY_FILE is a relative path; it must name the file by its absolute path',
    };
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file, { maxBytes: POLICY_MAX_BYTES, followSymlink: true });
  } catch (error) {
    if (MISSING_CODES.has(errnoCode(error) ?? '')) {
      const link = linkToNothing(file);
      if (link === null) return { status: 'absent', file, from };
      return { status: 'invalid', file, from, problem: `${link} is a symbolic link to nothing` };
    }
    const reason =
      errnoCode(error) === 'ENOTDIR'
        ? 'ENOTDIR: its path goes through a file as if it were a folder'
        : readFailureReason(error);
    return { status: 'invalid', file, from, problem: `it cannot be read (${reason})` };
  }
  // Strict: a byte that is not UTF-8 would be read as U+FFFD, and an entry would not say what its
  // bytes say.
  const text = strictUtf8(bytes, 'drop');
  if (text === null) return { status: 'invalid', file, from, problem: 'it is not valid UTF-8' };
  const json = parseJson(text, file);
  if (!json.ok)
    return {
      status: 'invalid',
      file,
      from,
      problem: `invalid JSON at line ${json.line}, column ${json.column}: ${json.message}`,
    };
  const problem = checkPolicy(json.value);
  if (problem !== null) return { status: 'invalid', file, from, problem };
  return { status: 'ok', file, from, policy: json.value as Policy };
}

/**
 * A10, A11: of a policy file that was not found, the symbolic link that leads nowhere, the file
 * itself or a folder above it (`/etc/hookpm`, or `/net/config` of `/net/config/hookpm/policy.json`,
 * linked to a mount that is gone), or null: the administrator put a policy there that cannot be
 * read, which fails closed; it is never "no policy".
 */
function linkToNothing(file: string): string | null {
  const paths = [file];
  for (let dir = dirname(file); dir !== paths[paths.length - 1]; dir = dirname(dir))
    paths.push(dir);
  for (const path of paths) {
    try {
      if (!lstatSync(path).isSymbolicLink()) continue;
    } catch {
      continue;
    }
    try {
      statSync(path);
    } catch {
      return path === file ? 'it' : `its folder ${path}`;
    }
  }
  return null;
}
