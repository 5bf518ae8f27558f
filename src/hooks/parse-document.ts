import { diagnostic } from './diagnostic.js';
import type { Diagnostic } from './diagnostic.js';
import { describeValue, isPlainObject } from '../json/describe-value.js';
import { EVENT_NAMES, isEventName, isHookEventName } from './events.js';
import type { HookEventName } from './events.js';
import { declare, parseGroup } from './group-schema.js';
import { unknownKeyWarnings } from './unknown-keys.js';
import { childPath, documentPath } from './json-path.js';
import { clip } from '../text/clip.js';
import { migrateLegacyDocument } from './legacy.js';
import type { DeclaredHandler, GroupConfig, HooksConfig, ParsedDocument } from './types.js';

/**
 * Validates one already-parsed hooks document (docs/reference/rules/engine.md#configuration,
 * C1-C4). Never throws: what is wrong becomes diagnostics and is left out (an invalid handler or
 * group is null in place, an event without a valid group is absent). `declared` lists every handler
 * entry under any event key, in document order, valid or not, for consent surfaces and `hookpm
 * validate`. `legacy` allows the C4 migration of a list-shaped `hooks` (user and project files
 * only; plugin documents never).
 */
export function parseHooksDocument(
  value: unknown,
  opts: { file: string; legacy: boolean },
): ParsedDocument {
  const root = documentPath(opts.file);
  if (!isPlainObject(value)) {
    return rejected(
      `a hooks document must be an object with an object "hooks", found ${describeValue(value)}`,
      opts.file,
    );
  }
  if (opts.legacy && Array.isArray(value.hooks)) return migrateLegacyDocument(value, opts.file);
  const hooksPath = childPath(root, 'hooks');
  const modules = Object.hasOwn(value, 'modules') ? [modulesNote(childPath(root, 'modules'))] : [];
  // G4: Claude Code's in-process hook modules alone make a document Claude Code loads.
  if (value.hooks === undefined && modules.length > 0)
    return { config: {}, declared: [], diagnostics: modules };
  if (!isPlainObject(value.hooks)) return rejected(hooksMessage(value, opts.legacy), hooksPath);
  const diagnostics = [...modules, ...unknownKeyWarnings(value, root, TOP_LEVEL_KEYS, 'top-level')];
  const declared: DeclaredHandler[] = [];
  const config: HooksConfig = {};
  for (const [key, groups] of Object.entries(value.hooks)) {
    const path = childPath(hooksPath, key);
    if (!isHookEventName(key)) {
      diagnostics.push(diagnostic('invalid_config', 'error', unknownEventMessage(key), { path }));
      for (const handler of declareUnknownEvent(key, groups, path)) declared.push(handler);
      continue;
    }
    const parsed = parseEvent(key, groups, path);
    for (const d of parsed.diagnostics) diagnostics.push(d);
    for (const handler of parsed.declared) declared.push(handler);
    if (parsed.groups.some((group) => group !== null)) config[key] = parsed.groups;
  }
  return { config, declared, diagnostics };
}

const TOP_LEVEL_KEYS: ReadonlySet<string> = new Set(['hooks', 'description', 'modules']);

/**
 * plugins.md G4: `modules` are Claude Code's in-process hook modules, which Claude Code alone runs
 * (inside its own process); hookpm keeps the document and runs none of them anywhere.
 */
function modulesNote(path: string): Diagnostic {
  return diagnostic(
    'unsupported_field',
    'warning',
    "modules are Claude Code's in-process hook modules: Claude Code alone runs them, when it loads the plugin itself; hookpm and the agents it links run none of them",
    { path },
  );
}

interface ParsedEvent {
  groups: Array<GroupConfig | null>;
  declared: DeclaredHandler[];
  diagnostics: Diagnostic[];
}

function parseEvent(event: HookEventName, raw: unknown, path: string): ParsedEvent {
  const result: ParsedEvent = { groups: [], declared: [], diagnostics: [] };
  if (!Array.isArray(raw)) {
    const message = `the value of ${event} must be an array of groups, found ${describeValue(raw)}`;
    result.diagnostics.push(diagnostic('invalid_config', 'error', message, { path }));
    return result;
  }
  raw.forEach((entry: unknown, groupIndex) => {
    const parsed = parseGroup(entry, { event, groupIndex, path: childPath(path, groupIndex) });
    result.groups.push(parsed.group);
    for (const handler of parsed.declared) result.declared.push(handler);
    for (const d of parsed.diagnostics) result.diagnostics.push(d);
  });
  return result;
}

/** Entries under an unknown event key are listed (never valid) so a consent surface shows them. */
function declareUnknownEvent(event: string, raw: unknown, path: string): DeclaredHandler[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((group: unknown, groupIndex) => {
    if (!isPlainObject(group) || !Array.isArray(group.hooks)) return [];
    const groupPath = childPath(path, groupIndex);
    return group.hooks.map((entry: unknown, handlerIndex) =>
      declare(entry, {
        event,
        groupIndex,
        handlerIndex,
        matcher: group.matcher,
        valid: false,
        path: groupPath,
      }),
    );
  });
}

function rejected(message: string, path: string): ParsedDocument {
  return {
    config: null,
    declared: [],
    diagnostics: [diagnostic('invalid_config', 'error', message, { path })],
  };
}

function hooksMessage(value: Record<string, unknown>, legacy: boolean): string {
  const found = `"hooks" must be an object mapping event names to arrays of groups, found ${describeValue(value.hooks)}`;
  if (Array.isArray(value.hooks) && !legacy) {
    return `${found} (list-shaped legacy documents are migrated only for user and project files)`;
  }
  if (value.hooks === undefined && Object.keys(value).some(isEventName)) {
    return `${found} (event names must be inside {"hooks": {...}}, not at the top level)`;
  }
  return found;
}

/** Names the engine event the author probably meant (`preToolUse`, `pre_tool_use`, `stop`). */
function unknownEventMessage(key: string): string {
  const fold = (name: string): string => name.toLowerCase().replace(/[_\-\s]/g, '');
  const near = EVENT_NAMES.find((name) => fold(name) === fold(key));
  const hint =
    near === undefined ? '' : ` (event names are case-sensitive: did you mean "${near}"?)`;
  // The key is the document's, of any length: the message quotes a bounded prefix of it.
  return `unknown event ${JSON.stringify(clip(key))}${hint}; its groups are not loaded`;
}
