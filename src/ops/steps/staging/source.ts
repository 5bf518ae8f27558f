import { homedir } from 'node:os';
import { basename, isAbsolute, resolve } from 'node:path';
import { HookpmError } from '../../../errors.js';
import type { InstallSpec } from '../../../registry/versions/parse-spec.js';
import { redactUrl } from '../../../registry/http/url-policy.js';
import { statPathKind } from '../../../workspace/path-kind.js';
import type { NpmPluginRequest } from '../catalogs/fetch-npm.js';
import type { InstallSource, NpmSource } from './types.js';
import { clip } from '../../../text/clip.js';

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

/** Step 1 for the local kinds: a directory, a tarball file or a tarball URL. */
export async function resolveLocalSource(
  spec: Extract<InstallSpec, { kind: 'directory' | 'tarball-file' | 'tarball-url' }>,
  cwd: string,
): Promise<InstallSource> {
  if (spec.kind === 'tarball-url') {
    const url = redactUrl(spec.url);
    return {
      ...local(spec.raw, url, fallbackOf(new URL(spec.url).pathname)),
      kind: spec.kind,
      url: spec.url,
    };
  }
  const path = resolve(
    cwd,
    spec.path.startsWith('~/') ? `${homedir()}${spec.path.slice(1)}` : spec.path,
  );
  const kind = await statPathKind(path);
  if (kind === 'missing') {
    throw new HookpmError(
      'E_NOT_FOUND',
      `cannot install ${clip(spec.raw)}: ${clip(path)} does not exist`,
      {
        file: path,
        hint: 'Give the path of a plugin directory (one holding plugin.json, .claude-plugin/plugin.json or hooks/hooks.json) or of a plugin tarball (.tgz).',
      },
    );
  }
  if (spec.kind === 'tarball-file' && kind === 'file')
    return { ...local(spec.raw, path, fallbackOf(path)), kind: 'tarball-file', file: path };
  if (spec.kind === 'directory' && kind === 'directory')
    return { ...local(spec.raw, path, basename(path)), kind: 'directory' };
  const found =
    kind === 'directory' ? 'a directory' : kind === 'file' ? 'a file' : 'a special file';
  const expected = spec.kind === 'directory' ? 'a plugin directory' : 'a tarball file';
  throw new HookpmError(
    'E_USAGE',
    `cannot install ${clip(spec.raw)}: expected ${expected}, found ${found} at ${clip(path)}`,
    {
      file: path,
      hint: 'Give a plugin directory, or a tarball whose name ends in .tgz or .tar.gz.',
    },
  );
}

/** `npm:pkg[@range]`: the version is picked when staged (fetch-npm.ts). */
export function npmSource(
  spec: Extract<InstallSpec, { kind: 'npm' }>,
  includePrerelease: boolean,
): NpmSource {
  const request: NpmPluginRequest = { package: spec.package, includePrerelease };
  if (spec.range !== undefined) request.range = spec.range;
  if (spec.tag !== undefined) request.tag = spec.tag;
  const range = spec.range ?? spec.tag ?? '';
  return {
    kind: 'npm',
    spec: spec.raw,
    path: spec.raw,
    fallbackName: spec.package,
    registry: 'npm',
    range,
    request,
  };
}

function local(spec: string, path: string, fallbackName: string) {
  return { spec, path, fallbackName, registry: 'local' as const, range: '' };
}

/** `guard-1.2.0.tgz` -> `guard-1.2.0`: only used in messages before the manifest is read. */
function fallbackOf(path: string): string {
  return basename(path).replace(/\.(tgz|tar\.gz)$/i, '');
}
