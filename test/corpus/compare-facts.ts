/**
 * What one side of the comparison (Claude Code, or hookpm) says about the corpus world
 * (compare-world.ts), as plain data: the table claude-compare.test.ts checks, and the form in
 * which Claude Code's answers are recorded (claude-code-facts.json).
 */

/**
 * The events a `-p` turn with one allowed Bash call fires, in order (claude-code.ts), whose
 * handlers Claude Code's debug file names with their plugin. SessionEnd fires too, but its lines
 * name no plugin (`SessionEnd:other [<command as written>] completed ...`), so it is not one of
 * them: a plugin's SessionEnd is checked as an event it hooks only.
 */
export const TURN_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'Stop',
] as const;

/** The text a plugin root is written as in a command, on both sides. */
export const ROOT = '<root>';

export interface PluginFacts {
  /** The plugin installs. */
  accepted: boolean;
  /** The events it hooks, sorted (none when refused). */
  events: string[];
  /**
   * Per event of TURN_EVENTS it runs something on in the turn: the commands, with the plugin root
   * written ROOT, sorted, no repeats.
   */
  ran: Record<string, string[]>;
  /** `<Event>: <command>` (as in `ran`) for each run in the background, sorted; events of the turn only. */
  background: string[];
}

export interface SideFacts {
  /** By marketplace corpus folder: the catalog is accepted (`marketplace add`, `registry add`). */
  marketplaces: Record<string, boolean>;
  /** By plugin corpus folder. */
  plugins: Record<string, PluginFacts>;
}

export interface Check {
  /** The marketplace or plugin corpus folder. */
  subject: string;
  /** `catalog accepted`, `accepted`, `hooks <Event>`, `runs on <Event>: <command>`, `background: <command>`. */
  fact: string;
  claude: boolean;
  hookpm: boolean;
}

/**
 * The checks: one per marketplace (accepted?); per plugin one for accepted?, one per event either
 * side says it hooks, one per (event of the turn, command) either side runs, and one per command
 * either side runs in the background. A check agrees when both sides say the same.
 */
export function compareFacts(claude: SideFacts, hookpm: SideFacts): Check[] {
  const checks: Check[] = [];
  for (const subject of union(Object.keys(claude.marketplaces), Object.keys(hookpm.marketplaces))) {
    checks.push({
      subject,
      fact: 'catalog accepted',
      claude: claude.marketplaces[subject] === true,
      hookpm: hookpm.marketplaces[subject] === true,
    });
  }
  const none: PluginFacts = { accepted: false, events: [], ran: {}, background: [] };
  for (const subject of union(Object.keys(claude.plugins), Object.keys(hookpm.plugins))) {
    const c = claude.plugins[subject] ?? none;
    const h = hookpm.plugins[subject] ?? none;
    const push = (fact: string, inClaude: boolean, inHookpm: boolean) =>
      checks.push({ subject, fact, claude: inClaude, hookpm: inHookpm });
    push('accepted', c.accepted, h.accepted);
    for (const event of union(c.events, h.events)) {
      push(`hooks ${event}`, c.events.includes(event), h.events.includes(event));
    }
    for (const event of TURN_EVENTS) {
      const cr = c.ran[event] ?? [];
      const hr = h.ran[event] ?? [];
      for (const command of union(cr, hr)) {
        push(`runs on ${event}: ${command}`, cr.includes(command), hr.includes(command));
      }
    }
    for (const command of union(c.background, h.background)) {
      push(
        `background: ${command}`,
        c.background.includes(command),
        h.background.includes(command),
      );
    }
  }
  return checks;
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])].sort();
}

/** The table as text: one line per check, `=` agreed or `≠` not, and the two answers. */
export function formatChecks(checks: readonly Check[]): string {
  const yes = (b: boolean) => (b ? 'yes' : 'no');
  return checks
    .map(
      (c) =>
        `${c.claude === c.hookpm ? '=' : '≠'} ${c.subject} | ${c.fact} | claude ${yes(c.claude)} | hookpm ${yes(c.hookpm)}`,
    )
    .join('\n');
}

/** Runs `work` on every item, at most `size` at a time. */
export async function pool<T>(
  items: readonly T[],
  size: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}
