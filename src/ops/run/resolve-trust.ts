import { HookpmError } from '../../errors.js';
import { diagnostic, type Diagnostic } from '../../hooks/diagnostic.js';
import { describeValue } from '../../json/describe-value.js';
import {
  applyTrustAnswer,
  decideTrust,
  type TrustAnswer,
  type TrustPolicyReason,
} from '../../hooks/trust-policy.js';
import { canonicalProjectRoot } from '../../workspace/canonical-root.js';
import { inspectProjectFile } from '../../workspace/project-file.js';
import { grantTrust, readTrust } from '../../workspace/trust-store.js';
import { summarizeProjectHooks, type ProjectHooksSummary } from './project-hooks-summary.js';

export type { TrustAnswer } from '../../hooks/trust-policy.js';

/**
 * Asks the person at the terminal whether to trust the project hooks file `file` (T4), showing what
 * it would load (`hooks`, docs/guides/projects.md#project-hooks-and-workspace-trust). Called at
 * most once per resolution, only in interactive use; only cli/ implements it (on a TTY), and it
 * must show `file` and the hooks with control characters escaped. Resolves with the answer (end of
 * input is `cancel`); rejects with E_CANCELLED only for Ctrl+C, which ends the command.
 */
export type AskTrust = (file: string, hooks: ProjectHooksSummary) => Promise<TrustAnswer>;

export interface ResolveTrustOptions {
  /** The working directory; its canonical project root (T2) is the workspace. */
  cwd: string;
  /** The user's home directory (the user file and the trust store live under it). */
  home: string;
  /** `--trust-project-hooks`. */
  flag: boolean;
  /** Present only in interactive use; absent means headless (T5: never asks, ignores the store). */
  askTrust?: AskTrust;
  /** A session's earlier Allow once: the SHA-256 it is bound to (R4 re-resolves with it). */
  onceSha256?: string | null;
  /** The time written as `trusted_at` on Always allow. */
  clock?: () => Date;
}

export type TrustReason = TrustPolicyReason | 'allowed-once' | 'always-allowed' | 'denied';

/** The trust decision for one load of the workspace configuration. */
export interface ResolvedTrust {
  /** The canonical project root: load the configuration from here so the trusted file is the one read. */
  root: string;
  /** `<root>/.deepagents/hooks.json`. */
  projectFile: string;
  /** Whether the project file may be loaded. */
  trusted: boolean;
  reason: TrustReason;
  /**
   * T6: the SHA-256 of the project file's bytes when trust was checked, which the loaded bytes must
   * equal; null when untrusted (nothing is loaded) or when the file could not be read then.
   */
  sha256: string | null;
  /**
   * The hash a session-only grant is bound to: this Allow once, an earlier one still valid, or an
   * Always allow that could not be stored. A session passes it back as `onceSha256` on reload (R4).
   */
  onceSha256: string | null;
  /** T3 warnings, a note that an untrusted project file was skipped, a failed Always allow store. */
  diagnostics: Diagnostic[];
}

/**
 * docs/reference/rules/engine.md#workspace-trust: decides whether the project hooks file of `cwd`'s
 * workspace is loaded, asking through `askTrust` when the policy says so. Errors: E_CANCELLED when
 * the answer is Cancel, E_USAGE when `cwd` is not a directory. A store that cannot be written on
 * Always allow does not fail: the workspace is trusted for this load and a `trust_not_stored`
 * warning says why.
 */
export async function resolveTrust(options: ResolveTrustOptions): Promise<ResolvedTrust> {
  const root = await canonicalProjectRoot(options.cwd);
  const file = await inspectProjectFile(root, options.home);
  const ask = options.askTrust;
  const diagnostics: Diagnostic[] = [];
  let stored = false;
  if (ask !== undefined && !options.flag && file.status === 'present' && !file.sameAsUserFile) {
    const check = await readTrust(options.home, root);
    stored = check.trusted;
    for (const d of check.diagnostics) diagnostics.push(d);
  }
  const grantedOnce = options.onceSha256 != null && options.onceSha256 === file.sha256;
  const policy = decideTrust({
    interactive: ask !== undefined,
    flag: options.flag,
    stored,
    grantedOnce,
    projectFile: file.status,
    sameAsUserFile: file.sameAsUserFile,
  });
  const base = { root, projectFile: file.path, diagnostics };
  const untrusted = { ...base, trusted: false, sha256: null, onceSha256: null };
  if (policy.outcome === 'trusted') {
    const onceSha256 = grantedOnce ? file.sha256 : null;
    return { ...base, trusted: true, reason: policy.reason, sha256: file.sha256, onceSha256 };
  }
  if (policy.outcome === 'untrusted' || ask === undefined) {
    if (policy.reason === 'headless')
      diagnostics.push(skipped(file.path, 'pass --trust-project-hooks'));
    return { ...untrusted, reason: policy.reason };
  }
  const effect = applyTrustAnswer(checkedAnswer(await ask(file.path, summarizeProjectHooks(file))));
  if (effect.outcome === 'abort') throw cancelled(file.path);
  if (effect.outcome === 'untrusted') {
    diagnostics.push(skipped(file.path, 'denied at the prompt'));
    return { ...untrusted, reason: effect.reason };
  }
  // An Always allow that could not be stored still binds this session, like an Allow once.
  const kept = effect.store ? await storeTrust(options, root, diagnostics) : false;
  const onceSha256 = kept ? null : file.sha256;
  return { ...base, trusted: true, reason: effect.reason, sha256: file.sha256, onceSha256 };
}

/** Stores an Always allow; on a store error, says so with a warning and returns false. */
async function storeTrust(
  options: ResolveTrustOptions,
  root: string,
  into: Diagnostic[],
): Promise<boolean> {
  try {
    const clock = options.clock === undefined ? {} : { clock: options.clock };
    await grantTrust(options.home, root, clock);
    return true;
  } catch (error) {
    if (!(error instanceof HookpmError)) throw error;
    const message = `"Always allow" was not stored (${error.message}); the workspace ${root} is trusted for this session only`;
    const file = error.details.file;
    into.push(
      diagnostic(
        'trust_not_stored',
        'warning',
        message,
        typeof file === 'string' ? { path: file } : {},
      ),
    );
    return false;
  }
}

function skipped(file: string, how: string): Diagnostic {
  const message = `the project hooks in ${file} were not loaded: the workspace is not trusted (${how})`;
  return diagnostic('project_untrusted', 'info', message, { origin: 'project', path: file });
}

function cancelled(file: string): HookpmError {
  return new HookpmError(
    'E_CANCELLED',
    `cancelled at the workspace trust question for ${file}; nothing was loaded`,
    {
      file,
      hint: 'Run the command again and choose Allow once, Always allow or Deny; or pass --trust-project-hooks.',
    },
  );
}

const ANSWERS: readonly unknown[] = ['once', 'always', 'deny', 'cancel'];

/**
 * A library caller's AskTrust answer, which may be anything: one of the four, or E_USAGE naming
 * what it gave (nothing is trusted or loaded), never a TypeError.
 */
function checkedAnswer(answer: unknown): TrustAnswer {
  if (ANSWERS.includes(answer)) return answer as TrustAnswer;
  throw new HookpmError(
    'E_USAGE',
    `askTrust answered ${describeValue(answer)}; expected "once", "always", "deny" or "cancel"`,
  );
}
