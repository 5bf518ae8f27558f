import { z } from '../json/zod.js';
import { EVENTS } from '../hooks/events.js';
import type { EventName } from '../hooks/events.js';

/**
 * The wire output of a handler (engine.md L1, L2): the one zod boundary for hook stdout. Types are
 * strict (no coercion); a field given as `null` is removed before parsing (withoutNulls), so it
 * counts as absent; top-level keys outside L1 are reported by the caller as `unsupported_field`,
 * keys inside `hookSpecificOutput` outside L2 are stripped.
 */
export const TOP_LEVEL_KEYS = [
  'continue',
  'stopReason',
  'suppressOutput',
  'systemMessage',
  'decision',
  'reason',
  'hookSpecificOutput',
  // D8: Deep Agents Code's terminal output, checked by the reader (terminal-sequence.ts).
  'terminalSequence',
] as const;

export const wireOutputSchema = z.object({
  continue: z.optional(z.boolean()),
  stopReason: z.optional(z.string()),
  suppressOutput: z.optional(z.boolean()),
  systemMessage: z.optional(z.string()),
  // "approve" is the deprecated PreToolUse alias of permissionDecision "allow" (L1); the reader
  // refuses it on other events.
  decision: z.optional(z.enum(['block', 'approve'])),
  reason: z.optional(z.string()),
  hookSpecificOutput: z.optional(z.record(z.string(), z.unknown())),
  terminalSequence: z.optional(z.string()),
});

const jsonObject = z.record(z.string(), z.unknown());

/**
 * L1: "an optional field given as `null` counts as absent" (as in the reference engine, so
 * `{"continue": false, "stopReason": null}` stops). Every L1 and L2 field is optional, so every
 * `null` field of one object level is dropped; returns `record` itself when it holds none.
 */
export function withoutNulls(record: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | null = null;
  for (const key in record) {
    if (record[key] !== null) continue;
    copy ??= { ...record };
    delete copy[key];
  }
  return copy ?? record;
}

/** PermissionRequest `decision` (L2): `behavior` has no `ask`. */
const permissionRequestDecision = z.object({
  behavior: z.enum(['allow', 'deny']),
  message: z.optional(z.string()),
  interrupt: z.optional(z.boolean()),
  updatedInput: z.optional(jsonObject),
  updatedPermissions: z.optional(z.array(z.unknown())),
});

/** Every key any event recognises inside hookSpecificOutput, with its type (L2). */
const specificFields = {
  additionalContext: z.optional(z.string()),
  suppressOriginalPrompt: z.optional(z.boolean()),
  permissionDecision: z.optional(z.enum(['allow', 'deny', 'ask', 'defer'])),
  permissionDecisionReason: z.optional(z.string()),
  updatedInput: z.optional(jsonObject),
  decision: z.optional(permissionRequestDecision),
  updatedToolOutput: z.optional(z.unknown()),
};

/** The union of all specific keys; an event only ever receives the ones it recognises. */
export const specificOutputSchema = z.object(specificFields);
export type SpecificOutput = z.infer<typeof specificOutputSchema>;

type SpecificKey = keyof typeof specificFields;

function isSpecificKey(key: string): key is SpecificKey {
  return Object.hasOwn(specificFields, key);
}

const schemaCache = new Map<EventName, z.ZodMiniType<SpecificOutput>>();

/**
 * The schema of `event`'s specific part: only the keys EVENTS[event].specificKeys lists are read,
 * others are stripped. Returns null for events without specific output.
 */
export function specificSchemaFor(event: EventName): z.ZodMiniType<SpecificOutput> | null {
  const keys = EVENTS[event].specificKeys;
  if (keys === null) return null;
  const cached = schemaCache.get(event);
  if (cached !== undefined) return cached;
  const shape: Partial<Record<SpecificKey, z.ZodMiniType>> = {};
  for (const key of keys) {
    if (!isSpecificKey(key)) throw new Error(`Assertion failed: unknown specific key ${key}`);
    shape[key] = specificFields[key];
  }
  // The picked shape is a subset of specificOutputSchema, so its output is a SpecificOutput.
  const schema = z.object(shape) as unknown as z.ZodMiniType<SpecificOutput>;
  schemaCache.set(event, schema);
  return schema;
}
