import semver from '../registry/versions/semver.js';
import { compareCodeUnits } from '../json/compare.js';
import { describeValue } from '../json/describe-value.js';
import { firstOf } from '../text/first-of.js';
import type { Lockfile } from './lockfile.js';
import type { ProjectManifest } from './project-manifest.js';

/** How hookpm.json and hookpm.lock disagree about one plugin. */
export interface LockMismatch {
  id: string;
  /** `missing`: named in hookpm.json, not locked; `extra`: locked, not named; `range`: the locked version is outside the wanted range. */
  kind: 'missing' | 'extra' | 'range';
  wanted: string | null;
  locked: string | null;
}

/**
 * Where the lock does not pin exactly what hookpm.json asks for, sorted by id; empty when they
 * agree. A dist-tag agrees with any locked version (the lock records what the tag named then).
 */
export function findLockMismatches(manifest: ProjectManifest, lock: Lockfile): LockMismatch[] {
  const out: LockMismatch[] = [];
  for (const [id, wanted] of Object.entries(manifest.plugins)) {
    const entry = Object.hasOwn(lock.plugins, id) ? lock.plugins[id] : undefined;
    if (entry === undefined) out.push({ id, kind: 'missing', wanted, locked: null });
    else if (!versionAgrees(entry.version, wanted))
      out.push({ id, kind: 'range', wanted, locked: entry.version });
  }
  for (const [id, entry] of Object.entries(lock.plugins))
    if (!Object.hasOwn(manifest.plugins, id))
      out.push({ id, kind: 'extra', wanted: null, locked: entry.version });
  return out.sort((a, b) => compareCodeUnits(a.id, b.id));
}

/** Whether a locked version is what `wanted` (a range, or a dist-tag) allows. */
export function versionAgrees(version: string, wanted: string): boolean {
  if (semver.validRange(wanted) === null) return true;
  return semver.satisfies(version, wanted, { includePrerelease: true });
}

/** How many mismatches one E_LOCK_MISMATCH message lists; the rest are counted. */
export const MISMATCHES_SHOWN = 10;

/**
 * One phrase per mismatch, for E_LOCK_MISMATCH. The ids are plugin ids (bounded by P3); the range
 * and the version come from the files, of any length, so they are quoted cut short.
 */
export function describeMismatch(m: LockMismatch): string {
  const wanted = describeValue(m.wanted);
  const locked = describeValue(m.locked);
  if (m.kind === 'missing') return `${m.id} (${wanted}) is in hookpm.json but not in hookpm.lock`;
  if (m.kind === 'extra') return `${m.id} ${locked} is in hookpm.lock but not in hookpm.json`;
  return `${m.id}: hookpm.lock has ${locked}, outside ${wanted} that hookpm.json asks for`;
}

/**
 * The first MISMATCHES_SHOWN mismatches described and joined by "; ", then "and N more": a lock of
 * any size gives a message of bounded length.
 */
export function describeMismatches(mismatches: readonly LockMismatch[]): string {
  return firstOf(mismatches.map(describeMismatch), MISMATCHES_SHOWN, '; ');
}
