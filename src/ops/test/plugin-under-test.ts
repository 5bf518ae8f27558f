import { mkdtempSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { HookpmError, isHookpmError } from '../../errors.js';
import { readTarballFile } from '../../registry/cache-tarball.js';
import { LOCAL_REGISTRY } from '../../registry/registry-name.js';
import { isTarballPath } from '../../registry/versions/parse-spec.js';
import type { Capabilities } from '../../plugin/capabilities.js';
import { installedRegistry, type PolicyRegistry } from '../../policy/policy-rules.js';
import { registryLocationIn } from '../../store/builtin-registries.js';
import { readState } from '../../store/state/state.js';
import type { StorePaths } from '../../store/store-paths.js';
import { extractTarball, scanTarball, tarballInput } from '../../store/tar/tarball-scan.js';
import { inspectPluginDir, type InspectedPlugin } from '../steps/staging/inspect.js';
import { findInstalled } from '../steps/installed/installed.js';
import { stateIn, USER_RECORDS, type RecordScope } from '../steps/installed/project-records.js';
import { clip } from '../../text/clip.js';
import type { Diagnostic } from '../../hooks/diagnostic.js';
import { installedTamper } from './installed-tamper.js';

/** A plugin read for `hookpm test`: from a directory, a tarball or the installed trees. */
export interface PluginUnderTest {
  kind: 'directory' | 'tarball' | 'installed';
  /** The plugin's root as its handlers see it (CLAUDE_PLUGIN_ROOT). */
  root: string;
  inspected: InspectedPlugin;
  /**
   * Its registry as the administrator's policy matches it (policy.md A12): `local` for a directory
   * or a tarball; an installed plugin's registry with the location its record kept, else its
   * location in the state.
   */
  registry: PolicyRegistry;
  /** An installed plugin's confinement from the user's consent (`enable --confine`, Z4); else null. */
  confine: Capabilities | null;
  /**
   * An installed plugin whose tree a snapshot would leave out (Q6, installed-tamper.ts); else
   * null.
   */
  tampered: Diagnostic | null;
  /** Removes what reading it made (a tarball's extracted tree). */
  dispose: () => Promise<void>;
}

/**
 * Finds `target`: a directory (read where it is), a `.tgz`/`.tar.gz` file (scanned and extracted
 * into a scratch directory under the system's temporary directory, A1-A3, removed by `dispose`),
 * else the name or id of a plugin installed in `scope` (user-wide, or the project's with
 * `--project`; its installed tree, read only). Nothing of the store changes. E_NOT_INSTALLED when
 * it is none of these.
 */
export async function readPluginUnderTest(
  target: string,
  cwd: string,
  paths: StorePaths,
  scope: RecordScope = USER_RECORDS,
): Promise<PluginUnderTest> {
  const path = resolve(cwd, target);
  const kind = kindOf(path);
  const none = async (): Promise<void> => undefined;
  if (kind === 'directory') {
    const inspected = await inspectPluginDir(path, {
      fallbackName: basename(path),
      registry: LOCAL_REGISTRY,
    });
    return {
      kind,
      root: path,
      inspected,
      registry: LOCAL,
      confine: null,
      tampered: null,
      dispose: none,
    };
  }
  if (kind === 'file' && isTarballPath(path)) return fromTarball(path);
  try {
    const state = await readState(paths);
    const record = findInstalled(stateIn(state, scope), target);
    const inspected = await inspectPluginDir(record.path, {
      fallbackName: record.name,
      registry: record.registry,
    });
    return {
      kind: 'installed',
      root: record.path,
      inspected,
      registry: installedRegistry(record, registryLocationIn(state, record.registry)),
      confine: record.consent?.confine ?? null,
      tampered: await installedTamper(paths, record, inspected.id),
      dispose: none,
    };
  } catch (error) {
    if (!isHookpmError(error, 'E_NOT_INSTALLED')) throw error;
    throw new HookpmError(
      'E_NOT_INSTALLED',
      `${clip(target)} is not a plugin directory, a plugin tarball (.tgz) or an installed plugin`,
      {
        name: target,
        hint: 'Name a plugin directory (`hookpm init` makes one), a .tgz file, or an installed plugin (`hookpm list`).',
      },
    );
  }
}

/** A directory's or a tarball's registry: `local`, matched by its name (A12). */
const LOCAL: PolicyRegistry = { name: LOCAL_REGISTRY, location: LOCAL_REGISTRY };

function kindOf(path: string): 'directory' | 'file' | null {
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : null;
  } catch {
    return null;
  }
}

async function fromTarball(file: string): Promise<PluginUnderTest> {
  const scratch = mkdtempSync(join(tmpdir(), 'hookpm-test-'));
  const dispose = (): Promise<void> => rm(scratch, { recursive: true, force: true });
  try {
    const { bytes } = await readTarballFile(file);
    const input = tarballInput(file, bytes);
    const listing = await scanTarball(input);
    const root = join(scratch, 'package');
    await extractTarball(input, root, listing);
    const name = basename(file).replace(/(-\d[^/]*)?\.(tgz|tar\.gz)$/, '');
    const inspected = await inspectPluginDir(root, {
      fallbackName: name,
      registry: LOCAL_REGISTRY,
    });
    return {
      kind: 'tarball',
      root,
      inspected,
      registry: LOCAL,
      confine: null,
      tampered: null,
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}
