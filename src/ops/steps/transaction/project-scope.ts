import { existsSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { HookpmError } from '../../../errors.js';
import { withoutUserInfo } from '../../../registry/http/url-policy.js';
import { indexUrlOf } from '../../../registry/registry-location.js';
import type { RegistryRecord, State } from '../../../store/state/state-schema.js';
import { canonicalProjectRoot } from '../../../workspace/canonical-root.js';
import { isInside } from '../../../text/path-inside.js';
import { landingOf, realRootOf } from '../../../workspace/inside-root.js';
import { readProjectFiles, type ProjectFiles } from '../../../workspace/project-files.js';
import { readStateFast } from '../../../store/state/read-state-fast.js';
import { builtinRegistries } from '../../../store/builtin-registries.js';
import { effectiveRegistries, isShippedRegistry } from '../catalogs/defaults.js';
import type { OperationContext } from '../context/operation-context.js';
import type { ProjectInstallScope } from './install-scope.js';
import { checkProjectRegistries, type ProjectRegistries } from './project-registries.js';

/**
 * The project a command works on: `root`, the canonical S2 root of its working directory (its
 * real path, as workspace trust keys it, T2), where hookpm.json and hookpm.lock are; `key`, the
 * same root, which the state records the project's plugins under; the two files as read
 * (E_PROJECT_FILE when one cannot be parsed: nothing else happens then); `ctx`, the plugin
 * context whose registries include those hookpm.json lists; and `registries`, those registries as
 * checked (J3: E_REGISTRY_LOCATION before anything is read from one).
 */
export interface ProjectScope {
  root: string;
  key: string;
  files: ProjectFiles;
  ctx: OperationContext;
  registries: ProjectRegistries;
}

export async function openProject(ctx: OperationContext, cwd: string): Promise<ProjectScope> {
  const { root, key, files } = await readProject(cwd);
  const registries =
    files.manifest === null || Object.keys(files.manifest.registries).length === 0
      ? { locations: {}, onDisk: new Set<string>() }
      : checkProjectRegistries(root, files.manifest, await readStateFast(ctx.paths), ctx.defaults);
  return {
    root,
    key,
    files,
    ctx: withProjectRegistries(ctx, registries.locations, registries.marketplaces),
    registries,
  };
}

/**
 * The project's `root`, `key` and files as openProject reads them, its registries left unchecked:
 * for a command that reads no registry (`list --project`), which J3 then has nothing to refuse.
 */
export async function readProject(
  cwd: string,
): Promise<Pick<ProjectScope, 'root' | 'key' | 'files'>> {
  // T2: the files are read from the root the records are keyed under, the one runs and workspace
  // trust resolve `cwd` to: a `--cwd` through a symlink never reads one directory's hookpm.json
  // and hookpm.lock to change another project's records.
  const root = await canonicalProjectRoot(cwd);
  return { root, key: root, files: readProjectFiles(root) };
}

/**
 * The registries of hookpm.json, as checked (project-registries.ts), join the built-in ones for
 * this command (docs/guides/projects.md: a fresh clone needs no `registry add`); nothing is added
 * to the user's state. A registry the user configured under the same name takes precedence, as a
 * user-added registry replaces a built-in one (ops/steps/catalogs/defaults.ts), and a built-in
 * name is never redefined by a project. A project registry is an index registry, or a marketplace:
 * a directory inside the project (J10) or a git repository's URL (J12).
 */
export function withProjectRegistries(
  ctx: OperationContext,
  locations: Readonly<Record<string, string>>,
  marketplaces: ReadonlySet<string> = new Set(),
): OperationContext {
  if (Object.keys(locations).length === 0) return ctx;
  const defaults: Record<string, RegistryRecord> = { ...(ctx.defaults ?? builtinRegistries()) };
  for (const [name, location] of Object.entries(locations)) {
    // A project never redefines a built-in registry (`examples`): its ids mean what they mean.
    if (Object.hasOwn(defaults, name)) continue;
    const kind = marketplaces.has(name) ? 'marketplace' : 'index';
    defaults[name] = { location, kind, addedAt: '1970-01-01T00:00:00.000Z' };
  }
  return { ...ctx, defaults };
}

/** The index URL of the registry `name` as this command sees it; E_NOT_FOUND when there is none. */
export function indexUrlOfRegistry(ctx: OperationContext, state: State, name: string): string {
  const entry = effectiveRegistries(state, ctx.defaults).find((e) => e.name === name);
  if (entry === undefined || entry.record.kind !== 'index')
    throw new HookpmError('E_NOT_FOUND', `there is no index registry named ${name}`, {
      registry: name,
      hint: 'List the registry under "registries" in hookpm.json, or run `hookpm registry add`.',
    });
  return indexUrlOf(entry.record.location);
}

/**
 * The registries hookpm.json lists for `ids`: each non-built-in registry an id names, with the
 * location the user's state or hookpm.json gives it (built-in ones, such as `examples`, need none).
 * A directory inside the project `root` is written relative to it, as a teammate's clone reads it
 * (J3); a directory elsewhere names one machine, and a teammate's hookpm refuses it. A URL is
 * written without user and password (N5: the file is committed); a teammate whose registry needs
 * them adds it under the same name with theirs, which takes precedence.
 */
export function projectRegistriesOf(
  ctx: OperationContext,
  state: State,
  ids: readonly string[],
  root?: string,
): Record<string, string> {
  const entries = effectiveRegistries(state, ctx.defaults);
  const out: Record<string, string> = {};
  for (const id of ids) {
    const name = id.slice(id.lastIndexOf('@') + 1);
    const entry = entries.find((e) => e.name === name);
    if (entry === undefined) continue;
    if (!isShippedRegistry(name, entry.record.location))
      out[name] = relativeInside(withoutUserInfo(entry.record.location), root);
  }
  return out;
}

/** `location` relative to `root` when it is a directory path inside it (symlinks resolved). */
function relativeInside(location: string, root: string | undefined): string {
  if (root === undefined || !isAbsolute(location) || !existsSync(location)) return location;
  const realRoot = realRootOf(root);
  const landing = landingOf(location);
  if (landing === null || !isInside(realRoot, landing) || landing === realRoot) return location;
  return relative(realRoot, landing);
}

/** E_USAGE: the command needs a hookpm.json at the project root. */
export function noManifest(root: string): HookpmError {
  return new HookpmError('E_USAGE', `there is no hookpm.json at the project root ${root}`, {
    file: `${root}/hookpm.json`,
    hint: 'Add plugins to the project with `hookpm install --project <spec...>`.',
  });
}

/** The install scope of the opened project (transaction.ts) with what the command commits. */
export function installScopeOf(
  scope: ProjectScope,
  opts: Omit<ProjectInstallScope, 'kind' | 'root' | 'key'>,
): ProjectInstallScope {
  return { kind: 'project', root: scope.root, key: scope.key, ...opts };
}
