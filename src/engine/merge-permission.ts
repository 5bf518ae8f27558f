import type { PermissionDecision, PermissionResult } from './types.js';

const RANK: Readonly<Record<PermissionDecision, number>> = { allow: 1, ask: 2, deny: 3 };

/**
 * M5: ranks none < allow < ask < deny. The candidate replaces the current decision only when its
 * rank is strictly higher, so among equal decisions the first one (and its reason) stays.
 */
export function mergePermission(
  current: PermissionResult | null,
  candidate: PermissionResult | null,
): PermissionResult | null {
  if (candidate === null) return current;
  if (current === null) return candidate;
  return RANK[candidate.decision] > RANK[current.decision] ? candidate : current;
}
