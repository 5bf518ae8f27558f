import type { InstallResult } from '../../ops/steps/transaction/record.js';
import { renderReview } from './render-review.js';
import { terminalWidth } from '../stdio.js';
import { escapeControl, printErrorLine, printLine } from './render.js';

/**
 * The human output of `hookpm install` and `hookpm update`: one line per plugin; on --dry-run the
 * plan (versions, whether consent carries over) and the plugin's review, rendered as `hookpm
 * review` renders it (the diff against the consented surface and files included).
 */
export function printInstallResult(result: InstallResult): void {
  for (const entry of result.installed) {
    const state = entry.enabled
      ? entry.active
        ? 'enabled'
        : 'enabled, waiting for consent'
      : 'disabled';
    const events = entry.events.length > 0 ? entry.events.join(', ') : 'none';
    // Messages, questions and waits (docs/design/decisions.md#where-the-rules-are-silent): a
    // pending update names the version that waits, and the one that stays.
    const line =
      entry.pending === undefined
        ? `${entry.status} ${entry.id} ${entry.version} (${state}); events: ${events}`
        : `installed ${entry.id} ${entry.pending}, waiting for your consent; ${entry.version} stays active (${state}); events: ${events}`;
    printLine(escapeControl(line));
    const plan = entry.plan;
    if (plan === undefined) continue;
    printLine(escapeControl(`  version: ${plan.from ?? '(not installed)'} -> ${plan.to}`));
    printLine(`  consent: ${plan.consent}`);
    printLine('');
    const width = terminalWidth(1);
    printLine(indent(renderReview(plan.review, { width: width === null ? null : width - 2 })));
    printLine('');
  }
  for (const note of result.notes) printErrorLine(escapeControl(note));
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : `  ${line}`))
    .join('\n');
}
