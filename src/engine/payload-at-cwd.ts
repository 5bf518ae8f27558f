/**
 * The payload as an invocation's `if` rules read it (engine.md F2): with `cwd`, the working
 * directory its handlers run in and are told (cli.md W2), in place of the payload's own when the
 * invocation chose another (a `cwd` absent, relative or gone; `hookpm run`'s own). A path rule
 * then reads a relative path from where the handler runs, as the handler does. Unchanged when
 * `cwd` is undefined or already the payload's.
 */
export function payloadAtCwd(
  payload: Readonly<Record<string, unknown>>,
  cwd: string | undefined,
): Readonly<Record<string, unknown>> {
  if (cwd === undefined || (Object.hasOwn(payload, 'cwd') && payload['cwd'] === cwd))
    return payload;
  return { ...payload, cwd };
}
