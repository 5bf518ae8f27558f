import { HookpmError } from '../errors.js';

/** docs/reference/rules/registry.md#registry-kinds: the name of a registry. */
export const REGISTRY_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** D1b: the registry of plugins installed from a directory, a tarball file or a tarball URL. */
export const LOCAL_REGISTRY = 'local';

/** Throws E_NAME_INVALID unless `name` is a registry name a user may add (`local` is reserved). */
export function checkRegistryName(name: string): string {
  if (!REGISTRY_NAME_PATTERN.test(name)) {
    throw new HookpmError(
      'E_NAME_INVALID',
      `the registry name ${JSON.stringify(name.slice(0, 80))} is not valid: expected ^[a-z0-9][a-z0-9._-]{0,63}$`,
      {
        name,
        hint: 'Use lowercase letters, digits, ".", "_" and "-", starting with a letter or digit.',
      },
    );
  }
  if (name === LOCAL_REGISTRY) {
    throw new HookpmError(
      'E_NAME_INVALID',
      'the registry name "local" is reserved for plugins installed from a directory, a tarball or a URL',
      { name, hint: 'Choose another name for the registry.' },
    );
  }
  return name;
}
