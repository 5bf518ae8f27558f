import { HookpmError } from '../../../errors.js';

/**
 * E_USAGE: a project cannot hold the plugin `id` (docs/guides/projects.md: J10, J12, J13), for
 * `why`; `hint` says what a project can hold of that kind.
 */
export function cannotHold(id: string, why: string, hint: string): HookpmError {
  return new HookpmError('E_USAGE', `${id}: a project cannot hold this plugin: ${why}`, {
    plugin: id,
    hint,
  });
}
