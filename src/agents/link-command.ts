/**
 * The handler command `hookpm link` writes into an agent's settings, and the test that tells such
 * a command from any other (for `unlink`, `link` alone, `doctor`, and so that hookpm's own engine
 * never runs it: engine.md S1 sources are read less these handlers).
 *
 * The form is exactly `'<node>' '<hookpm bin>' wire <agent>`, then ` --home '<dir>'` when the link
 * was made for a hookpm home other than the platform's (`--home`, HOOKPM_HOME): every path absolute
 * and single-quoted for a POSIX shell (an embedded `'` written as `'\''`), so the handler runs
 * without hookpm on PATH, whatever the paths contain and whatever the agent's environment holds. The command names no scope, so the same link written at user and
 * project scope is one command, which Claude Code runs once (it dedupes identical commands).
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
}

/** `'<node>' '<hookpm>' wire <agent>[ --home '<dir>']`. */
export function formatLinkCommand(link: LinkCommand): string {
  const home = link.home === null ? '' : ` --home ${quote(link.home)}`;
  return `${quote(link.node)} ${quote(link.hookpm)} ${WIRE_COMMAND} ${link.agent}${home}`;
}

const QUOTED = String.raw`'((?:[^']|'\\'')*)'`;
const LINK_RE = new RegExp(
  `^${QUOTED} ${QUOTED} ${WIRE_COMMAND} ([a-z][a-z0-9-]*)(?: --home ${QUOTED})?$`,
);

/** The parts of a command `formatLinkCommand` wrote, or null for any other command. */
export function parseLinkCommand(command: unknown): LinkCommand | null {
  if (typeof command !== 'string') return null;
  const match = LINK_RE.exec(command.trim());
  if (match === null) return null;
  return {
    node: unquote(match[1]!),
    hookpm: unquote(match[2]!),
    agent: match[3]!,
    home: match[4] === undefined ? null : unquote(match[4]),
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
