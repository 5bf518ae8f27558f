import { z } from '../json/zod.js';

/** The pin document versions this hookpm reads and writes; another version is not this hookpm's. */
export const PIN_VERSION = 1;

const bindingSchema = z.object({ id: z.string(), root: z.string(), data: z.string() });

/**
 * A pinned plugin document: a hooks configuration the snapshot builder already validated when the
 * pin was made (the pin is hookpm's own file; this checks its shape, not the hooks rules again).
 */
const sourceSchema = z.object({
  origin: z.literal('plugin'),
  file: z.string(),
  config: z.record(z.string(), z.array(z.unknown())),
  plugin: bindingSchema,
});

const diagnosticSchema = z.looseObject({
  code: z.string(),
  severity: z.enum(['error', 'warning', 'info']),
  message: z.string(),
});

/** What a pinned plugin's tree must still be (plugins.md Q6) for its documents to run. */
const pinnedPluginSchema = z.object({
  id: z.string(),
  version: z.string(),
  root: z.string(),
  fingerprint: z.string(),
});

export const sessionPinSchema = z.object({
  version: z.literal(PIN_VERSION),
  sessionId: z.string(),
  agent: z.string(),
  pinnedAt: z.string(),
  plugins: z.array(pinnedPluginSchema),
  sources: z.array(sourceSchema),
  diagnostics: z.array(diagnosticSchema),
  /** Consecutive Stop continuations of the session so far (engine.md O3). */
  stopContinuations: z.number().check(z.int(), z.nonnegative()),
});

export type SessionPin = z.infer<typeof sessionPinSchema>;
export type PinnedPlugin = z.infer<typeof pinnedPluginSchema>;
