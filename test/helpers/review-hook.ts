import type { ReviewHook } from '../../src/ops/review/report.js';

/** A review row of a valid, enabled PreToolUse command hook matching Bash, then `over`. */
export const reviewHook = (over: Partial<ReviewHook> = {}): ReviewHook => ({
  event: 'PreToolUse',
  matcher: 'Bash',
  if: null,
  type: 'command',
  command: 'sh guard.sh',
  argv: null,
  args: null,
  shell: null,
  timeout: 30,
  statusMessage: null,
  source: 'hooks/hooks.json',
  key: '0123456789',
  off: false,
  valid: true,
  diagnostic: null,
  ...over,
});
