/** The process environment and working directory an operation reads npm config, git and paths from. */
export interface Environment {
  env: Record<string, string | undefined>;
  cwd: string;
}

/**
 * The context's `env` and `cwd` (the CLI fills both once, cli/registry-options.ts and
 * cli/plugin-context.ts); a context built without them (a library host, a test) gets this
 * process's.
 */
export function environmentOf(ctx: {
  env?: Record<string, string | undefined>;
  cwd?: string;
}): Environment {
  return { env: ctx.env ?? process.env, cwd: ctx.cwd ?? process.cwd() };
}
