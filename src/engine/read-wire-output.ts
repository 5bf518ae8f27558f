import type { DiagnosticCode, Severity } from '../hooks/diagnostic.js';
import type { EventName } from '../hooks/events.js';
import {
  TOP_LEVEL_KEYS,
  specificSchemaFor,
  wireOutputSchema,
  withoutNulls,
} from './output-schema.js';
import type { SpecificOutput } from './output-schema.js';
import { isAllowedTerminalSequence } from './terminal-sequence.js';
import { unreadSpecificKeys } from './unread-specific-keys.js';
import type { PermissionResult } from './types.js';

/**
 * The reason of a JSON `decision: "block"` that gives no (or an empty) `reason`: the reference
 * engine's fallback text, kept so its users read the same words.
 */
export const JSON_BLOCK_REASON = 'Blocked by hook';

/** What one handler's JSON output asks for, before reduction (engine.md L1-L3). */
export interface WireFields {
  continue: boolean;
  stopReason: string | null;
  suppressOutput: boolean;
  systemMessage: string | null;
  block: { reason: string; generic?: true } | null;
  additionalContext: string | null;
  permission: PermissionResult | null;
  suppressOriginalPrompt: boolean;
  /** D8: a `terminalSequence` made only of the allowed sequences; a refused one is a note. */
  terminalSequence: string | null;
}

/** A diagnostic about the output being read, before it is bound to its handler. */
export interface OutputNote {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
}

const KNOWN_TOP_LEVEL: ReadonlySet<string> = new Set(TOP_LEVEL_KEYS);

function unsupported(field: string, effect: string): OutputNote {
  return { code: 'unsupported_field', severity: 'warning', message: `${field} ${effect}` };
}

function invalid(message: string): OutputNote {
  return { code: 'invalid_output', severity: 'warning', message: `${message}; output dropped` };
}

function describeIssue(issue: { path: PropertyKey[]; message: string } | undefined): string {
  if (issue === undefined) return 'invalid output';
  const path = issue.path.map(String).join('.');
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}

/**
 * L1-L3: the permission decision of the output, and notes for unsupported fields. `approved` is
 * the PreToolUse `decision: "approve"` alias, read as `permissionDecision: "allow"` when the
 * specific part gives no permissionDecision of its own.
 */
function readPermission(
  event: EventName,
  s: SpecificOutput,
  approved: PermissionResult | null,
  notes: OutputNote[],
) {
  let permission: PermissionResult | null = s.permissionDecision === undefined ? approved : null;
  let updatedInput = s.updatedInput !== undefined;
  if (event === 'PreToolUse' && s.permissionDecision !== undefined) {
    if (s.permissionDecision === 'defer') {
      notes.push(unsupported('permissionDecision "defer"', 'is not supported; no decision taken'));
    } else {
      const reason = s.permissionDecisionReason ?? null;
      permission = { decision: s.permissionDecision, reason, interrupt: false };
    }
  }
  if (event === 'PermissionRequest' && s.decision !== undefined) {
    const d = s.decision;
    const interrupt = d.behavior === 'deny' && d.interrupt === true;
    permission = { decision: d.behavior, reason: d.message ?? null, interrupt };
    updatedInput = d.updatedInput !== undefined;
    if (d.updatedPermissions !== undefined) {
      notes.push(unsupported('decision.updatedPermissions', 'is parsed but not applied'));
    }
  }
  if (updatedInput) {
    const dropped = permission !== null && permission.decision !== 'deny';
    notes.push(
      unsupported(
        'updatedInput',
        dropped
          ? `is parsed but not applied; the "${permission?.decision}" decision is dropped`
          : 'is parsed but not applied',
      ),
    );
    if (dropped) permission = null;
  }
  return permission;
}

/** L1: the specific part with its `null` fields (and those of a PermissionRequest `decision`) absent. */
function specificWithoutNulls(specific: Record<string, unknown>): Record<string, unknown> {
  const part = withoutNulls(specific);
  const decision = part['decision'];
  if (typeof decision !== 'object' || decision === null || Array.isArray(decision)) return part;
  return { ...part, decision: withoutNulls(decision as Record<string, unknown>) };
}

/**
 * Reads one JSON object printed by a handler on exit 0. Returns null when the whole output is
 * dropped (`invalid_output`); notes are returned either way.
 */
export function readWireOutput(
  output: Record<string, unknown>,
  event: EventName,
): { fields: WireFields | null; notes: OutputNote[] } {
  const notes: OutputNote[] = [];
  const raw = withoutNulls(output);
  const parsed = wireOutputSchema.safeParse(raw);
  if (!parsed.success)
    return { fields: null, notes: [invalid(describeIssue(parsed.error.issues[0]))] };
  const wire = parsed.data;
  if (wire.decision === 'approve' && event !== 'PreToolUse') {
    const message = `decision: "approve" is read only on PreToolUse; ${event} takes only "block"`;
    return { fields: null, notes: [invalid(message)] };
  }
  for (const key of Object.keys(raw)) {
    if (!KNOWN_TOP_LEVEL.has(key))
      notes.push(unsupported(`"${key}"`, 'is not a known field; ignored'));
  }
  let specific: SpecificOutput = {};
  if (wire.hookSpecificOutput !== undefined) {
    const schema = specificSchemaFor(event);
    if (schema === null) {
      return { fields: null, notes: [...notes, invalid(`${event} accepts no hookSpecificOutput`)] };
    }
    const named = wire.hookSpecificOutput['hookEventName'];
    if (named !== event) {
      const message = `hookSpecificOutput.hookEventName is ${JSON.stringify(named)}, expected "${event}"; specific output ignored`;
      notes.push({ code: 'mismatched_output', severity: 'warning', message });
    } else {
      const result = schema.safeParse(specificWithoutNulls(wire.hookSpecificOutput));
      if (!result.success) {
        const issue = describeIssue(result.error.issues[0]);
        return { fields: null, notes: [...notes, invalid(`hookSpecificOutput.${issue}`)] };
      }
      specific = result.data;
      for (const key of unreadSpecificKeys(event, wire.hookSpecificOutput))
        notes.push(unsupported(key, 'is not supported; ignored'));
    }
  }
  if (specific.updatedToolOutput !== undefined) {
    notes.push(unsupported('updatedToolOutput', 'is parsed but not applied'));
  }
  const approved: PermissionResult | null =
    wire.decision === 'approve'
      ? { decision: 'allow', reason: wire.reason ?? null, interrupt: false }
      : null;
  const permission = readPermission(event, specific, approved, notes);
  const block =
    wire.decision !== 'block'
      ? null
      : wire.reason
        ? { reason: wire.reason }
        : { reason: JSON_BLOCK_REASON, generic: true as const };
  let terminalSequence: string | null = null;
  if (wire.terminalSequence !== undefined) {
    if (isAllowedTerminalSequence(wire.terminalSequence)) terminalSequence = wire.terminalSequence;
    else
      notes.push({
        code: 'invalid_terminal_sequence',
        severity: 'warning',
        message: 'terminalSequence refused: only OSC 0/1/2/9/99/777 and BEL are allowed',
      });
  }
  const fields: WireFields = {
    continue: wire.continue ?? true,
    stopReason: wire.stopReason ?? null,
    suppressOutput: wire.suppressOutput ?? false,
    systemMessage: wire.systemMessage ?? null,
    block,
    additionalContext: specific.additionalContext ?? null,
    permission,
    suppressOriginalPrompt: specific.suppressOriginalPrompt ?? false,
    terminalSequence,
  };
  return { fields, notes };
}
