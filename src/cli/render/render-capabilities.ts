import type { ReviewReport } from '../../ops/steps/consent/report.js';
import { describeCapabilities } from '../../plugin/capabilities.js';
import type { Tone } from './colour.js';

/**
 * Z1: a writable project reaches past the sandbox. What a handler writes there runs later, outside
 * it, when the agent reads its settings or git runs its hooks; the review says so.
 */
const PROJECT_REACH =
  "  writable project: its hooks may edit the agents' settings and git's hooks there, which run unconfined";

/**
 * Z1-Z3 in the review (security.md#confinement): what the plugin's hooks may do, or plainly that
 * they run unconfined with the user's rights; then, against the consented surface, a change of
 * the declaration, coloured as a change that waits for consent when it widens.
 */
export function capabilityLines(
  report: ReviewReport,
): Array<string | { text: string; tone: Tone }> {
  const lines: Array<string | { text: string; tone: Tone }> = [
    `  confinement: ${describeCapabilities(report.capabilities)}`,
  ];
  if (report.confine !== undefined)
    lines.push(`  confined by you: ${describeCapabilities(report.confine)} (enable --confine)`);
  const writes = (report.confine ?? report.capabilities)?.write ?? [];
  if (writes.includes('project')) lines.push({ text: PROJECT_REACH, tone: 'warning' });
  const change = report.diff?.capabilities ?? null;
  if (change !== null) {
    const what = change.widens ? 'widened, waits for consent' : 'narrowed';
    lines.push({
      text: `  capabilities ${what}: was ${describeCapabilities(change.before)}`,
      tone: change.widens ? 'added' : 'removed',
    });
  }
  return lines;
}
