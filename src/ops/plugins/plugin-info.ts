/**
 * What `hookpm info` reports of one plugin, whatever the registry kind: info.ts fills it from a
 * catalog or the state, npm-info.ts from an npm package document.
 */
import type { PluginRecord } from '../../store/state/state-schema.js';
import type { RegistryWarning } from '../steps/catalogs/load-catalogs.js';
import { hasCurrentConsent } from '../../store/state/current-consent.js';

/** The plugin's latest version: its registry's entry, else the installed record's. */
export interface LatestEntry {
  version: string;
  events: string[];
  surfaceHash: string | null;
  integrity: string;
  /** Absolute URL (resolved against the index); null for an installed-only plugin. */
  tarball: string | null;
  size: number | null;
  publishedAt: string | null;
  deprecated: string | null;
}

/** The installed record of the plugin. */
export interface InstalledInfo {
  version: string;
  enabled: boolean;
  /** Q4: consent was given to the installed surface. */
  consented: boolean;
  integrity: string;
  surfaceHash: string;
  events: string[];
  source: string;
  installedAt: string;
  /** When the installed version or files last changed; installedAt for a state that predates it. */
  updatedAt: string;
  path: string;
  /** Q5: a newer installed version waiting for consent. */
  pendingVersion: string | null;
}

/** `hookpm info --json` (docs/reference/rules/cli.md#json-shapes). */
export interface PluginInfo {
  id: string;
  name: string;
  registry: string;
  description: string | null;
  keywords: string[];
  /** Null when the plugin is known only from the state (a `local` install, a removed registry). */
  registryInfo: { name: string; kind: string; location: string } | null;
  distTags: Record<string, string>;
  /** Highest first. */
  versions: string[];
  deprecated: Record<string, string>;
  latest: LatestEntry | null;
  installed: InstalledInfo | null;
  warnings: RegistryWarning[];
  cacheOnly: string[];
}

/** The installed part of PluginInfo: the state record as `hookpm info` shows it. */
export function installedOf(record: PluginRecord): InstalledInfo {
  return {
    version: record.version,
    enabled: record.enabled,
    consented: hasCurrentConsent(record),
    integrity: record.integrity,
    surfaceHash: record.surfaceHash,
    events: record.events,
    source: record.source,
    installedAt: record.installedAt,
    updatedAt: record.updatedAt ?? record.installedAt,
    path: record.path,
    pendingVersion: record.pending?.version ?? null,
  };
}
