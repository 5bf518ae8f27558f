import type { SessionPin } from '../../store/session-pin-schema.js';
import type { StorePaths } from '../../store/store-paths.js';
import { readUpdatesWaiting } from '../../store/updates-waiting.js';
import { startDailyCheck } from './background-check.js';

/**
 * docs/guides/installing-plugins.md#updates-announced-in-your-agent: at a linked agent's
 * SessionStart, the plugins of the session's pin with a newer version waiting (as the last `hookpm
 * update --check` found it: no network here), and how to review it; null when none waits. With
 * `updates.check` `daily`, a check of `home` is started in the background first
 * (background-check.ts).
 */
export function updateAnnouncement(
  paths: StorePaths,
  pin: SessionPin,
  env: Readonly<Record<string, string | undefined>>,
  home: string | undefined,
): string | null {
  startDailyCheck(paths, env, home);
  const waiting = readUpdatesWaiting(paths);
  if (waiting === null) return null;
  const running = new Map(pin.plugins.map((p) => [p.id, p.version]));
  const due = waiting.plugins.filter((p) => running.get(p.id) === p.installed);
  if (due.length === 0) return null;
  const list = due.map((p) => `${p.id} ${p.installed} -> ${p.available}`).join(', ');
  const first = due[0]!.id;
  return `hookpm: an update waits for ${list}; run \`hookpm update --dry-run\` to review it, then \`hookpm update ${first}\``;
}
