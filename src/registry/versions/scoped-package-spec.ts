import { isNpmPackageName } from '../name-rules.js';

/**
 * The `npm:` form of a spec that starts with a scoped npm package (`@scope/name`, as npm takes
 * it) where a plugin name goes, or null for any other spec. The range or tag after the package is
 * kept; a name of `registries` after it (`@acme/guard@npm`, `@acme/guard@corp@^1`) is dropped, as
 * a scoped package is asked for at its `@scope:registry` (docs/reference/rules/registry.md#k4).
 */
export function scopedPackageForm(
  spec: string,
  registries: readonly string[],
): { package: string; form: string } | null {
  if (!spec.startsWith('@')) return null;
  const at = spec.indexOf('@', 1);
  const pkg = at === -1 ? spec : spec.slice(0, at);
  if (!isNpmPackageName(pkg)) return null;
  const rest = at === -1 ? [] : spec.slice(at + 1).split('@');
  const range = rest.length === 1 && registries.includes(rest[0] ?? '') ? undefined : rest.at(-1);
  const form = range === undefined || range === '' ? `npm:${pkg}` : `npm:${pkg}@${range}`;
  return { package: pkg, form };
}
