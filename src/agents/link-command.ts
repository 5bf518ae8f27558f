/**
 * The handler command `hookpm link` writes into an agent's settings, and the test that tells such
 * a command from any other (for `unlink`, `link` alone, `doctor`, and so that hookpm's own engine
 * never runs it: engine.md S1 sources are read less these handlers).
 *
 * The form is exactly `'<node>' '<hookpm bin>' wire <agent> --deadline <s>`, where `<s>` is the
 * agent's deadline for the handler in whole seconds (`hookpm link --timeout`, the `timeout` written
 * beside it), then ` --home '<dir>'` when the link was made for a hookpm home other than the
 * platform's (`--home`, HOOKPM_HOME): every path absolute and single-quoted for a POSIX shell (an
 * embedded `'` written as `'\''`), so the handler runs without hookpm on PATH, whatever the paths
 * contain and whatever the agent's environment holds. A command without `--deadline` (what an
 * earlier hookpm wrote) is a link command too. The command names no scope, so the same link
 * written at user and project scope is one command, which Claude Code runs once (it dedupes
 * identical commands).
 */
export const WIRE_COMMAND = 'wire';

export interface LinkCommand {
  /** The node binary that runs hookpm. */
  node: string;
  /** hookpm's `bin/hookpm.js`. */
  hookpm: string;
  /** The agent whose wire protocol the handler speaks. */
  agent: string;
  /** hookpm's home (`--home`); null: the platform's directories. */
  home: string | null;
  /** The agent's deadline for the handler, whole seconds; null: a link that names none. */
  deadline: number | null;
  /**
   * plugins.md G3: the link entry Claude Code runs in the background (`async: true`), which runs
   * the plugins' background handlers (`wire claude --background`); absent: the foreground one.
   */
  background?: true;
}

/** `'<node>' '<hookpm>' wire <agent>[ --background][ --deadline <s>][ --home '<dir>']`. */
export function formatLinkCommand(link: LinkCommand): string {
  const background = link.background === true ? ` ${BACKGROUND_OPTION}` : '';
  const deadline = link.deadline === null ? '' : ` ${DEADLINE_OPTION} ${link.deadline}`;
  const home = link.home === null ? '' : ` --home ${quote(link.home)}`;
  return `${quote(link.node)} ${quote(link.hookpm)} ${WIRE_COMMAND} ${link.agent}${background}${deadline}${home}`;
}

/** The `hookpm wire` option of the background link entry (plugins.md G3). */
export const BACKGROUND_OPTION = '--background';

/** The `hookpm wire` option that carries the agent's deadline (cli/grammar.ts WIRE_OPTIONS). */
export const DEADLINE_OPTION = '--deadline';

const QUOTED = String.raw`'((?:[^']|'\\'')*)'`;
const LINK_RE = new RegExp(
  `^${QUOTED} ${QUOTED} ${WIRE_COMMAND} ([a-z][a-z0-9-]*)(?: ${DEADLINE_OPTION} ([1-9][0-9]{0,5}))?(?: --home ${QUOTED})?$`,
);
/** The background form: the same with `--background` after the agent. */
const BACKGROUND_RE = new RegExp(
  `^${QUOTED} ${QUOTED} ${WIRE_COMMAND} ([a-z][a-z0-9-]*) --background(?: ${DEADLINE_OPTION} ([1-9][0-9]{0,5}))?(?: --home ${QUOTED})?$`,
);

/** The parts of a command `formatLinkCommand` wrote, or null for any other command. */
export function parseLinkCommand(command: unknown): LinkCommand | null {
  if (typeof command !== 'string') return null;
  const foreground = LINK_RE.exec(command.trim());
  const match = foreground ?? BACKGROUND_RE.exec(command.trim());
  if (match === null) return null;
  return {
    node: unquote(match[1]!),
    hookpm: unquote(match[2]!),
    agent: match[3]!,
    home: match[5] === undefined ? null : unquote(match[5]),
    deadline: match[4] === undefined ? null : Number(match[4]),
    ...(foreground === null ? { background: true as const } : {}),
  };
}

/** Whether a hooks handler (raw, as declared) is one `hookpm link` wrote. */
export function isLinkHandler(handler: unknown): boolean {
  if (typeof handler !== 'object' || handler === null) return false;
  return parseLinkCommand((handler as { command?: unknown }).command) !== null;
}

function quote(text: string): string {
  return `'${text.replaceAll("'", String.raw`'\''`)}'`;
}

function unquote(text: string): string {
  return text.replaceAll(String.raw`'\''`, "'");
}
