import { HookpmError } from '../../../errors.js';
import type { PluginRecord, State } from '../../../store/state/state-schema.js';
import { ownValue } from '../../../json/own-value.js';
import { suggestIn } from '../../../text/did-you-mean.js';
import { showTypedLocation } from '../../../registry/registry-location.js';
import { npmPackageOf } from './npm-package.js';

/**
 * The installed plugin a user names: an id (`name@registry`), a bare name that exactly one
 * installed plugin has, or `npm:<package>` as it was installed (npm-package.ts).
 * E_NOT_INSTALLED when none has it (suggesting the installed names close to it), E_AMBIGUOUS when
 * several registries do.
 */
export function findInstalled(state: State, nameOrId: string): PluginRecord {
  const exact = ownValue(state.plugins, nameOrId);
  if (exact !== undefined) return exact;
  if (nameOrId.startsWith('npm:')) {
    const pkg = nameOrId.slice('npm:'.length);
    const installed = Object.values(state.plugins).find((p) => npmPackageOf(p) === pkg);
    if (installed !== undefined) return installed;
  }
  const named = Object.values(state.plugins).filter((p) => p.name === nameOrId);
  if (named.length === 1) return named[0] as PluginRecord;
  if (named.length > 1) {
    const ids = named.map((p) => p.id).sort();
    throw new HookpmError(
      'E_AMBIGUOUS',
      `${nameOrId} names ${ids.length} installed plugins: ${ids.join(', ')}`,
      {
        name: nameOrId,
        ids,
        hint: `Name one by its id, for example \`${ids[0]}\`.`,
      },
    );
  }
  const records = Object.values(state.plugins);
  // N5: a URL typed where a name goes keeps its password out of the message.
  const shown = showTypedLocation(nameOrId);
  throw suggestIn(
    new HookpmError('E_NOT_INSTALLED', `no installed plugin is named ${JSON.stringify(shown)}`, {
      name: shown,
      hint: 'Run `hookpm list` to see the installed plugins.',
    }),
    nameOrId,
    nameOrId.includes('@') ? records.map((p) => p.id) : records.map((p) => p.name),
  );
}
