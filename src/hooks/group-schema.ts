import { diagnostic } from './diagnostic.js';
import type { Diagnostic } from './diagnostic.js';
import { describeValue, isPlainObject } from '../json/describe-value.js';
import { parseHandler } from './handler-schema.js';
import { unknownKeyWarnings } from './unknown-keys.js';
import { childPath } from './json-path.js';
import type { DeclaredHandler, GroupConfig } from './types.js';

/**
 * One matcher group (docs/reference/rules/engine.md#configuration): `{"matcher"?: string|null,
 * "hooks": [<handler>...]}`. A shape error rejects the group (`invalid_config` at
 * `<file>:hooks.<Event>[g]`); an invalid handler is null in place (C1); a group without a valid
 * handler is null. The matcher's syntax is checked when the snapshot is built (E4), not here.
 */
const GROUP_KEYS: ReadonlySet<string> = new Set(['matcher', 'hooks']);

export interface ParsedGroup {
  group: GroupConfig | null;
  declared: DeclaredHandler[];
  diagnostics: Diagnostic[];
}

export interface GroupPlace {
  /** The event key as written (known or not). */
  event: string;
  groupIndex: number;
  path: string;
}

export function parseGroup(raw: unknown, place: GroupPlace): ParsedGroup {
  const { path } = place;
  if (!isPlainObject(raw)) {
    const message = `group must be an object with a "hooks" array, found ${describeValue(raw)}`;
    return { group: null, declared: [], diagnostics: [invalid(message, path)] };
  }
  const diagnostics = groupProblems(raw).map((message) => invalid(message, path));
  const groupValid = diagnostics.length === 0;
  for (const d of unknownKeyWarnings(raw, path, GROUP_KEYS, 'group')) diagnostics.push(d);
  const entries: unknown[] = Array.isArray(raw.hooks) ? raw.hooks : [];
  const handlers = entries.map((entry, handlerIndex) => {
    const parsed = parseHandler(entry, childPath(childPath(path, 'hooks'), handlerIndex));
    for (const d of parsed.diagnostics) diagnostics.push(d);
    return parsed.handler;
  });
  // The place's fields one by one: an object spread here took a third of a document's parse.
  const declared = entries.map((entry, handlerIndex) =>
    declare(entry, {
      event: place.event,
      groupIndex: place.groupIndex,
      path,
      handlerIndex,
      matcher: raw.matcher,
      valid: groupValid && handlers[handlerIndex] !== null,
    }),
  );
  if (groupValid && entries.length === 0) {
    diagnostics.push(
      diagnostic('invalid_config', 'warning', 'group has no handlers; it is ignored', { path }),
    );
  }
  const anyValid = handlers.some((handler) => handler !== null);
  const matcher = typeof raw.matcher === 'string' ? raw.matcher : null;
  return {
    group: groupValid && anyValid ? { matcher, hooks: handlers } : null,
    declared,
    diagnostics,
  };
}

function groupProblems(raw: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const matcher = raw.matcher;
  if (matcher !== undefined && matcher !== null && typeof matcher !== 'string') {
    problems.push(`matcher must be a string or null, found ${describeValue(matcher)}`);
  }
  if (!Array.isArray(raw.hooks)) {
    problems.push(
      `hooks must be an array of handlers, found ${describeValue(raw.hooks)}${shapeHint(raw)}`,
    );
  }
  return problems;
}

/** Names the two mistakes seen in real documents (corpus/INDEX.md): a singular `hook`, a bare handler. */
function shapeHint(raw: Record<string, unknown>): string {
  if (Object.hasOwn(raw, 'hook')) return ' (the key is "hooks", holding an array)';
  if (Object.hasOwn(raw, 'command') || Object.hasOwn(raw, 'type')) {
    return ' (this looks like a handler: a group is {"matcher": ..., "hooks": [<handler>]})';
  }
  return '';
}

function invalid(message: string, path: string): Diagnostic {
  return diagnostic('invalid_config', 'error', message, { path });
}

interface DeclarePlace extends GroupPlace {
  handlerIndex: number;
  matcher: unknown;
  valid: boolean;
}

/** The raw field values of one handler entry, valid or not (types.ts DeclaredHandler). */
export function declare(entry: unknown, place: DeclarePlace): DeclaredHandler {
  const fields = isPlainObject(entry) ? entry : {};
  return {
    event: place.event,
    groupIndex: place.groupIndex,
    handlerIndex: place.handlerIndex,
    matcher: place.matcher,
    if: fields.if,
    type: fields.type,
    command: fields.command,
    argv: fields.argv,
    timeout: fields.timeout,
    statusMessage: fields.statusMessage,
    args: fields.args,
    shell: fields.shell,
    onFailure: fields.onFailure,
    async: fields.async,
    asyncRewake: fields.asyncRewake,
    rewakeMessage: fields.rewakeMessage,
    rewakeSummary: fields.rewakeSummary,
    valid: place.valid,
    path: childPath(childPath(place.path, 'hooks'), place.handlerIndex),
  };
}
