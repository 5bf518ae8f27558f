import { diagnostic } from './diagnostic.js';
import type { Diagnostic } from './diagnostic.js';
import { describeValue, isPlainObject } from '../json/describe-value.js';
import type { EventName } from './events.js';
import { unknownKeyWarnings } from './unknown-keys.js';
import { childPath, documentPath } from './json-path.js';
import type {
  DeclaredHandler,
  GroupConfig,
  HandlerConfig,
  HooksConfig,
  ParsedDocument,
} from './types.js';

/**
 * C4: migration of a list-shaped user or project file, `{"hooks": [{"command": [argv...],
 * "events": [...]}]}`. Each (entry, mapped event) pair becomes its own group with one handler whose
 * stdin is `{"event": "<legacy name>", "thread_id"?}`, whose output and exit code are ignored, and
 * whose timeout is 6 s. An entry without `events`, or with `"events": []`, gets every mapped legacy
 * event (the reference migration and its legacy dispatcher read an empty list as every event).
 * Other legacy names are dropped with `legacy_unmapped`. Legacy entries are argv lists: a `command`
 * given as a string is skipped with `legacy_unmapped`, as the reference does (it never ran one
 * through a shell). A list item that is not an object refuses the whole document (invalid_config,
 * nothing loaded), as the reference refuses it; other faults of one entry drop that entry only.
 */
const LEGACY_MAP: ReadonlyMap<string, { event: EventName; matcher: string | null }> = new Map([
  ['session.start', { event: 'UserPromptSubmit', matcher: null }],
  ['user.prompt', { event: 'UserPromptSubmit', matcher: null }],
  ['task.complete', { event: 'Notification', matcher: 'agent_completed' }],
  ['input.required', { event: 'Notification', matcher: 'agent_needs_input' }],
  ['session.end', { event: 'SessionEnd', matcher: null }],
  ['context.offload', { event: 'PreCompact', matcher: 'manual' }],
  ['context.compact', { event: 'PreCompact', matcher: 'manual' }],
]);

export const LEGACY_TIMEOUT_SEC = 6;

const ENTRY_KEYS: ReadonlySet<string> = new Set(['command', 'events', 'thread_id']);
const TOP_LEVEL_KEYS: ReadonlySet<string> = new Set(['hooks', 'description']);

interface LegacyEntry {
  command: string[];
  events: readonly string[];
  threadId: string | undefined;
}

export function migrateLegacyDocument(
  value: Record<string, unknown>,
  file: string,
): ParsedDocument {
  const hooksPath = childPath(documentPath(file), 'hooks');
  const items: unknown[] = Array.isArray(value.hooks) ? value.hooks : [];
  const foreign = items.findIndex((entry) => !isPlainObject(entry));
  if (foreign >= 0) return refused(items[foreign], childPath(hooksPath, foreign));
  const entries = items as Array<Record<string, unknown>>;
  const diagnostics: Diagnostic[] = [
    diagnostic(
      'legacy_deprecated',
      'warning',
      'list-shaped hooks documents are deprecated; they are migrated on load. Rewrite the file as {"hooks": {"<Event>": [<group>, ...]}}',
      { path: hooksPath },
    ),
    ...unknownKeyWarnings(value, documentPath(file), TOP_LEVEL_KEYS, 'top-level'),
  ];
  const config: Partial<Record<EventName, GroupConfig[]>> = {};
  const declared: DeclaredHandler[] = [];
  entries.forEach((raw, index) => {
    const path = childPath(hooksPath, index);
    const entry = readEntry(raw, path, diagnostics);
    if (entry === null) return;
    for (const name of entry.events) {
      const mapped = LEGACY_MAP.get(name);
      if (mapped === undefined) {
        const message = `legacy event ${JSON.stringify(name)} has no equivalent and is dropped`;
        diagnostics.push(diagnostic('legacy_unmapped', 'warning', message, { path }));
        continue;
      }
      const groups = (config[mapped.event] ??= []);
      const handler = legacyHandler(entry, name);
      groups.push({ matcher: mapped.matcher, hooks: [handler] });
      declared.push(
        declareLegacy(handler, {
          event: mapped.event,
          groupIndex: groups.length - 1,
          matcher: mapped.matcher,
          path,
        }),
      );
      const where =
        mapped.matcher === null ? mapped.event : `${mapped.event} (matcher ${mapped.matcher})`;
      diagnostics.push(
        diagnostic(
          'legacy_migrated',
          'info',
          `legacy event ${JSON.stringify(name)} migrated to ${where}`,
          { path },
        ),
      );
    }
  });
  return { config: config as HooksConfig, declared, diagnostics };
}

/** The reference refuses a legacy list holding a non-object item: nothing of the file loads. */
function refused(item: unknown, path: string): ParsedDocument {
  const message = `legacy hook entry must be an object, found ${describeValue(item)}; the document is not loaded`;
  return {
    config: null,
    declared: [],
    diagnostics: [diagnostic('invalid_config', 'error', message, { path })],
  };
}

function readEntry(
  raw: Record<string, unknown>,
  path: string,
  diagnostics: Diagnostic[],
): LegacyEntry | null {
  const invalid = (message: string): null => {
    diagnostics.push(diagnostic('invalid_config', 'error', message, { path }));
    return null;
  };
  for (const d of unknownKeyWarnings(raw, path, ENTRY_KEYS, 'legacy entry')) diagnostics.push(d);
  const command = raw.command;
  if (typeof command === 'string') {
    const message = `legacy command ${JSON.stringify(command)} is a string, not an argv list (["program", "arg", ...]); the entry is skipped`;
    diagnostics.push(diagnostic('legacy_unmapped', 'warning', message, { path }));
    return null;
  }
  const isArgv =
    Array.isArray(command) &&
    command.length > 0 &&
    command.every((part) => typeof part === 'string') &&
    String(command[0]).trim() !== '';
  if (!isArgv) {
    return invalid(
      `legacy command must be a non-empty array of strings, found ${describeValue(command)}`,
    );
  }
  const listed = raw.events ?? [];
  const events = Array.isArray(listed) && listed.length === 0 ? [...LEGACY_MAP.keys()] : listed;
  if (!Array.isArray(events) || !events.every((name) => typeof name === 'string')) {
    return invalid(
      `legacy events must be an array of event names, found ${describeValue(raw.events)}`,
    );
  }
  if (raw.thread_id !== undefined && typeof raw.thread_id !== 'string') {
    return invalid(`legacy thread_id must be a string, found ${describeValue(raw.thread_id)}`);
  }
  return {
    command: command as string[],
    events: [...new Set(events as string[])],
    threadId: raw.thread_id,
  };
}

function legacyHandler(entry: LegacyEntry, legacyName: string): HandlerConfig {
  const legacyStdin: Record<string, unknown> = { event: legacyName };
  if (entry.threadId !== undefined) legacyStdin.thread_id = entry.threadId;
  const base = { type: 'command' as const, timeout: LEGACY_TIMEOUT_SEC, legacyStdin };
  return { ...base, command: entry.command.join(' '), argv: [...entry.command] };
}

/** Legacy handlers are declared with their migrated values (they only ever come from user files). */
function declareLegacy(
  handler: HandlerConfig,
  place: { event: EventName; groupIndex: number; matcher: string | null; path: string },
): DeclaredHandler {
  return {
    ...place,
    handlerIndex: 0,
    if: undefined,
    type: handler.type,
    command: handler.command,
    argv: handler.argv,
    timeout: handler.timeout,
    statusMessage: undefined,
    valid: true,
  };
}
