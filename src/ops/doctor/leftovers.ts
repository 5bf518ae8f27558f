import type { Leftover, LeftoverKind } from '../../store/collect.js';
import { plural, problem, okCheck, type DoctorCheck } from './check.js';

export { findLeftovers } from '../../store/collect.js';
export type { Leftover, LeftoverKind } from '../../store/collect.js';

/** The `leftovers` check: a warning listing them, fix `hookpm doctor --fix` (or any install). */
export function checkLeftovers(all: readonly Leftover[], stateKnown: boolean): DoctorCheck {
  // A mark (registry.md S41) is no problem: it only asks the next collection to walk every tree.
  const found = all.filter((l) => l.kind !== 'mark');
  const unknown = stateKnown ? '' : ' (installed trees were not judged: the state cannot be read)';
  if (found.length === 0)
    return okCheck('leftovers', `no leftovers of interrupted commands${unknown}`);
  const count = (kind: LeftoverKind): number => found.filter((l) => l.kind === kind).length;
  const parts = [
    count('staging') > 0 ? plural(count('staging'), 'staging tree') + ' of stopped commands' : '',
    count('unreferenced-tree') > 0
      ? plural(count('unreferenced-tree'), 'installed tree') + ' no plugin uses'
      : '',
    count('temporary-file') > 0 ? plural(count('temporary-file'), 'temporary file') : '',
    count('installed-files') > 0
      ? plural(count('installed-files'), 'installed-files list') + ' no plugin uses'
      : '',
  ].filter((part) => part !== '');
  const shown = found.slice(0, MAX_SHOWN).map((l) => l.path);
  const more = found.length > MAX_SHOWN ? ` and ${found.length - MAX_SHOWN} more` : '';
  const check = problem(
    'leftovers',
    'warning',
    `${parts.join(', ')}${unknown}: ${shown.join(', ')}${more}`,
    {
      code: 'leftovers',
      fix: '`hookpm doctor --fix` collects them (so does the next uninstall, rollback or enable)',
    },
  );
  return { ...check, paths: found.map((l) => l.path) };
}

/** How many leftover paths the message names; `paths` holds them all. */
const MAX_SHOWN = 5;
