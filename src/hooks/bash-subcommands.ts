/**
 * The subcommands of a Bash command line, as Claude Code's `if` rules read it (engine.md F2):
 * the line is cut at the control operators `&&`, `||`, `;`, `|`, `&` and newlines outside quotes,
 * and each part loses its leading `NAME=value` assignments, so `ls && git push` and
 * `FOO=bar git push` both hold a `git push` subcommand. Quotes (`'...'`, `"..."`) and a backslash
 * keep an operator inside them from cutting. This is a reading for deciding whether a handler runs,
 * not a shell parser: a part it gets wrong only makes a handler run more often.
 */
export function bashSubcommands(command: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i] as string;
    if (quote !== null) {
      current += ch;
      if (ch === '\\' && quote === '"' && i + 1 < command.length) current += command[++i];
      else if (ch === quote) quote = null;
    } else if (ch === '\\' && i + 1 < command.length) {
      current += ch + command[++i];
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      current += ch;
    } else if (ch === ';' || ch === '&' || ch === '|' || ch === '\n') {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts.map(withoutAssignments).filter((part) => part !== '');
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"(?:[^"\\]|\\.)*"|[^\s'"])*\s+/;

/** `FOO=1 BAR='a b' git push` is `git push`; the part trimmed. */
function withoutAssignments(part: string): string {
  let text = part.trim();
  for (let match = ASSIGNMENT.exec(text); match !== null; match = ASSIGNMENT.exec(text)) {
    text = text.slice(match[0].length);
  }
  return text;
}
