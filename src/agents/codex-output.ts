import type { DispatchResult } from '../engine/types.js';
import type { HookEventName } from '../hooks/events.js';
import type { WireAnswer } from './agent.js';
import { encodeClaudeOutput } from './claude-output.js';
import { asCodexDecides } from './codex-decision.js';
import { GENERIC_BLOCK_REASON } from '../engine/generic-block-reason.js';

/** The keys one Codex hook output may have: top level, and inside `hookSpecificOutput`. */
interface CodexOutputKeys {
  top: readonly string[];
  specific: readonly string[];
}

const COMMON = ['continue', 'stopReason', 'suppressOutput', 'systemMessage'] as const;
const BLOCKING = [...COMMON, 'decision', 'reason'] as const;
const CONTEXT = { top: [...COMMON, 'hookSpecificOutput'], specific: ['additionalContext'] };

/**
 * Codex 0.171.0's hook output schemas (`codex-rs/hooks/schema/generated/*.command.output.schema.json`
 * in github:openai/codex, compiled into the binary): each is `additionalProperties: false`, so a key
 * outside them would make Codex reject the whole output. SessionEnd has no output schema: Codex
 * reads nothing back from it.
 */
const CODEX_OUTPUT: Readonly<Partial<Record<HookEventName, CodexOutputKeys>>> = {
  SessionStart: CONTEXT,
  UserPromptSubmit: { top: [...BLOCKING, 'hookSpecificOutput'], specific: ['additionalContext'] },
  PermissionRequest: { top: [...COMMON, 'hookSpecificOutput'], specific: ['decision'] },
  PreToolUse: {
    top: [...BLOCKING, 'hookSpecificOutput'],
    specific: ['additionalContext', 'permissionDecision', 'permissionDecisionReason'],
  },
  PostToolUse: { top: [...BLOCKING, 'hookSpecificOutput'], specific: ['additionalContext'] },
  PreCompact: { top: COMMON, specific: [] },
  Stop: { top: BLOCKING, specific: [] },
  SubagentStart: CONTEXT,
  SubagentStop: { top: BLOCKING, specific: [] },
};

/**
 * A reduced result as Codex reads it: Claude Code's format (Codex reads Claude-format hooks), with
 * SubagentStop context as `decision: "block"` (the only way Codex's schema has to give it back),
 * the decisions as Codex can apply them (codex-decision.ts), and only the keys Codex's schema of
 * the event allows. Exit 0; diagnostics on stderr.
 */
export function encodeCodexOutput(result: DispatchResult): WireAnswer {
  const answer = encodeClaudeOutput(asCodexDecides(result), {
    suppressOriginalPrompt: false,
    subagentStopContext: 'block',
    stopAsBlock: [],
  });
  const keys = CODEX_OUTPUT[result.event];
  if (answer.stdout === '' || keys === undefined) return { ...answer, stdout: '' };
  const out = JSON.parse(answer.stdout) as Record<string, unknown>;
  // W3: Codex drops a `decision: "block"` whose reason is blank (a Stop continuation would be
  // lost), so such a block carries the generic reason an exit 2 without stderr gets (K2).
  const reason = out['reason'];
  if (out['decision'] === 'block' && (typeof reason !== 'string' || reason.trim() === ''))
    out['reason'] = GENERIC_BLOCK_REASON;
  const kept: Record<string, unknown> = {};
  for (const key of keys.top) if (key in out) kept[key] = out[key];
  const specific = kept['hookSpecificOutput'] as Record<string, unknown> | undefined;
  if (specific !== undefined) {
    const inner: Record<string, unknown> = { hookEventName: result.event };
    for (const key of keys.specific) if (key in specific) inner[key] = specific[key];
    if (Object.keys(inner).length > 1) kept['hookSpecificOutput'] = inner;
    else delete kept['hookSpecificOutput'];
  }
  const stdout = Object.keys(kept).length === 0 ? '' : `${JSON.stringify(kept)}\n`;
  return { ...answer, stdout };
}
