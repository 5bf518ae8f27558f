import { diagnostic, type Diagnostic } from '../diagnostic.js';
import { EVENTS, type HookEventName } from '../events.js';
import { parseIfRule, type IfRule } from '../if-rule.js';
import { childPath, documentPath } from '../json-path.js';
import { compileMatcher, type CompiledMatcher } from '../matcher.js';
import type { GroupConfig, HandlerConfig, SnapshotHandler, SourceDocument } from '../types.js';

/** A runnable handler with its compiled `if` rule (null: no rule, it always runs). */
export interface SnapshotEntry {
  readonly handler: SnapshotHandler;
  readonly rule: IfRule | null;
}

/** A group that can run: its merged index (R2), compiled matcher and runnable handlers. */
export interface SnapshotGroup {
  readonly index: number;
  readonly matcher: CompiledMatcher;
  readonly handlers: readonly SnapshotEntry[];
}

type MatcherResult = ReturnType<typeof compileMatcher>;
type IfResult = ReturnType<typeof parseIfRule>;

/** Memoizes matcher and `if` compilation within one build (many groups share a matcher). */
export interface CompileCache {
  matchers: Map<string, MatcherResult>;
  rules: Map<string, IfResult>;
}

export function createCompileCache(): CompileCache {
  return { matchers: new Map(), rules: new Map() };
}

export interface GroupInput {
  event: HookEventName;
  /** Position in the merged group list of the event (R2). */
  index: number;
  /** Position in its own document, for diagnostic paths. */
  localIndex: number;
  group: GroupConfig;
  source: SourceDocument;
  env: Readonly<Record<string, string>>;
}

/**
 * Compiles one valid group. A matcher that fails E4/E5 rejects the group; an `if` rule that cannot
 * hold (F3) removes its handler. Each problem is one diagnostic, produced here, once per build.
 */
export function compileGroup(
  input: GroupInput,
  cache: CompileCache,
): { group: SnapshotGroup | null; diagnostics: Diagnostic[] } {
  const { event, group } = input;
  const where = whereOf(input);
  const key = `${event}\u0000${group.matcher ?? ''}`;
  let compiled = cache.matchers.get(key);
  if (compiled === undefined) {
    compiled = compileMatcher(group.matcher, event);
    cache.matchers.set(key, compiled);
  }
  if (!compiled.ok) {
    const path = childPath(groupPath(input), 'matcher');
    return {
      group: null,
      diagnostics: [
        diagnostic(compiled.code, 'error', `${compiled.message}; the group is ignored`, {
          ...where,
          path,
        }),
      ],
    };
  }
  const diagnostics: Diagnostic[] = [];
  const entries: SnapshotEntry[] = [];
  group.hooks.forEach((config, handlerIndex) => {
    if (config === null) return;
    const handler = toSnapshotHandler(input, config, handlerIndex);
    const rule = compileIf(config.if, event, cache);
    if (rule.ok) {
      entries.push(Object.freeze({ handler, rule: rule.rule }));
      return;
    }
    const path = childPath(childPath(childPath(groupPath(input), 'hooks'), handlerIndex), 'if');
    diagnostics.push(
      diagnostic('invalid_if', 'error', `${rule.message}; the handler never runs`, {
        ...where,
        handler: handler.id,
        path,
      }),
    );
  });
  if (entries.length === 0) return { group: null, diagnostics };
  const snapshotGroup = {
    index: input.index,
    matcher: compiled.matcher,
    handlers: Object.freeze(entries),
  };
  return { group: Object.freeze(snapshotGroup), diagnostics };
}

/** `<file>:hooks.<Event>[g]`, g being the group's position in its own document. */
function groupPath(input: GroupInput): string {
  const hooks = childPath(documentPath(input.source.file), 'hooks');
  return childPath(childPath(hooks, input.event), input.localIndex);
}

function whereOf(input: GroupInput): Pick<Diagnostic, 'origin' | 'plugin'> {
  const plugin = input.source.plugin?.id;
  return plugin === undefined
    ? { origin: input.source.origin }
    : { origin: input.source.origin, plugin };
}

/** F3: no rule always holds; an unparseable rule, or any rule on a non-tool event, never does. */
function compileIf(
  rule: string | undefined,
  event: HookEventName,
  cache: CompileCache,
): { ok: true; rule: IfRule | null } | { ok: false; message: string } {
  if (rule === undefined) return { ok: true, rule: null };
  if (!EVENTS[event].tool) {
    return {
      ok: false,
      message: `"if" rule ${JSON.stringify(rule)} on ${event}, which is not a tool event`,
    };
  }
  let parsed = cache.rules.get(rule);
  if (parsed === undefined) {
    parsed = parseIfRule(rule);
    cache.rules.set(rule, parsed);
  }
  return parsed.ok ? { ok: true, rule: parsed.rule } : { ok: false, message: parsed.message };
}

function toSnapshotHandler(
  input: GroupInput,
  config: HandlerConfig,
  handlerIndex: number,
): SnapshotHandler {
  const { event, index, source } = input;
  // Optional fields are assigned in the order the object has always had (a pin writes its keys in
  // it); conditional spreads into the literal cost about a microsecond a handler.
  const handler: SnapshotHandler = {
    id: `${event}:${index}:${handlerIndex}`,
    event,
    groupIndex: index,
    handlerIndex,
    origin: source.origin,
    plugin: source.plugin?.id ?? null,
    source: source.file,
    matcher: input.group.matcher,
    if: config.if ?? null,
    command: config.command,
    argv: config.argv ? Object.freeze([...config.argv]) : null,
  } as SnapshotHandler;
  if (config.shell !== undefined) handler.shell = config.shell;
  if (config.onFailure !== undefined) handler.onFailure = config.onFailure;
  if (config.background !== undefined) handler.background = { ...config.background };
  handler.timeoutSec = config.timeout ?? EVENTS[event].defaultTimeoutSec;
  handler.statusMessage = config.statusMessage ?? null;
  handler.pluginEnv = input.env;
  handler.legacyStdin = config.legacyStdin ? deepFreeze(structuredClone(config.legacyStdin)) : null;
  const confine = source.plugin?.confine;
  if (confine !== undefined) handler.confine = confine;
  return Object.freeze(handler);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
