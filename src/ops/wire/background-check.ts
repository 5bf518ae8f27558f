import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import type { StorePaths } from '../../store/store-paths.js';
import { readUpdateSettings } from '../../store/update-settings.js';
import { readUpdatesWaiting } from '../../store/updates-waiting.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * docs/guides/installing-plugins.md#updates-announced-in-your-agent: with `updates.check` set to
 * `daily`, a linked agent's SessionStart starts `hookpm update --check` detached in the background
 * (the event does not wait for it, nor use the network itself) when the last check, and the last
 * start of one, are a day old or more. The check installs nothing. Never throws. `home` is the
 * hookpm home the paths are of (`--home`, as a link writes it on the command line; undefined: as
 * `env` says): the check runs on that home, whatever HOOKPM_HOME the agent's environment holds.
 */
export function startDailyCheck(
  paths: StorePaths,
  env: Readonly<Record<string, string | undefined>>,
  home: string | undefined,
  now = new Date(),
): boolean {
  try {
    if (readUpdateSettings(paths).check !== 'daily') return false;
    const last = readUpdatesWaiting(paths);
    if (last !== null && now.getTime() - Date.parse(last.checkedAt) < DAY_MS) return false;
    const stamp = join(paths.cache, 'updates-check-started');
    const started = statOrNull(stamp);
    if (started !== null && now.getTime() - started < DAY_MS) return false;
    mkdirSync(paths.cache, { recursive: true });
    closeSync(openSync(stamp, 'a'));
    utimesSync(stamp, now, now);
    const bin = process.argv[1];
    if (bin === undefined) return false;
    const child = spawn(process.execPath, [bin, 'update', '--check'], {
      detached: true,
      stdio: 'ignore',
      env: home === undefined ? { ...env } : { ...env, HOOKPM_HOME: home },
    });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}

function statOrNull(file: string): number | null {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return null;
  }
}
