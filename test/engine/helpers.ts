import type { EventName } from '../../src/hooks/events.js';
import type { SnapshotHandler } from '../../src/hooks/types.js';
import type { HandlerRun } from '../../src/engine/types.js';

/** A snapshot handler at `<event>:<group>:0`, a user handler unless `plugin` is given. */
export function makeHandler(
  event: EventName,
  groupIndex = 0,
  over: Partial<SnapshotHandler> = {},
): SnapshotHandler {
  const plugin = over.plugin ?? null;
  return {
    id: `${event}:${groupIndex}:0`,
    event,
    groupIndex,
    handlerIndex: 0,
    origin: plugin === null ? 'user' : 'plugin',
    plugin,
    source: plugin === null ? '/home/u/.deepagents/hooks.json' : 'hooks/hooks.json',
    matcher: null,
    if: null,
    command: 'true',
    argv: null,
    timeoutSec: 600,
    statusMessage: null,
    pluginEnv: {},
    legacyStdin: null,
    ...over,
  };
}

/** The facts of a run that exited 0 with empty output, with `over` applied. */
export function makeRun(handler: SnapshotHandler, over: Partial<HandlerRun> = {}): HandlerRun {
  return {
    handler,
    exitCode: 0,
    signal: null,
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    timedOut: false,
    failure: null,
    durationMs: 5,
    ...over,
  };
}

/** A run of handler `<event>:<group>:0` that printed `output` as JSON and exited 0. */
export function jsonRun(event: EventName, groupIndex: number, output: unknown): HandlerRun {
  return makeRun(makeHandler(event, groupIndex), { stdout: JSON.stringify(output) });
}

/** A run of handler `<event>:<group>:0` that exited with `code` and wrote `stderr`. */
export function exitRun(
  event: EventName,
  groupIndex: number,
  code: number,
  stderr = '',
): HandlerRun {
  return makeRun(makeHandler(event, groupIndex), { exitCode: code, stderr });
}
