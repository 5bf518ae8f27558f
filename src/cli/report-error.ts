import { HookpmError, redact, type ErrorCode } from '../errors.js';
import { escapeControl, printJson } from './render/render.js';
import { writeText } from './stdio.js';
import { isInterrupted } from './prompt/interrupted.js';

/** Codes that mean the command line itself was wrong (docs/reference/rules/cli.md#conventions: exit 2). */
const USAGE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['E_USAGE']);

/** Hints for codes whose errors often come without one. */
const DEFAULT_HINTS: Partial<Record<ErrorCode, string>> = {
  E_USAGE: 'Run `hookpm help <command>` for the options and an example.',
  E_INTERNAL: 'This is a bug in hookpm; please report it with the command you ran.',
};

export interface ReportedError {
  code: ErrorCode;
  message: string;
  hint: string | null;
  /** The names closest to a misspelt one, as the hint's "Did you mean" (details.suggestions). */
  suggestions: string[];
  /** 2 for a usage error, 130 for Ctrl+C at a question, 1 otherwise. */
  exitCode: 1 | 2 | 130;
}

/** THE one mapping from any thrown value to a code, words and an exit code. */
export function describeError(error: unknown): ReportedError {
  if (error instanceof HookpmError) {
    const hint = error.hint ?? DEFAULT_HINTS[error.code] ?? null;
    return {
      code: error.code,
      message: error.message,
      hint,
      suggestions: suggestionsOf(error),
      exitCode: USAGE_CODES.has(error.code) ? 2 : isInterrupted(error) ? 130 : 1,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    code: 'E_INTERNAL',
    message,
    hint: DEFAULT_HINTS.E_INTERNAL ?? null,
    suggestions: [],
    exitCode: 1,
  };
}

function suggestionsOf(error: HookpmError): string[] {
  const names = error.details['suggestions'];
  return Array.isArray(names) ? names.filter((name) => typeof name === 'string') : [];
}

/**
 * docs/reference/rules/policy.md#a16: an E_POLICY refusal's `--json` error also carries the rule,
 * the entry that decided (null when no allow entry matched) and the policy file.
 */
function policyFieldsOf(error: unknown): Record<string, unknown> {
  if (!(error instanceof HookpmError) || error.code !== 'E_POLICY') return {};
  const { rule, entry, file } = error.details;
  return typeof rule === 'string' && typeof file === 'string'
    ? { rule, entry: typeof entry === 'string' ? entry : null, file }
    : {};
}

/**
 * Prints an error as docs/reference/rules/cli.md#conventions says (human: `hookpm: error[E_CODE]:
 * ...` and an indented hint on stderr; `--json`:
 * `{"schemaVersion":1,"error":{code,message,hint,suggestions}}` on stdout,
 * docs/reference/cli-json.md) and returns the exit code.
 *
 * Message style (docs/reference/commands.md#terminals-and-pipes, git's): the message after
 * `error[E_CODE]: ` starts lower-case and has no final period, as do diagnostics
 * (`warning`/`info`), doctor findings and the notes after a command; a hint is full sentences, a
 * capital first and a period last. Names keep their case (`PreToolUse`, `JSON`, `hookpm`).
 * test/cli/message-style.test.ts checks every message in src.
 */
export function reportError(error: unknown, options: { json: boolean }): number {
  const reported = describeError(error);
  const message = redact(reported.message);
  const hint = reported.hint === null ? null : redact(reported.hint);
  if (options.json) {
    const { code, suggestions } = reported;
    printJson({ error: { code, message, hint, suggestions, ...policyFieldsOf(error) } });
  } else {
    const lines = [`hookpm: error[${reported.code}]: ${escapeControl(message)}`];
    if (hint !== null) lines.push(...hint.split('\n').map((line) => `  ${escapeControl(line)}`));
    writeText(2, `${lines.join('\n')}\n`);
  }
  return reported.exitCode;
}
