import type { PermissionDecision, PermissionResult } from './types.js';

const RANK: Readonly<Record<PermissionDecision, number>> = { allow: 1, ask: 2, deny: 3 };

/**
 * M5: ranks none < allow < ask < deny. The candidate replaces the current decision only when its
 * rank is strictly higher; among equal decisions the first one stays (with its `interrupt`), and
 * its reason is the first non-empty one given.
 */
export function mergePermission(
  current: PermissionResult | null,
  candidate: PermissionResult | null,
): PermissionResult | null {
  if (candidate === null) return current;
  if (current === null) return candidate;
  if (RANK[candidate.decision] > RANK[current.decision]) return candidate;
  if (RANK[candidate.decision] < RANK[current.decision]) return current;
  const reasonless = current.reason === null || current.reason === '';
  return reasonless && candidate.reason !== null && candidate.reason !== ''
    ? { ...current, reason: candidate.reason }
    : current;
}
