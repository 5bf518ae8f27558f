import type { ReviewHook, ReviewReport } from '../../src/ops/steps/consent/report.js';

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
  onFailure: null,
  async: null,
  asyncRewake: null,
  rewakeMessage: null,
  rewakeSummary: null,
  timeout: 30,
  statusMessage: null,
  source: 'hooks/hooks.json',
  key: '0123456789',
  off: false,
  valid: true,
  diagnostic: null,
  ...over,
});

/** The review of guard@local 1.0.0 from /src/guard with one hook, not consented, then `over`. */
export const reviewReport = (over: Partial<ReviewReport> = {}): ReviewReport => ({
  id: 'guard@local',
  name: 'guard',
  version: '1.0.0',
  description: 'blocks things',
  source: '/src/guard',
  integrity: 'sha256-abc',
  events: ['PreToolUse'],
  hooks: [reviewHook()],
  surfaceHash: 'sha256-xyz',
  capabilities: null,
  consented: false,
  diff: null,
  files: [],
  codeDiff: null,
  optedOut: [],
  ok: true,
  diagnostics: [],
  installed: null,
  ...over,
});
