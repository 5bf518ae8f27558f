import { codeUnchanged } from '../../../plugin/code-diff.js';
import type { PluginRecord } from '../../../store/state/state-schema.js';
import type { ReviewReport } from './report.js';

/** What the user asked for: `--yes`, `--no-enable`, or ask (when a question can be asked). */
export type EnableMode = 'yes' | 'no' | 'ask';

/**
 * `carry`: the consent already given covers the new surface (same hash, or Q5: only removals);
 * `grant`: consent is given now (`--yes` or the user said yes); `none`: no consent (declined,
 * `--no-enable`, or no way to ask).
 */
export type ConsentDecision = 'carry' | 'grant' | 'none';

/**
 * plugins.md Q5 and the files rule (docs/guides/installing-plugins.md#consent): the consent given
 * to the installed version covers the reviewed one - the same surface, or one with only removals,
 * and no code file changed, added or removed; declared capabilities only narrowed (Z2).
 */
export function consentCarries(
  review: Pick<ReviewReport, 'consented' | 'diff' | 'codeDiff'>,
  existing: Pick<PluginRecord, 'consent'> | undefined,
): boolean {
  if (existing?.consent == null) return false;
  if (review.consented) return true;
  const onlyRemovals =
    review.diff !== null &&
    review.diff.added.length === 0 &&
    review.diff.changed.length === 0 &&
    review.diff.capabilities?.widens !== true;
  return onlyRemovals && codeUnchanged(review.codeDiff);
}

/** plugins.md Q4, Q5: whether the surface in `review` may run, and whether the user was asked. */
export async function decideConsent(
  review: ReviewReport,
  existing: PluginRecord | undefined,
  mode: EnableMode,
  confirm: ((review: ReviewReport) => Promise<boolean>) | undefined,
): Promise<ConsentDecision> {
  if (consentCarries(review, existing)) return 'carry';
  if (mode === 'yes') return 'grant';
  if (mode === 'no' || confirm === undefined) return 'none';
  return (await confirm(review)) ? 'grant' : 'none';
}
