import type { IndexPlugin } from '../indexes/index-schema.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A version held back by the release-age cooldown (docs/reference/rules/policy.md#a15). */
export interface HeldVersion {
  version: string;
  publishedAt: string;
  /** Whole days since it was published (rounded down). */
  ageDays: number;
}

/** The cooldown in force: at least `days` days old, judged at `now`; `from` says who set it. */
export interface ReleaseAge {
  days: number;
  now: Date;
  /** `policy <file>` or `settings`: named in the notes and the refusal. */
  from: string;
}

/**
 * A15: `plugin` less the versions published less than `age.days` days before `age.now` (their
 * index entry's `publishedAt`), and dist-tags naming them; a version without `publishedAt` is
 * kept (its age is unknown). `keep` (the installed version) is never held back.
 */
export function holdBackYoung(
  plugin: IndexPlugin,
  age: ReleaseAge,
  keep?: string,
): { plugin: IndexPlugin; held: HeldVersion[] } {
  if (age.days <= 0) return { plugin, held: [] };
  const held: HeldVersion[] = [];
  const versions: IndexPlugin['versions'] = {};
  for (const [version, entry] of Object.entries(plugin.versions)) {
    const young = version === keep ? null : youngVersion(version, entry, age);
    if (young !== null) held.push(young);
    else versions[version] = entry;
  }
  if (held.length === 0) return { plugin, held };
  const gone = new Set(held.map((h) => h.version));
  const distTags = Object.fromEntries(
    Object.entries(plugin.distTags).filter(([, version]) => !gone.has(version)),
  );
  return { plugin: { ...plugin, versions, distTags }, held };
}

/** A15: the note of one held version, as install and update print it. */
export function heldNote(id: string, held: HeldVersion, age: ReleaseAge): string {
  return `${id} ${held.version} was skipped: published ${held.ageDays} day(s) ago (${held.publishedAt}), younger than the minimum release age of ${age.days} day(s) (${age.from})`;
}

/**
 * A15: `version` (its index entry) as held back by the cooldown, or null when it is old enough or
 * its age is unknown (no `publishedAt`). holdBackYoung judges each version of a plugin so; a lock
 * that pins one version is judged by it alone.
 */
export function youngVersion(
  version: string,
  entry: { publishedAt?: string | undefined },
  age: ReleaseAge,
): HeldVersion | null {
  if (age.days <= 0 || entry.publishedAt === undefined) return null;
  const at = Date.parse(entry.publishedAt);
  const ageMs = age.now.getTime() - at;
  if (!Number.isFinite(at) || ageMs >= age.days * DAY_MS) return null;
  return {
    version,
    publishedAt: entry.publishedAt,
    ageDays: Math.max(0, Math.floor(ageMs / DAY_MS)),
  };
}
