import { join } from 'node:path';

/** Where a test's Claude Code runs: its HOME (the transcript lives there) and its working directory. */
export interface ClaudeSeat {
  readonly home: string;
  readonly repo: string;
}

/** The payload Claude Code sends for `event` in `session`: the common fields, then `extra`. */
export function claudePayload(
  seat: ClaudeSeat,
  event: string,
  session: string,
  extra: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    session_id: session,
    transcript_path: join(seat.home, 't.jsonl'),
    cwd: seat.repo,
    hook_event_name: event,
    ...extra,
  });
}

/** The PreToolUse payload Claude Code sends before its Bash tool runs `command`, as one JSON line. */
export function claudeBashPayload(seat: ClaudeSeat, session: string, command: string): string {
  return claudePayload(seat, 'PreToolUse', session, {
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 'toolu_1',
  });
}
