import { isHookpmError } from '../../../errors.js';
import { describeValue } from '../../../json/describe-value.js';
import { matchesPlugin } from '../../../policy/policy-rules.js';
import { readState } from '../../../store/state/state.js';
import type { State } from '../../../store/state/state-schema.js';
import type { OperationContext } from '../context/operation-context.js';
import { policyOf } from '../policy/policy-of.js';
import { requireUsablePolicy } from '../policy/enforce-policy.js';
import { resolveInstallSources } from '../staging/resolve.js';
import type { InstallSource } from '../staging/types.js';
import type { InstalledEntry } from './record.js';
import { stageAndCommit } from './transaction.js';

/** What bringing in the required plugins did: the entries installed and what to tell the user. */
export interface RequiredBroughtIn {
  installed: InstalledEntry[];
  notes: string[];
}

/**
 * docs/reference/rules/policy.md#a21: after an install run (`install`, with or without specs, in a
 * project or not, and `ci`), each `required` entry of the policy that names a concrete
 * `name@registry` and has no user record is installed from its registry and enabled, in one
 * transaction of the user's records with the normal integrity rules; the administrator's policy is
 * the consent (the note names the file and how to review). An entry with `*`, or a bare name, cannot
 * be brought in: when no installed plugin matches it, a note says so. A required plugin that
 * cannot be installed (registry unreachable, refused by the same policy) is a warning note: the
 * run's own work stands, and `doctor` keeps warning (policy_required_missing). With `dryRun`,
 * notes only. E_POLICY while the policy file cannot be used (A11). `ctx` is the user's, never a
 * project's (project-scope.ts): a plugin enabled unasked comes from a registry the user or hookpm
 * configured, never from one a cloned hookpm.json names, nor from one its `.npmrc` names (npm's
 * configuration is read without the project file, registry.md K4).
 */
export async function bringInRequired(
  ctx: OperationContext,
  opts: { cwd: string; dryRun?: boolean },
): Promise<RequiredBroughtIn> {
  const none: RequiredBroughtIn = { installed: [], notes: [] };
  // A11: a file that cannot be used may require plugins: the install run is refused, never run
  // as if it required none. The run's own work was refused already, or had nothing to install.
  requireUsablePolicy(ctx, 'installing');
  const inForce = policyOf(ctx);
  if (inForce.status !== 'ok' || (inForce.policy.required ?? []).length === 0) return none;
  const state = await readState(ctx.paths);
  const file = inForce.file;
  const notes: string[] = [];
  const wanted: Array<{ id: string; entry: string }> = [];
  for (const entry of inForce.policy.required ?? []) {
    if (isConcrete(entry)) {
      if (state.plugins[entry] === undefined && !wanted.some((w) => w.id === entry))
        wanted.push({ id: entry, entry });
    } else if (!anyInstalled(state, entry))
      notes.push(
        `warning: the administrator's policy ${file} requires ${describeValue(entry)}, which hookpm cannot bring in (only a name@registry without * can be installed for it); install a plugin it matches`,
      );
  }
  if (wanted.length === 0) return { installed: [], notes };
  if (opts.dryRun === true)
    return {
      installed: [],
      notes: [
        ...notes,
        ...wanted.map(
          (w) => `would install and enable ${w.id}: the administrator's policy ${file} requires it`,
        ),
      ],
    };
  const users: OperationContext = { ...ctx, npmProjectConfig: false };
  // Each entry is resolved on its own: one the registries cannot provide leaves the others.
  const sources: InstallSource[] = [];
  for (const w of wanted) {
    try {
      const resolved = await resolveInstallSources(users, [w.id], {
        cwd: opts.cwd,
        includePrerelease: false,
      });
      sources.push(...resolved.sources);
      notes.push(...resolved.notes);
    } catch (error) {
      notes.push(couldNot(error, [w.id], file));
    }
  }
  if (sources.length === 0) return { installed: [], notes };
  try {
    const result = await stageAndCommit(
      users,
      sources,
      { kind: 'user' },
      {
        cwd: opts.cwd,
        enable: 'yes',
        force: false,
      },
    );
    notes.push(...result.notes);
    for (const e of result.entries)
      notes.push(
        `${e.id} ${e.version} was installed and enabled: the administrator's policy ${file} requires it; \`hookpm review ${e.name}\` shows what it runs`,
      );
    return { installed: result.entries, notes };
  } catch (error) {
    notes.push(
      couldNot(
        error,
        sources.map((s) => s.spec),
        file,
      ),
    );
    return { installed: [], notes };
  }
}

/** The warning for required plugins that could not be installed; an error not hookpm's is thrown. */
function couldNot(error: unknown, ids: readonly string[], file: string): string {
  if (!isHookpmError(error)) throw error;
  return `warning: the administrator's policy ${file} requires ${ids.join(', ')}, which could not be installed: ${error.message} (${error.code})`;
}

/** A `required` entry hookpm can install: `name@registry`, neither part empty nor with `*`. */
function isConcrete(entry: string): boolean {
  const at = entry.lastIndexOf('@');
  return at > 0 && at < entry.length - 1 && !entry.includes('*');
}

function anyInstalled(state: State, entry: string): boolean {
  return Object.values(state.plugins).some((r) => matchesPlugin(entry, r));
}
