/**
 * Workspace trust as data (docs/reference/rules/engine.md#workspace-trust): whether the project
 * hooks file may be loaded, must be asked about, or must be skipped. The policy knows nothing of
 * plugins: enabling a plugin with consent is their gate, and trust neither grants nor withholds it
 * (T7).
 */

/** What is known when trust is checked. */
export interface TrustPolicyInput {
  /** A person can be asked (a TTY, no `--json`); false is headless use (T5). */
  interactive: boolean;
  /** `--trust-project-hooks` was given. */
  flag: boolean;
  /** The trust store holds the canonical project root (T1, T2); false when it cannot be read (T3). */
  stored: boolean;
  /** Whether `<project root>/.deepagents/hooks.json` exists. */
  projectFile: 'missing' | 'present';
  /** The project file and the user file are the same file after resolving symlinks (S4). */
  sameAsUserFile: boolean;
  /** An earlier Allow once of this session is bound to the SHA-256 of the file's current bytes (T4, R4). */
  grantedOnce: boolean;
}

export type TrustOutcome = 'trusted' | 'untrusted' | 'ask';

/** Why the policy decided as it did; `ask` is only ever `not-trusted`. */
export type TrustPolicyReason =
  | 'no-project-file'
  | 'same-as-user-file'
  | 'flag'
  | 'headless'
  | 'stored'
  | 'granted-once'
  | 'not-trusted';

export interface TrustPolicyDecision {
  outcome: TrustOutcome;
  reason: TrustPolicyReason;
}

/**
 * T4, T5, S4: without a project file, or when it is the user file, nothing is asked and the project
 * file is not read as such; the flag trusts in every mode; headless use ignores the store and the
 * session's grants; interactively, a stored trust or a still-valid Allow once trusts, otherwise ask.
 */
export function decideTrust(input: TrustPolicyInput): TrustPolicyDecision {
  if (input.projectFile === 'missing') return { outcome: 'untrusted', reason: 'no-project-file' };
  if (input.sameAsUserFile) return { outcome: 'untrusted', reason: 'same-as-user-file' };
  if (input.flag) return { outcome: 'trusted', reason: 'flag' };
  if (!input.interactive) return { outcome: 'untrusted', reason: 'headless' };
  if (input.stored) return { outcome: 'trusted', reason: 'stored' };
  if (input.grantedOnce) return { outcome: 'trusted', reason: 'granted-once' };
  return { outcome: 'ask', reason: 'not-trusted' };
}

/** The four answers of the trust prompt (T4). */
export type TrustAnswer = 'once' | 'always' | 'deny' | 'cancel';

/** What an answer means: `cancel` aborts the start; `always` must also be stored. */
export type AnswerEffect =
  | { outcome: 'trusted'; reason: 'allowed-once' | 'always-allowed'; store: boolean }
  | { outcome: 'untrusted'; reason: 'denied'; store: false }
  | { outcome: 'abort' };

export function applyTrustAnswer(answer: TrustAnswer): AnswerEffect {
  switch (answer) {
    case 'once':
      return { outcome: 'trusted', reason: 'allowed-once', store: false };
    case 'always':
      return { outcome: 'trusted', reason: 'always-allowed', store: true };
    case 'deny':
      return { outcome: 'untrusted', reason: 'denied', store: false };
    case 'cancel':
      return { outcome: 'abort' };
  }
}
