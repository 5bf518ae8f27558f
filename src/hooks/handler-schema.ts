import { z } from '../json/zod.js';
import { diagnostic } from './diagnostic.js';
import type { Diagnostic } from './diagnostic.js';
import { describeValue, isPlainObject } from '../json/describe-value.js';
import { unknownKeyWarnings } from './unknown-keys.js';
import type { HandlerConfig } from './types.js';

/**
 * One command handler of a hooks document (docs/reference/rules/engine.md#configuration). Each
 * field has one zod schema and the words of its rule; values are never coerced (`timeout: "60"` is
 * invalid). A handler with any problem is invalid as a whole (C1), with one `invalid_config` per
 * problem.
 */
const FIELDS = {
  type: { schema: z.literal('command'), rule: 'type must be "command"' },
  command: { schema: z.string(), rule: 'command must be a non-blank string' },
  argv: {
    schema: z.array(z.string()).check(
      z.minLength(1),
      z.refine((argv) => (argv[0] ?? '').trim() !== ''),
    ),
    rule: 'argv must be a non-empty array of strings with a non-blank first element',
  },
  args: {
    schema: z.array(z.string()),
    rule: 'args must be an array of strings (the arguments of the program command names)',
  },
  shell: {
    schema: z.enum(['bash', 'sh']),
    rule: 'shell must be "bash" or "sh"',
  },
  timeout: {
    schema: z.number().check(z.refine((n) => Number.isFinite(n) && n > 0)),
    rule: 'timeout must be a finite number > 0',
  },
  statusMessage: { schema: z.string(), rule: 'statusMessage must be a string' },
  if: { schema: z.string(), rule: 'if must be a string (a permission rule such as "Bash(git *)")' },
  async: { schema: z.boolean(), rule: 'async must be true or false' },
  asyncRewake: { schema: z.boolean(), rule: 'asyncRewake must be true or false' },
  rewakeMessage: {
    schema: z.string().check(z.minLength(1)),
    rule: 'rewakeMessage must be a non-empty string',
  },
  rewakeSummary: {
    schema: z.string().check(z.minLength(1)),
    rule: 'rewakeSummary must be a non-empty string',
  },
  onFailure: {
    schema: z.enum(['block', 'continue']),
    rule: 'onFailure must be "block" or "continue"',
  },
} as const;

type FieldName = keyof typeof FIELDS;

const FIELD_NAMES: ReadonlySet<string> = new Set(Object.keys(FIELDS));

export interface ParsedHandler {
  handler: HandlerConfig | null;
  diagnostics: Diagnostic[];
}

export function parseHandler(raw: unknown, path: string): ParsedHandler {
  if (!isPlainObject(raw)) {
    const message = `handler must be an object, found ${describeValue(raw)}`;
    return {
      handler: null,
      diagnostics: [diagnostic('invalid_config', 'error', message, { path })],
    };
  }
  const problems = fieldProblems(raw);
  const diagnostics = problems.map((message) =>
    diagnostic('invalid_config', 'error', message, { path }),
  );
  for (const d of unknownKeyWarnings(raw, path, FIELD_NAMES, 'handler')) diagnostics.push(d);
  const handler = problems.length === 0 ? toHandler(raw) : null;
  if (handler?.background !== undefined) diagnostics.push(backgroundNote(path));
  return { handler, diagnostics };
}

/**
 * plugins.md G3: a background handler (`async: true`) is valid, and runs only inside Claude Code;
 * hookpm's engine does not run it (the seed's rule). G11: `asyncRewake: true` without `async` is
 * an ordinary handler everywhere, Claude Code included.
 */
function backgroundNote(path: string): Diagnostic {
  return diagnostic(
    'unsupported_field',
    'warning',
    "async command hooks are not supported by hookpm's engine, so this handler is inert there; inside Claude Code (`hookpm link claude`) it runs in the background",
    { path },
  );
}

function fieldProblems(raw: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const name of Object.keys(FIELDS) as FieldName[]) {
    if (!Object.hasOwn(raw, name)) continue;
    if (!FIELDS[name].schema.safeParse(raw[name]).success) {
      problems.push(`${FIELDS[name].rule}, found ${describeValue(raw[name])}`);
    }
  }
  if (!Object.hasOwn(raw, 'type')) problems.push(`${FIELDS.type.rule}, found nothing`);
  const hasArgv = Object.hasOwn(raw, 'argv');
  const blankCommand = typeof raw.command === 'string' && raw.command.trim() === '';
  const otherType = Object.hasOwn(raw, 'type') && raw.type !== 'command';
  if (!otherType && !hasArgv && (raw.command === undefined || blankCommand)) {
    problems.push(`${FIELDS.command.rule} (or give argv), found ${describeValue(raw.command)}`);
  }
  if (hasArgv && Object.hasOwn(raw, 'args')) {
    problems.push(
      'argv and args are two exec forms of one handler: give argv alone, or command with args',
    );
  }
  return problems;
}

/**
 * Only called once every present field passed its schema. Claude Code's exec form becomes argv:
 * `command` names the program and `args` are its arguments (`argv = [command, ...args]`), run
 * without a shell; `command` stays as written, to be shown. `shell: "sh"` is the default, so only
 * `"bash"` is kept, and only where a shell runs (no argv); `onFailure: "continue"` is the default,
 * so only `"block"` is kept (engine.md X9).
 */
function toHandler(raw: Record<string, unknown>): HandlerConfig {
  const args = raw.args as string[] | undefined;
  const command = raw.command as string | undefined;
  const argv =
    args !== undefined && command !== undefined
      ? [command, ...args]
      : (raw.argv as string[] | undefined);
  const handler: HandlerConfig = {
    type: 'command',
    command: command !== undefined && command.trim() !== '' ? command : (argv ?? []).join(' '),
  };
  if (argv !== undefined) handler.argv = [...argv];
  if (raw.timeout !== undefined) handler.timeout = raw.timeout as number;
  if (raw.statusMessage !== undefined) handler.statusMessage = raw.statusMessage as string;
  if (raw.if !== undefined) handler.if = raw.if as string;
  if (raw.shell === 'bash' && argv === undefined) handler.shell = 'bash';
  if (raw.onFailure === 'block') handler.onFailure = 'block';
  if (raw.async === true) {
    handler.background = { rewake: raw.asyncRewake === true };
    if (raw.rewakeMessage !== undefined) handler.background.message = raw.rewakeMessage as string;
    if (raw.rewakeSummary !== undefined) handler.background.summary = raw.rewakeSummary as string;
  }
  return handler;
}
