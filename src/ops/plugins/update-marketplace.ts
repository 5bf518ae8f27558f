import semver from '../../registry/versions/semver.js';
import type { PluginRecord } from '../../store/state/state-schema.js';
import type { RegistryEntry } from '../steps/catalogs/defaults.js';
import type { MarketplaceSource } from '../steps/staging/types.js';
import { UNKNOWN_VERSION } from '../steps/catalogs/marketplace-index.js';
import type { Catalog } from '../steps/catalogs/catalog-types.js';
import { ownValue } from '../../json/own-value.js';

/** `0.0.0-g<commit>` and `0.0.0-t<tree digest>` (fetch-marketplace.ts) name trees, in no order. */
const TREE_VERSION = /^0\.0\.0-[gt][0-9a-f]{12}$/;

/** Why a marketplace plugin stays: newest already, or the marketplace went back to a lower version. */
export interface MarketplaceStay {
  kind: 'stay';
  reason: 'current' | 'backwards';
  message: string;
}

/**
 * `hookpm update` for a plugin of a `marketplace` registry: the catalog (rebuilt by the update)
 * lists one version; the plugin stays when that is the installed version with the installed
 * integrity, or a lower version (unless `allowDowngrade`; versions made of a commit or tree digest
 * have no order, so any other one is a move); otherwise the marketplace plugin is
 * staged again (stage-marketplace.ts), within the recorded range or tag. A version the catalog
 * does not know (a remote source without a declared version) is staged and compared by files:
 * the install leaves an identical tree `unchanged`.
 */
export function planMarketplaceUpdate(
  record: PluginRecord,
  catalog: Catalog,
  entry: RegistryEntry,
  allowDowngrade: boolean,
): MarketplaceSource | MarketplaceStay {
  const listed = ownValue(catalog.index.plugins, record.name);
  const version = listed?.distTags['latest'] ?? UNKNOWN_VERSION;
  const integrity = listed?.versions[version]?.integrity ?? '';
  if (version !== UNKNOWN_VERSION) {
    if (version === record.version && (integrity === '' || integrity === record.integrity))
      return {
        kind: 'stay',
        reason: 'current',
        message: `${record.id} ${record.version} is what the marketplace ${entry.name} lists`,
      };
    const installed = semver.valid(record.version);
    const ordered = !TREE_VERSION.test(version) && !TREE_VERSION.test(record.version);
    if (!allowDowngrade && ordered && installed !== null && semver.lt(version, installed)) {
      return {
        kind: 'stay',
        reason: 'backwards',
        message: `${record.id}: the marketplace ${entry.name} lists ${version}, lower than the installed ${record.version}; not followed (--allow-downgrade follows it)`,
      };
    }
  }
  const source: MarketplaceSource = {
    kind: 'marketplace',
    spec: `${record.name}@${entry.name}`,
    path: `${record.name}@${entry.name}`,
    fallbackName: record.name,
    registry: entry.name,
    range: record.range,
    name: record.name,
    location: entry.record.location,
  };
  if (record.range !== '') {
    if (semver.validRange(record.range) !== null) source.wantRange = record.range;
    else source.wantTag = record.range;
  }
  return source;
}
