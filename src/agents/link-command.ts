import { BLOCKING_EVENTS } from '../hooks/fail-closed-entry.js';
import type { HookEventName } from '../hooks/events.js';
import { GEMINI_EVENT_OF } from './gemini-names.js';

/**
 * The handler command `hookpm link` writes into an agent's settings, and the test that tells such
 * a command from any other (for `unlink`, `link` alone, `doctor`, and so that hookpm's own engine
 * never runs it: engine.md S1 sources are read less these handlers).
 *
 * The run is `'<node>' '<hookpm bin>' wire <agent> --deadline <s>`, where `<s>` is the agent's
 * deadline for the handler in whole seconds (`hookpm link --timeout`, the `timeout` written beside
 * it), then ` --home '<dir>'` when the link was made for a hookpm home other than the platform's
 * (`--home`, HOOKPM_HOME): every path absolute and single-quoted for a POSIX shell (an embedded `'`
 * written as `'\''`), so the handler runs without hookpm on PATH, whatever the paths contain and
 * whatever the agent's environment holds. The command written checks that both files are still
 * there and `exec`s the run, else answers as engine.md B9 says (missingAnswer): a node or hookpm
 * removed since the link fails closed instead of the shell's exit 127, which every agent takes for
 * a non-blocking error. A bare run (what an earlier hookpm wrote, with or without `--deadline`) is
 * a link command too. The command names no scope, so the same link written at user and project
 * scope is one command, which Claude Code runs once (it dedupes identical commands).
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
  /**
   * engine.md B9: a bare run, as an earlier hookpm wrote it, which does not check that its node and
   * hookpm are there, so fails open when either is gone (`doctor` warns, `link` rewrites it);
   * absent: the checked command formatLinkCommand writes (which ignores this field).
   */
  unchecked?: true;
}

/**
 * `[ -x '<node>' ] && [ -f '<hookpm>' ] && exec <run>; <missingAnswer>`, the run being
 * `'<node>' '<hookpm>' wire <agent>[ --background][ --deadline <s>][ --home '<dir>']`.
 */
export function formatLinkCommand(link: LinkCommand): string {
  const node = quote(link.node);
  const hookpm = quote(link.hookpm);
  return `[ -x ${node} ] && [ -f ${hookpm} ] && exec ${formatRun(link)}; ${missingAnswer(link)}`;
}

/** The run alone, as an earlier hookpm wrote it for the whole command. */
function formatRun(link: LinkCommand): string {
  const background = link.background === true ? ` ${BACKGROUND_OPTION}` : '';
  const deadline = link.deadline === null ? '' : ` ${DEADLINE_OPTION} ${link.deadline}`;
  const home = link.home === null ? '' : ` --home ${quote(link.home)}`;
  return `${quote(link.node)} ${quote(link.hookpm)} ${WIRE_COMMAND} ${link.agent}${background}${deadline}${home}`;
}

/**
 * engine.md B9: the shell's answer when the node or the hookpm the link names is gone, by the
 * payload on stdin, which it reads with `cat`: exit 2 (each agent's block, its stderr the reason)
 * on an event that can block what the agent is about to do (B1, by each agent's names: Gemini
 * CLI's BeforeTool and BeforeAgent); on a Stop (Gemini CLI's AfterAgent) too, unless the agent is
 * already continuing because of a Stop hook (`stop_hook_active`), so that a Stop never loops; exit
 * 1 elsewhere, a non-blocking error whose stderr the agent shows. Matched on the payload's text: a
 * blocking event's name quoted anywhere in it is a block (a name the payload quotes elsewhere can
 * only make a block), and `stop_hook_active` is read only where no such name is. The background
 * entry (plugins.md G3) blocks nothing: exit 1.
 */
function missingAnswer(link: LinkCommand): string {
  const reason = `hookpm fails closed: the node or the hookpm that this link runs is gone (moved or uninstalled), so no plugin guard could decide; reinstall hookpm and run \`hookpm link ${link.agent}\`, or remove the hookpm entries from the settings of this agent`;
  const told = `printf '%s\\n' ${quote(reason)} >&2`;
  if (link.background === true) return `${told}; exit 1`;
  return `case $(cat) in ${patterns(BLOCKING_NAMES)}) e=2;; ${patterns(ACTIVE_STOP)}) e=1;; ${patterns(STOP_NAMES)}) e=2;; *) e=1;; esac; ${told}; exit $e`;
}

/** A `case` pattern matching a payload that holds any of `texts` quoted. */
function patterns(texts: readonly string[]): string {
  return texts.map((text) => `*'"${text}'*`).join('|');
}

/**
 * The blocking events (engine.md B1) that `blocking` keeps, by every name an agent hookpm links
 * gives them: the engine's (Claude Code, Deep Agents Code and Codex use them) and Gemini CLI's.
 */
function namesOf(blocking: (event: HookEventName) => boolean): string[] {
  const gemini = Object.entries(GEMINI_EVENT_OF);
  return [...BLOCKING_EVENTS]
    .filter(blocking)
    .flatMap((event) => [event, ...gemini.filter(([, is]) => is === event).map(([name]) => name)]);
}

/** The blocking events but Stop, each name quoted as the payload quotes it. */
const BLOCKING_NAMES = namesOf((event) => event !== 'Stop').map((name) => `${name}"`);
/** A Stop's payload while the agent continues because of a Stop hook, compact or spaced. */
const ACTIVE_STOP = ['stop_hook_active":true', 'stop_hook_active": true'];
/** Stop, by every agent's name of it. */
const STOP_NAMES = namesOf((event) => event === 'Stop').map((name) => `${name}"`);

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

/** The checks and the `exec` of formatLinkCommand's form; the rest is the run and its answer. */
const CHECKED_RE = new RegExp(
  String.raw`^\[ -x ${QUOTED} \] && \[ -f ${QUOTED} \] && exec (.+)$`,
  's',
);

/**
 * The parts of a command `formatLinkCommand` wrote (or a bare run, as an earlier hookpm wrote), or
 * null for any other command: a command that checks and runs is a link command only when it is,
 * byte for byte, what formatLinkCommand writes for its run.
 */
export function parseLinkCommand(command: unknown): LinkCommand | null {
  if (typeof command !== 'string') return null;
  const text = command.trim();
  const checked = CHECKED_RE.exec(text);
  if (checked === null) {
    const bare = parseRun(text);
    return bare === null ? null : { ...bare, unchecked: true };
  }
  const rest = checked[3]!;
  // The run ends where the answer starts: the last start of either answer (the answer holds no
  // path, a path may hold anything), so a command is read in two tries, however it is made.
  for (const start of ANSWER_STARTS) {
    const end = rest.lastIndexOf(start);
    const link = end === -1 ? null : parseRun(rest.slice(0, end));
    if (link !== null && formatLinkCommand(link) === text) return link;
  }
  return null;
}

/** How missingAnswer's two answers start: the foreground one's, then the background one's. */
const ANSWER_STARTS = ['; case $(cat) in ', "; printf '%s\\n' "];

/** The parts of a bare run, or null. */
function parseRun(text: string): LinkCommand | null {
  const foreground = LINK_RE.exec(text);
  const match = foreground ?? BACKGROUND_RE.exec(text);
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
