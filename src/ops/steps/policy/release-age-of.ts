import type { ReleaseAge } from '../../../registry/versions/release-age.js';
import { readUpdateSettings } from '../../../store/update-settings.js';
import type { OperationContext } from '../context/operation-context.js';
import { policyOf } from './policy-of.js';

/**
 * docs/reference/rules/policy.md#a15: the release-age cooldown in force, the higher of the
 * policy's `updates.minimumReleaseAgeDays` and the user's (settings.json, `hookpm config set`):
 * the user can raise the policy's, never lower it. Null when neither sets one above 0.
 */
export function releaseAgeOf(ctx: OperationContext): ReleaseAge | null {
  const inForce = policyOf(ctx);
  const fromPolicy =
    inForce.status === 'ok' ? (inForce.policy.updates?.minimumReleaseAgeDays ?? 0) : 0;
  const fromUser = readUpdateSettings(ctx.paths).minimumReleaseAgeDays ?? 0;
  const days = Math.max(fromPolicy, fromUser);
  if (days <= 0) return null;
  const from = fromPolicy >= fromUser ? `policy ${inForce.file}` : 'your settings';
  return { days, now: ctx.now?.() ?? new Date(), from };
}
