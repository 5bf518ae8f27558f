import { HookpmError } from '../../errors.js';
import type { State } from './state-schema.js';
import { STATE_VERSION } from './state-version.js';
import { checkedEntry } from './checked-entry.js';
import { quickStateOf } from './quick-state.js';
import { findKeyProblem } from './state-keys.js';
import { lazyEntriesOf, lazyRecords } from './lazy-records.js';
import type { EntrySpans } from './lazy-records.js';
import { scanStateLines } from './scan-state-lines.js';
import type { FileRange } from '../../io/file-range.js';

/*
 * registry.md S42: the state read entry by entry, for a transaction that touches a few plugins
 * of thousands. The one-line sections (registries, projects, removedDefaults) are parsed and
 * checked at once; `plugins` and `knownIntegrity` are lazy records (lazy-records.ts) whose entries
 * are parsed and checked, by the same structural check as a whole document, when first read. Only
 * bytes hookpm wrote itself are read so (state-seal.ts): an entry never read is then known to pass
 * the check it passed when it was written.
 */

/**
 * The state in `bytes` read entry by entry, or null when they are not in hookpm's layout
 * (state-lines.ts) or their one-line sections fail the check: the caller reads them whole, which
 * says what is wrong. `corrupt` makes the error for an entry that fails its check when read.
 * `file`: the open file `bytes` were read from, scanned a piece at a time instead of `bytes`, so
 * that no more of `bytes` than the entries read is ever looked at (their pages cost a fault each
 * at their first reading, file-range.ts); the caller makes sure it still holds those bytes.
 */
export function lazyStateOf(
  bytes: Buffer,
  corrupt: (where: string) => HookpmError,
  file?: FileRange,
): State | null {
  const found = scanStateLines(file ?? bytes);
  if (found === null || found.version !== STATE_VERSION) return null;
  const head: Record<string, unknown> = { version: found.version, plugins: {} };
  try {
    for (const [section, text] of Object.entries(found.lines)) head[section] = JSON.parse(text);
  } catch {
    return null;
  }
  const state = quickStateOf(head);
  if (state === null || findKeyProblem(state) !== null) return null;
  state.plugins = records(bytes, found.entries.plugins!, 'plugins', corrupt);
  const known = found.entries.knownIntegrity;
  if (known !== undefined) state.knownIntegrity = records(bytes, known, 'knownIntegrity', corrupt);
  return state;
}

function records<T>(
  bytes: Buffer,
  found: EntrySpans,
  section: 'plugins' | 'knownIntegrity',
  corrupt: (where: string) => HookpmError,
): Record<string, T> {
  return lazyRecords<T>(
    bytes,
    found,
    (value, key) => checkedEntry<T>(section, key, value),
    (key) => corrupt(`${section}.${JSON.stringify(key)}`),
  );
}

/**
 * The part of `state` a write must check (serializeState's assertion): all of a whole state; of a
 * state read entry by entry, its one-line sections and the entries read or set (the others are
 * written back as the bytes they were read from).
 */
export function writtenPart(state: State): State {
  const plugins = lazyEntriesOf(state.plugins);
  const known =
    state.knownIntegrity === undefined ? undefined : lazyEntriesOf(state.knownIntegrity);
  if (plugins === undefined && known === undefined) return state;
  const part: State = {
    ...state,
    plugins: plugins === undefined ? state.plugins : touched(plugins.values),
  };
  if (state.knownIntegrity !== undefined)
    part.knownIntegrity = known === undefined ? state.knownIntegrity : touched(known.values);
  return part;
}

function touched<T>(values: ReadonlyMap<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, value] of values)
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}
