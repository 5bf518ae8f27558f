import { EVENT_NAMES } from '../../hooks/events.js';

/** The prompt's slash commands (session-prompt.ts). */
export const SLASH_COMMANDS = ['/reload', '/hooks', '/help', '/quit', '/exit'] as const;

/**
 * Help groups and completion (docs/reference/commands.md#help-aliases-and-completion): Tab
 * completion at the `hookpm session` prompt, as node:readline's `completer` takes it: the
 * candidates for `line` (the text before the cursor) and the part of it they replace. A slash
 * command or an event name at the start of the line (one candidate gets a space after an event,
 * ready for the payload), then `{}` for an empty payload. Case-sensitive, as the event names are;
 * readline lists several candidates and completes their common prefix.
 */
export function completeSessionLine(line: string): [string[], string] {
  if (line.startsWith('/')) return [SLASH_COMMANDS.filter((c) => c.startsWith(line)), line];
  const space = line.indexOf(' ');
  if (space === -1) {
    const hits = EVENT_NAMES.filter((e) => e.startsWith(line));
    return [hits.length === 1 ? [`${hits[0]} `] : hits, line];
  }
  const rest = line.slice(space + 1);
  const event = line.slice(0, space);
  if ((EVENT_NAMES as readonly string[]).includes(event) && '{}'.startsWith(rest.trimStart()))
    return [['{}'], rest.trimStart()];
  return [[], rest];
}
