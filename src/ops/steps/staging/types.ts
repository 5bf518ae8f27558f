/**
 * The values the steps of the install transaction
 * (docs/reference/rules/registry.md#install-transaction) hand each other: a resolved source (step
 * 1) and a staged plugin (steps 2-4). Every step imports them from here, so no stager (stage-*.ts)
 * imports stage.ts, which dispatches to it.
 */
import type { TreeEntry } from '../../../store/fingerprint.js';
import type { StorePaths } from '../../../store/store-paths.js';
import type { OperationContext } from '../context/operation-context.js';
import type { NpmPluginRequest } from '../catalogs/fetch-npm.js';
import type { InspectedPlugin } from './inspect.js';

/**
 * Where an install spec points (docs/reference/rules/cli.md#commands), resolved: each kind has its
 * own staging step (stage.ts). Common fields: `spec` as typed, `path` what the state records as the
 * plugin's `source` (a path, a redacted URL, or a spec that reinstalls the same version),
 * `fallbackName` the name to use when a local directory has no manifest (P1), `registry` the id's
 * registry, and `range` what `hookpm update` stays within ('' for a local source).
 */
export interface SourceCommon {
  spec: string;
  path: string;
  fallbackName: string;
  registry: string;
  range: string;
}

/** D1b: a plugin directory; belongs to the registry `local`. */
export interface DirectorySource extends SourceCommon {
  kind: 'directory';
  registry: 'local';
}

/** D1b: `./file.tgz`; belongs to `local`. `file` is absolute. */
export interface TarballFileSource extends SourceCommon {
  kind: 'tarball-file';
  registry: 'local';
  file: string;
}

/** D1b: `https://.../x.tgz` (or loopback http); belongs to `local`. */
export interface TarballUrlSource extends SourceCommon {
  kind: 'tarball-url';
  registry: 'local';
  url: string;
}

/** A version picked from an index registry (V1-V3): what the downloaded tarball must be (I3). */
export interface RegistrySource extends SourceCommon {
  kind: 'registry';
  name: string;
  version: string;
  /** Absolute tarball URL, resolved against the index URL. */
  url: string;
  integrity: string;
  /** The index entry's `size`, checked while the tarball streams in. */
  size?: number;
  events?: string[];
  surfaceHash?: string;
  deprecated?: string;
}

/** `npm:<pkg>[@range|@tag]` (docs/reference/rules/registry.md#registry-kinds): resolved and fetched when staged; id `<name>@npm`. */
export interface NpmSource extends SourceCommon {
  kind: 'npm';
  registry: 'npm';
  request: NpmPluginRequest;
  /**
   * `<pkg>@<registry>` naming a registry of kind `npm`: that registry, whose location
   * `request.registry` is. The policy judges it (policy.md A12) as well as `npm`, the plugin's id.
   */
  via?: string;
}

/**
 * A plugin of a `marketplace` registry (docs/reference/rules/registry.md#registry-kinds), installed
 * by name. A marketplace lists one version of each plugin, so it is staged from the marketplace as
 * it is when installing (read again, cloned again for a git repository), and the version and
 * integrity are the staged ones (fetch-marketplace.ts: the manifest's, else the entry's, else
 * `0.0.0-g<commit>` / `0.0.0-t<tree digest>`; the packed-tree sha512). `path` (the recorded source)
 * is `<name>@<registry>`, the spec that installs it again.
 */
export interface MarketplaceSource extends SourceCommon {
  kind: 'marketplace';
  /** The entry's name in the marketplace. */
  name: string;
  /** The registry's recorded location. */
  location: string;
  /** A range the staged version must satisfy (prereleases included: `0.0.0-g...` versions are). */
  wantRange?: string;
  /** A dist-tag asked for: a marketplace has only `latest`. */
  wantTag?: string;
  /** For a git marketplace: the commit its repository is read at (a project's lock, J12). */
  commit?: string;
  /**
   * For an entry whose own source is a git repository: the commit that repository is cloned at
   * (a project's lock, registry.md J13); once staged, the commit it was cloned at.
   */
  entryCommit?: string;
}

export type InstallSource =
  | DirectorySource
  | TarballFileSource
  | TarballUrlSource
  | RegistrySource
  | NpmSource
  | MarketplaceSource;

/** A validated copy of a plugin in staging, ready to be promoted (docs/reference/rules/registry.md#install-transaction, steps 2-4). */
export interface StagedPlugin {
  /** The source, with `path` and `range` final (an npm source knows its version only now). */
  source: InstallSource;
  /** The staging directory holding the copy. */
  dir: string;
  inspected: InspectedPlugin;
  /** Q6: the files fingerprint of the copy, as it will be installed. */
  fingerprint: string;
  /** The entries the fingerprint is computed over (store/fingerprint.ts listTree). */
  files?: readonly TreeEntry[];
  /**
   * What names the installed tree: the sha512 SRI of the tarball it came from (verified), or, for
   * a directory, which has no published tarball, its files fingerprint (`sha256-` + base64 of the
   * SHA-256 over the sorted (path, content hash, mode) list): the same tree always gets the same
   * integrity and the same versioned directory.
   */
  integrity: string;
  /**
   * The deprecation message of a version picked only while staging (an npm package, also as a
   * marketplace's source): registry.md V2's warning is given for it (stagedNotes).
   */
  deprecated?: string;
}

/** What staging needs besides the source: the store, the network settings, progress. */
export interface StageEnv {
  ctx: OperationContext;
  cwd: string;
  /** `--force-integrity-change`: V3 is not checked. */
  acceptIntegrityChange?: boolean;
}

/**
 * Where a source is staged: a fresh staging directory of the store, or `into`, which must not exist
 * yet (a dry run's own directory).
 */
export type StageTarget = { paths: StorePaths } | { into: string };
