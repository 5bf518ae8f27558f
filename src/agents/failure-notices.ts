import type { DiagnosticCode } from '../hooks/diagnostic.js';
import type { ResultDiagnostic } from '../engine/types.js';
import { clip } from '../text/clip.js';

/**
 * The diagnostics that say a handler failed without blocking: it exited with another code than 0
 * and 2 (or with 2 where exit 2 cannot block), was killed, timed out, or could not start.
 */
const HANDLER_FAILURES: ReadonlySet<DiagnosticCode> = new Set<DiagnosticCode>([
  'nonzero_exit',
  'timeout',
  'launch_failed',
  'invalid_command',
  'confinement_unavailable',
  'unsupported_block',
]);

/**
 * What a linked Claude Code shows its user of the handlers that failed without blocking
 * (docs/guides/agents.md#what-the-agent-shows): Claude Code shows a hook error notice for each of
 * its own hooks that fails so, with the first line of what the hook wrote on stderr, and never
 * shows the stderr of a hook that exited 0, which the one link entry does. So each such failure
 * becomes one line, `hookpm: hook error (<plugin>): <the first line of its diagnostic>`, for the
 * answer's `systemMessage`. Other diagnostics (hookpm's notes, invalid output) stay on stderr.
 */
export function failureNotices(diagnostics: readonly ResultDiagnostic[]): string[] {
  return diagnostics
    .filter((d) => HANDLER_FAILURES.has(d.code) && d.severity !== 'info')
    .map((d) => {
      const who = d.plugin ?? `${d.origin ?? 'hookpm'} hooks`;
      return `hookpm: hook error (${who}): ${clip(d.message.split('\n', 1)[0] ?? '')}`;
    });
}
