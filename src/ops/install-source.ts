import { basename, isAbsolute, resolve } from 'node:path';
import { HookpmError } from '../errors.js';
import { copyPluginTree } from '../store/copy-tree.js';
import { statPathKind } from '../workspace/path-kind.js';

/**
 * Where an install spec points (cli.md section 2). Only directories exist today; a tarball file, a
 * URL or a registry name become further kinds, each with its own `stage` step below.
 */
export interface DirectorySource {
  kind: 'directory';
  /** The spec as the user typed it. */
  spec: string;
  /** The absolute directory, recorded as the plugin's `source`. */
  path: string;
  /** P1: the plugin's name when its manifest gives none. */
  fallbackName: string;
  /** D1b: a directory's plugins belong to the registry `local`. */
  registry: 'local';
}

export type InstallSource = DirectorySource;

/** A spec is a path when it starts with `./`, `../`, `/` (or is `.`/`..`): never a registry name. */
export function isPathSpec(spec: string): boolean {
  return (
    spec === '.' ||
    spec === '..' ||
    spec.startsWith('./') ||
    spec.startsWith('../') ||
    isAbsolute(spec)
  );
}

/** Step 1 of the install transaction (registry.md section 7): resolve the spec to a source. */
export async function resolveInstallSource(spec: string, cwd: string): Promise<InstallSource> {
  if (!isPathSpec(spec)) {
    throw new HookpmError(
      'E_USAGE',
      `cannot install ${JSON.stringify(spec)}: installing by name from a registry is not available in this build`,
      {
        spec,
        hint: `To install a plugin directory, give its path starting with ./ (for example \`hookpm install ./${spec}\`).`,
      },
    );
  }
  const path = resolve(cwd, spec);
  const kind = await statPathKind(path);
  if (kind === 'directory')
    return { kind: 'directory', spec, path, fallbackName: basename(path), registry: 'local' };
  if (kind === 'missing') {
    throw new HookpmError('E_NOT_FOUND', `cannot install ${spec}: ${path} does not exist`, {
      file: path,
      hint: 'Give the path of a plugin directory (one holding plugin.json, .claude-plugin/plugin.json or hooks/hooks.json).',
    });
  }
  throw new HookpmError(
    'E_USAGE',
    `cannot install ${spec}: expected a plugin directory, found a ${kind === 'file' ? 'file' : 'special file'} at ${path}`,
    {
      file: path,
      hint: 'Installing a tarball file is not available in this build; give the plugin directory.',
    },
  );
}

/** Step 3: puts a copy of the source's tree into the empty directory `into`. */
export async function stageSource(source: InstallSource, into: string): Promise<void> {
  await copyPluginTree(source.path, into);
}
