import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errnoCode } from '../../io/fs-error.js';
import type { StorePaths } from '../../store/store-paths.js';
import { okCheck, problem, type DoctorCheck } from './check.js';
import { shellWord } from '../../text/shell-word.js';

const ROLES: ReadonlyArray<{ key: keyof StorePaths; what: string }> = [
  { key: 'config', what: 'settings' },
  { key: 'data', what: 'state, installed plugins and plugin data' },
  { key: 'cache', what: 'downloaded indexes and tarballs' },
];

/**
 * registry.md D1, security.md "read-only store": each store directory (config, data, cache) is a
 * directory hookpm may write, or does not exist yet under a writable parent (it is created when
 * first needed). Anything else is an error that says how to fix it. Only looks (access(2)).
 */
export async function checkStorePaths(paths: StorePaths): Promise<DoctorCheck[]> {
  return Promise.all(ROLES.map(({ key, what }) => checkDir(`store.${key}`, paths[key], what)));
}

async function checkDir(name: string, dir: string, what: string): Promise<DoctorCheck> {
  const fix = `Make ${dir} writable (for example \`chmod u+w ${shellWord(dir)}\`, or remount its file system read-write), or point HOOKPM_HOME (--home) at a writable directory.`;
  const info = await stat(dir).catch((error: unknown) => errnoCode(error) ?? 'EIO');
  if (typeof info === 'string') {
    if (info !== 'ENOENT')
      return problem(name, 'error', `${dir} cannot be read (${info})`, {
        code: 'store_unreadable',
        fix,
      });
    const parent = await nearestExisting(dirname(dir));
    const denied = await notWritable(parent);
    if (denied === null)
      return okCheck(name, `${dir} (${what}) does not exist yet; it is created when first needed`);
    return problem(
      name,
      'error',
      `${dir} (${what}) does not exist and cannot be created: ${parent} is read-only (${denied})`,
      {
        code: 'store_readonly',
        fix: `Make ${parent} writable, or point HOOKPM_HOME (--home) at a writable directory.`,
      },
    );
  }
  if (!info.isDirectory()) {
    return problem(name, 'error', `${dir} (${what}) is not a directory`, {
      code: 'store_not_directory',
      fix: `Move ${dir} aside (\`mv ${shellWord(dir)} ${shellWord(`${dir}.bad`)}\`); hookpm creates the directory again.`,
    });
  }
  const denied = await notWritable(dir);
  if (denied === null) return okCheck(name, `${dir} (${what}) is writable`);
  return problem(
    name,
    'error',
    `${dir} (${what}) is read-only (${denied}): commands that change the store fail with E_STORE_READONLY`,
    {
      code: 'store_readonly',
      fix,
    },
  );
}

/** The errno that forbids writing (and entering) `dir`, or null when it may be written. */
async function notWritable(dir: string): Promise<string | null> {
  try {
    await access(dir, constants.W_OK | constants.X_OK);
    return null;
  } catch (error) {
    return errnoCode(error) ?? 'EACCES';
  }
}

async function nearestExisting(dir: string): Promise<string> {
  for (let current = dir; ; current = dirname(current)) {
    const exists = await stat(current).then(
      () => true,
      () => false,
    );
    if (exists || dirname(current) === current) return current;
  }
}
