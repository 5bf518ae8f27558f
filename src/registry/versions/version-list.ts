/** Ordering helpers over lists of canonical semver versions. */
import type { SemVer } from 'semver';
import semver from './semver.js';

export function sortDescending(versions: readonly string[]): string[] {
  return [...versions].sort((a, b) => semver.rcompare(a, b));
}

/**
 * Up to `count` versions closest to where `range` begins (its minimum version), walking outwards
 * from that position in version order; returned highest first. Used to say what is available
 * when a range matches nothing (registry.md V2).
 */
export function nearestVersions(versions: readonly string[], range: string, count = 3): string[] {
  const ascending = [...versions].sort((a, b) => semver.compare(a, b));
  let anchor: SemVer | null = null;
  try {
    anchor = semver.minVersion(range);
  } catch {
    anchor = null;
  }
  let index =
    anchor === null ? ascending.length : ascending.findIndex((v) => semver.gte(v, anchor));
  if (index === -1) index = ascending.length;
  const chosen: string[] = [];
  let below = index - 1;
  let above = index;
  while (chosen.length < count && (below >= 0 || above < ascending.length)) {
    const down = ascending[below];
    if (down !== undefined) {
      chosen.push(down);
      below -= 1;
    }
    const up = ascending[above];
    if (chosen.length < count && up !== undefined) {
      chosen.push(up);
      above += 1;
    }
  }
  return sortDescending(chosen);
}
