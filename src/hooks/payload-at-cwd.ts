import { AGENT_CWD } from './if-rule.js';

/**
 * The payload as an invocation's `if` rules read it (engine.md F2): with `cwd`, the working
 * directory its handlers run in and are told (cli.md W2), in place of the payload's own when the
 * invocation chose another (a `cwd` absent, relative or gone; `hookpm run`'s own), which it keeps
 * as AGENT_CWD. A path rule then reads a relative path from where the handler runs, as the
 * handler does, and also from the agent's `cwd`, where the tool reads it. Unchanged when `cwd` is
 * undefined or already the payload's.
 */
export function payloadAtCwd(
  payload: Readonly<Record<string, unknown>>,
  cwd: string | undefined,
): Readonly<Record<string, unknown>> {
  if (cwd === undefined || (Object.hasOwn(payload, 'cwd') && payload['cwd'] === cwd))
    return payload;
  const agent = Object.hasOwn(payload, 'cwd') ? { [AGENT_CWD]: payload['cwd'] } : {};
  return { ...payload, cwd, ...agent };
}
