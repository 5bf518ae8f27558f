/** What the host knows about one invocation, beyond the event's own fields (engine.md X2). */
export interface DispatchOptions {
  /** `session_id` of the payload; default: the input's `session_id`, else a fresh UUID. */
  sessionId?: string;
  /** The invocation's working directory (X4); default: the input's `cwd`, else the project root. */
  cwd?: string;
  /** Consecutive Stop continuations so far (O3); default 0. A non-negative integer. */
  continuationCount?: number;
  /** The parent environment handlers inherit, less secrets (X5); default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Names X5 would remove that handlers get all the same (`env.pass` of settings.json). */
  passEnv?: readonly string[];
  /** Aborting kills every running handler's process group, as a deadline does. */
  signal?: AbortSignal;
  transcriptPath?: string;
  /** `permission_mode` of the payload; default: the input's, else `default`. */
  permissionMode?: string;
}

/** A string field of an event's input, if it has one. */
export function stringField(
  input: Readonly<Record<string, unknown>>,
  key: string,
): string | undefined {
  const value = Object.hasOwn(input, key) ? input[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}
