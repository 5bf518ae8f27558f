import { z } from 'zod';
import { EVENTS } from '../hooks/events.js';
import type { EventName } from '../hooks/events.js';

/**
 * The wire output of a handler (engine.md L1, L2): the one zod boundary for hook stdout. Types are
 * strict (no coercion, `null` is not a string); top-level keys outside L1 are reported by the
 * caller as `unsupported_field`, keys inside `hookSpecificOutput` outside L2 are stripped.
 */
export const TOP_LEVEL_KEYS = [
  'continue',
  'stopReason',
  'suppressOutput',
  'systemMessage',
  'decision',
  'reason',
  'hookSpecificOutput',
] as const;

export const wireOutputSchema = z.object({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional(),
  decision: z.literal('block').optional(),
  reason: z.string().optional(),
  hookSpecificOutput: z.record(z.string(), z.unknown()).optional(),
});

const jsonObject = z.record(z.string(), z.unknown());

/** PermissionRequest `decision` (L2): `behavior` has no `ask`. */
const permissionRequestDecision = z.object({
  behavior: z.enum(['allow', 'deny']),
  message: z.string().optional(),
  interrupt: z.boolean().optional(),
  updatedInput: jsonObject.optional(),
  updatedPermissions: z.array(z.unknown()).optional(),
});

/** Every key any event recognises inside hookSpecificOutput, with its type (L2). */
const specificFields = {
  additionalContext: z.string().optional(),
  suppressOriginalPrompt: z.boolean().optional(),
  permissionDecision: z.enum(['allow', 'deny', 'ask', 'defer']).optional(),
  permissionDecisionReason: z.string().optional(),
  updatedInput: jsonObject.optional(),
  decision: permissionRequestDecision.optional(),
  updatedToolOutput: z.unknown().optional(),
};

/** The union of all specific keys; an event only ever receives the ones it recognises. */
export const specificOutputSchema = z.object(specificFields);
export type SpecificOutput = z.infer<typeof specificOutputSchema>;

type SpecificKey = keyof typeof specificFields;

function isSpecificKey(key: string): key is SpecificKey {
  return Object.hasOwn(specificFields, key);
}

const schemaCache = new Map<EventName, z.ZodType<SpecificOutput>>();

/**
 * The schema of `event`'s specific part: only the keys EVENTS[event].specificKeys lists are read,
 * others are stripped. Returns null for events without specific output.
 */
export function specificSchemaFor(event: EventName): z.ZodType<SpecificOutput> | null {
  const keys = EVENTS[event].specificKeys;
  if (keys === null) return null;
  const cached = schemaCache.get(event);
  if (cached !== undefined) return cached;
  const shape: Partial<Record<SpecificKey, z.ZodType>> = {};
  for (const key of keys) {
    if (!isSpecificKey(key)) throw new Error(`Assertion failed: unknown specific key ${key}`);
    shape[key] = specificFields[key];
  }
  // The picked shape is a subset of specificOutputSchema, so its output is a SpecificOutput.
  const schema = z.object(shape) as unknown as z.ZodType<SpecificOutput>;
  schemaCache.set(event, schema);
  return schema;
}
