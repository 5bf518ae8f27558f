/**
 * Install specs (cli.md `hookpm install`, registry.md V1), parsed into a discriminated union.
 * Paths are returned as given; the caller resolves them against its working directory.
 */
import semver from './semver.js';
import { withSuggestion } from '../../text/did-you-mean.js';
import { HookpmError } from '../../errors.js';
import {
  lowerCaseNames,
  lowerCaseSuggestion,
  PLUGIN_NAME_PATTERN as PLUGIN_NAME,
} from '../../plugin/name.js';
import { DIST_TAG_PATTERN, isNpmPackageName } from '../name-rules.js';
import { checkUrl } from '../http/url-policy.js';
import { showTypedLocation } from '../registry-location.js';
import { clip } from '../../text/clip.js';
import { scopedPackageForm } from './scoped-package-spec.js';

export type InstallSpec =
  | {
      kind: 'registry';
      raw: string;
      name: string;
      /** Set by `name@registry` or `name@registry@range`. */
      registry?: string;
      /** An npm semver range (an exact version is a range too). */
      range?: string;
      /** A dist-tag such as `latest` or `beta`. */
      tag?: string;
    }
  | { kind: 'directory'; raw: string; path: string }
  | { kind: 'tarball-file'; raw: string; path: string }
  | { kind: 'tarball-url'; raw: string; url: string }
  | { kind: 'npm'; raw: string; package: string; range?: string; tag?: string };

const TARBALL = /\.(tgz|tar\.gz)$/i;

/** A path or URL that names a tarball (`.tgz`, `.tar.gz`) rather than a plugin directory. */
export function isTarballPath(path: string): boolean {
  return TARBALL.test(path);
}

/**
 * Parses one spec. `registries` are the names of the configured registries: in `name@x`, a known
 * registry name wins over a range or tag of the same spelling.
 */
export function parseInstallSpec(spec: string, registries: readonly string[]): InstallSpec {
  const raw = spec;
  if (spec.trim() === '' || /[\u0000-\u001f\u007f]/.test(spec)) {
    throw usage(spec, 'is empty or contains control characters');
  }
  if (isLocalPath(spec)) {
    return TARBALL.test(spec)
      ? { kind: 'tarball-file', raw, path: spec }
      : { kind: 'directory', raw, path: spec };
  }
  if (/^file:/i.test(spec)) return fileUrlSpec(spec);
  if (/^https?:\/\//i.test(spec)) {
    checkUrl(spec, 'tarball');
    return { kind: 'tarball-url', raw, url: spec };
  }
  if (spec.startsWith('npm:')) return npmSpec(spec);
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(spec)) {
    // A URL, or one typed without its `://` (`bob:pw@host/x.tgz`): named as registry add names
    // a location, without its user part (registry.md N5).
    throw usage(spec, 'uses a source hookpm does not install from', showTypedLocation(spec));
  }
  return registrySpec(spec, registries);
}

function isLocalPath(spec: string): boolean {
  return spec === '.' || spec === '..' || /^(\.{1,2}\/|\/|~\/)/.test(spec);
}

function fileUrlSpec(spec: string): InstallSpec {
  let path: string;
  try {
    path = decodeURIComponent(new URL(spec).pathname);
  } catch {
    throw usage(spec, 'is not a valid file URL');
  }
  return TARBALL.test(path)
    ? { kind: 'tarball-file', raw: spec, path }
    : { kind: 'directory', raw: spec, path };
}

function npmSpec(spec: string): InstallSpec {
  const body = spec.slice('npm:'.length);
  const at = body.indexOf('@', body.startsWith('@') ? 1 : 0);
  const pkg = at === -1 ? body : body.slice(0, at);
  if (!isNpmPackageName(pkg)) {
    throw new HookpmError(
      'E_NAME_INVALID',
      `install spec ${quote(spec)}: ${quote(pkg)} is not an npm package name`,
      {
        spec,
      },
    );
  }
  if (at === -1) return { kind: 'npm', raw: spec, package: pkg };
  return { kind: 'npm', raw: spec, package: pkg, ...rangeOrTag(spec, body.slice(at + 1)) };
}

function registrySpec(spec: string, registries: readonly string[]): InstallSpec {
  const parts = spec.split('@');
  const name = parts[0] ?? '';
  const scoped = scopedPackageForm(spec, registries);
  if (scoped !== null) {
    throw new HookpmError(
      'E_NAME_INVALID',
      `install spec ${quote(spec)}: ${quote(scoped.package)} is a scoped npm package, not a plugin name`,
      {
        spec,
        hint: `Install it with \`hookpm install ${clip(scoped.form)}\`: a scoped package is asked for at its @scope:registry (.npmrc), else at the npm registry.`,
      },
    );
  }
  if (!PLUGIN_NAME.test(name)) {
    // A name holding a URL typed without its `://` (`https//bob:pw@host/x.tgz`) is not quoted:
    // the spec is, without its user part (registry.md N5).
    const shown = showTypedLocation(spec);
    const named =
      shown === clip(spec)
        ? `${quote(spec)}: ${quote(name)}`
        : `${JSON.stringify(shown)}: its name`;
    throw new HookpmError(
      'E_NAME_INVALID',
      `install spec ${named} is not a valid plugin name (^[a-z0-9][a-z0-9._-]{0,63}$)`,
      {
        spec,
        suggestions: lowerCaseNames(name),
        hint: withSuggestion(
          lowerCaseSuggestion(name),
          'Plugin names are lower-case ASCII letters, digits, `.`, `_` and `-`; use ./dir for a path.',
        ),
      },
    );
  }
  // No range, tag or registry name holds `://`; a URL's parts are never quoted one by one, where
  // redact would not know a password from them (registry.md N5).
  if (spec.includes('://'))
    throw usage(
      spec,
      'names a registry by URL: add it with `hookpm registry add <name> <url>`, then install name@<name>',
    );
  if (parts.length > 3) throw usage(spec, 'has more than two `@`; expected name@registry@range');
  const [, second, third] = parts;
  if (second === undefined) return { kind: 'registry', raw: spec, name };
  if (third !== undefined) {
    if (!PLUGIN_NAME.test(second))
      throw usage(spec, `names the registry ${quote(second)}, which is not a valid registry name`);
    return { kind: 'registry', raw: spec, name, registry: second, ...rangeOrTag(spec, third) };
  }
  if (registries.includes(second)) return { kind: 'registry', raw: spec, name, registry: second };
  return {
    kind: 'registry',
    raw: spec,
    name,
    ...rangeOrTag(spec, second, ', nor a registry you have added'),
  };
}

function rangeOrTag(spec: string, text: string, also = ''): { range: string } | { tag: string } {
  if (text === '') throw usage(spec, 'ends with `@`; expected a range or tag after it');
  if (semver.validRange(text) !== null) return { range: text };
  if (DIST_TAG_PATTERN.test(text)) return { tag: text };
  throw usage(spec, `has ${quote(text)}, which is neither a semver range nor a dist-tag${also}`);
}

/** E_USAGE naming `spec` as `shown` (cut short) says: `spec` as given, unless told otherwise. */
function usage(spec: string, what: string, shown = clip(spec)): HookpmError {
  return new HookpmError('E_USAGE', `install spec ${JSON.stringify(shown)} ${what}`, {
    spec,
    hint: 'Forms: name, name@range, name@tag, name@registry[@range], ./dir, ./file.tgz, https://.../x.tgz, npm:pkg[@range].',
  });
}

/** `text` quoted as a message may show it: an install spec is any length (clip). */
function quote(text: string): string {
  return JSON.stringify(clip(text));
}
