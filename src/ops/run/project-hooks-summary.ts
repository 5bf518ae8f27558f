import type { DeclaredHandler } from '../../hooks/types.js';
import type { ProjectFileState } from '../../workspace/project-file.js';
import { parseHooksBytes } from '../../workspace/read-hooks-file.js';

/** One handler the project hooks file declares, as the trust question lists it (engine.md T4). */
export interface ProjectHook {
  event: string;
  /** null: every tool (or the event has no matcher). */
  matcher: string | null;
  /** The shell command, or the argv as JSON when that is what runs. */
  command: string;
}

/**
 * What trusting the project hooks file would load
 * (docs/guides/projects.md#project-hooks-and-workspace-trust): its handlers in document order, or
 * why it cannot be read now (the loader reports that too, once trusted).
 */
export type ProjectHooksSummary =
  { status: 'read'; hooks: ProjectHook[] } | { status: 'unreadable'; reason: string };

/**
 * The summary of the project hooks file as it was read and hashed when trust was checked
 * (workspace/project-file.ts): the question shows exactly the bytes an answer binds to (T4, T6),
 * never the file read again after it changed.
 */
export function summarizeProjectHooks(
  state: Pick<ProjectFileState, 'path' | 'bytes' | 'unreadable'>,
): ProjectHooksSummary {
  const file = state.path;
  if (state.bytes === null)
    return { status: 'unreadable', reason: state.unreadable ?? `cannot read ${file}` };
  const read = parseHooksBytes(state.bytes, { file, origin: 'project', legacy: true });
  if (read.status === 'missing') return { status: 'unreadable', reason: 'the file is gone' };
  if (read.status === 'failed') return { status: 'unreadable', reason: read.diagnostic.message };
  return { status: 'read', hooks: read.parsed.declared.map(projectHookOf) };
}

function projectHookOf(handler: DeclaredHandler): ProjectHook {
  const argv = Array.isArray(handler.argv) ? handler.argv : null;
  const command =
    argv !== null
      ? JSON.stringify(argv)
      : typeof handler.command === 'string'
        ? handler.command
        : JSON.stringify(handler.command ?? null);
  return {
    event: handler.event,
    matcher: typeof handler.matcher === 'string' && handler.matcher !== '' ? handler.matcher : null,
    command,
  };
}
