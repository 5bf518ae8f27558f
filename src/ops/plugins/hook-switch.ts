import { HookpmError } from '../../errors.js';
import { HOOK_KEY_LENGTH, isHookKeyForm } from '../../plugin/hook-key.js';
import type { SurfaceEntry } from '../../plugin/surface.js';
import { updateState } from '../../store/state/state.js';
import type { PluginRecord } from '../../store/state/state-schema.js';
import { inspectPluginDir } from '../steps/staging/inspect.js';
import { lockOptions, type OperationContext } from '../steps/context/operation-context.js';
import { findInstalled } from '../steps/installed/installed.js';
import {
  assertProjectHasRecords,
  stateIn,
  USER_RECORDS,
  type RecordScope,
} from '../steps/installed/project-records.js';
import { requireNotRequired } from '../steps/policy/enforce-policy.js';

/** One hook `enable --hook` or `disable --hook` named, as it is now. */
export interface SwitchedHook {
  key: string;
  /** Its entries in the active (else the pending) surface; empty for a lapsed opt-out. */
  entries: Array<Pick<SurfaceEntry, 'event' | 'matcher' | 'command' | 'argv' | 'source'>>;
  off: boolean;
  /** false when it was already so. */
  changed: boolean;
}

export interface HookSwitchResult {
  id: string;
  /** The plugin's own switch, which `--hook` never changes. */
  enabled: boolean;
  hooks: SwitchedHook[];
  /** The plugin's opt-outs after the command. */
  disabledHooks: string[];
}

/**
 * `hookpm disable <plugin> --hook <key>` (`off`) and `hookpm enable <plugin> --hook <key>`: turns
 * single hooks off or back on (docs/guides/installing-plugins.md#consent), by the keys `review` and
 * `hooks` show. A key must name a hook of the installed version or of its pending update (so a hook
 * can be turned off before an update is approved); turning back on also takes a lapsed key. Consent
 * is untouched: a hook turned back on runs under the consent already given. A key of another form,
 * or one that names no hook, fails (E_USAGE, E_NOT_FOUND) with the state unchanged; so does turning
 * off a hook of a plugin the administrator's policy requires (E_POLICY, policy.md A14). `scope`:
 * the plugin installed for a project (`--project`) instead of the user-wide one; each install keeps
 * its own opt-outs, as it keeps its own switch.
 */
export function switchHooks(
  ctx: OperationContext,
  opts: { name: string; keys: readonly string[]; off: boolean; scope?: RecordScope },
): Promise<HookSwitchResult> {
  const scope = opts.scope ?? USER_RECORDS;
  return updateState(
    ctx.paths,
    async (draft) => {
      assertProjectHasRecords(draft, scope);
      const record = findInstalled(stateIn(draft, scope), opts.name);
      // docs/reference/rules/policy.md#a14: no hook of a plugin the policy requires is turned off.
      if (opts.off) requireNotRequired(ctx, 'turning off hooks of', record);
      const known = await hooksByKey(record);
      const disabled = new Set(record.disabledHooks ?? []);
      const hooks = opts.keys.map((key) => {
        checkKey(record, key, known.has(key) || (!opts.off && disabled.has(key)));
        const changed = disabled.has(key) !== opts.off;
        if (opts.off) disabled.add(key);
        else disabled.delete(key);
        return { key, entries: known.get(key) ?? [], off: opts.off, changed };
      });
      const next = [...disabled].sort();
      if (next.length === 0) delete record.disabledHooks;
      else record.disabledHooks = next;
      return { id: record.id, enabled: record.enabled, hooks, disabledHooks: next };
    },
    lockOptions(ctx),
  );
}

/** The hooks of the active tree and of the pending update, by key. */
async function hooksByKey(record: PluginRecord): Promise<Map<string, SwitchedHook['entries']>> {
  const trees = [record.path, ...(record.pending === null ? [] : [record.pending.path])];
  const found = new Map<string, SwitchedHook['entries']>();
  for (const root of trees) {
    const inspected = await inspectPluginDir(root, {
      fallbackName: record.name,
      registry: record.registry,
    }).catch(() => null);
    const here = new Map<string, SwitchedHook['entries']>();
    for (const { key, event, matcher, command, argv, source } of inspected?.surface.entries ?? [])
      here.set(key, [...(here.get(key) ?? []), { event, matcher, command, argv, source }]);
    for (const [key, entries] of here) if (!found.has(key)) found.set(key, entries);
  }
  return found;
}

function checkKey(record: PluginRecord, key: string, known: boolean): void {
  const hint = `Run \`hookpm review ${record.id}\` to see each hook's key.`;
  if (!isHookKeyForm(key))
    throw new HookpmError(
      'E_USAGE',
      `${JSON.stringify(key)} is not a hook key: a key is ${HOOK_KEY_LENGTH} hex digits`,
      { plugin: record.id, key, hint },
    );
  if (!known)
    throw new HookpmError(
      'E_NOT_FOUND',
      `${record.id} ${record.version} has no hook with the key ${key}${record.pending === null ? '' : ` (nor has its pending update ${record.pending.version})`}`,
      { plugin: record.id, key, hint },
    );
}
