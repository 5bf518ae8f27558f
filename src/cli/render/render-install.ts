import type { InstallResult } from '../../ops/install/record.js';
import { escapeControl, printErrorLine, printLine } from './render.js';

/** The human output of `hookpm install` and `hookpm update`: one line per plugin, a plan on --dry-run. */
export function printInstallResult(result: InstallResult): void {
  for (const entry of result.installed) {
    const state = entry.enabled
      ? entry.active
        ? 'enabled'
        : 'enabled, waiting for consent'
      : 'disabled';
    const events = entry.events.length > 0 ? entry.events.join(', ') : 'none';
    printLine(
      escapeControl(`${entry.status} ${entry.id} ${entry.version} (${state}); events: ${events}`),
    );
    const plan = entry.plan;
    if (plan === undefined) continue;
    printLine(escapeControl(`  version: ${plan.from ?? '(not installed)'} -> ${plan.to}`));
    if (plan.diff !== null) {
      const { added, removed, changed } = plan.diff;
      printLine(
        `  surface: ${added.length} added, ${removed.length} removed, ${changed.length} changed`,
      );
      for (const hook of added)
        printLine(escapeControl(`    + ${hook.event} ${describe(hook.command ?? hook.argv)}`));
      for (const hook of removed)
        printLine(escapeControl(`    - ${hook.event} ${describe(hook.command ?? hook.argv)}`));
      for (const pair of changed)
        printLine(
          escapeControl(
            `    ~ ${pair.after.event} ${describe(pair.after.command ?? pair.after.argv)}`,
          ),
        );
    }
    printLine(`  consent: ${plan.consent}`);
    printLine(escapeControl(`  files: ${plan.files.join(', ')}`));
  }
  for (const note of result.notes) printErrorLine(escapeControl(note));
}

function describe(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
