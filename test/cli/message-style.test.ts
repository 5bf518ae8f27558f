import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '../../src/hooks/events.js';
import { findMessageEnds, type MessageEnd } from '../helpers/message-sites.js';

/**
 * docs/reference/commands.md#terminals-and-pipes, "Messages" (messages in one style): error lines, diagnostics and notes
 * start lower-case and end without a period (git's `error: ...`); hints are full sentences, a
 * capital first and a period last. This scans the sources, so a new message in another style
 * fails here, naming its file and line.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Words that keep their capital at the start of a lower-case message: names, not sentence case. */
const PROPER_NOUNS: ReadonlySet<string> = new Set<string>([
  ...EVENT_NAMES,
  'Claude',
  'Codex',
  'Gemini',
  'Node',
  'Ctrl+C',
]);

/** Names written lower-case, which may start a hint (`hookpm installs only ...`). */
const LOWER_CASE_NAMES = /^(?:hookpm|git|npm)\b/;

/** `warning: ` and `note: ` are labels a note may carry; the message proper starts after them. */
const LABEL = /^(?:warning|note|info): /;

function firstWord(text: string): string {
  return (/^[^\s:;,]*/.exec(text)?.[0] ?? '').replace(/[)"'`]+$/, '');
}

/** A capitalised word that is not an acronym (JSON, URL), a PascalCase name or a proper noun. */
function isSentenceCase(word: string): boolean {
  if (!/^[A-Z]/.test(word)) return false;
  if (PROPER_NOUNS.has(word)) return false;
  if (/^[A-Z0-9_]{2,}s?$/.test(word)) return false;
  if (/^[A-Z][a-z0-9]*[A-Z]/.test(word)) return false;
  return true;
}

/** What is wrong with one end of a message, or null when it keeps the style. */
function styleProblem(found: Pick<MessageEnd, 'kind' | 'end' | 'text'>): string | null {
  const { kind, end, text } = found;
  if (kind === 'hint') {
    if (end === 'first' && !/^[A-Z`'"(]/.test(text) && !LOWER_CASE_NAMES.test(text))
      return 'a hint should start with a capital';
    if (end === 'last' && !/[.?!]$/.test(text.trimEnd())) return 'a hint should end with a period';
    return null;
  }
  if (end === 'first') {
    const message = text.replace(LABEL, '');
    if (message !== '' && isSentenceCase(firstWord(message)))
      return `${kind} should start lower-case`;
  }
  if (end === 'last' && /(?:^|[^.])\.$/.test(text)) return `${kind} should not end with a period`;
  return null;
}

describe('message style (docs/reference/commands.md, "Messages")', () => {
  const ends = findMessageEnds(ROOT);

  it('finds the messages of src: errors, hints, diagnostics and notes', () => {
    const kinds = new Set(ends.map((e) => e.kind));
    expect([...kinds].sort()).toEqual(['diagnostic', 'error', 'hint', 'note']);
    expect(ends.filter((e) => e.kind === 'error' && e.end === 'first').length).toBeGreaterThan(150);
  });

  it('every error, diagnostic and note starts lower-case and has no final period; every hint is a sentence', () => {
    const problems = ends
      .map((found) => ({ found, problem: styleProblem(found) }))
      .filter((p) => p.problem !== null)
      .map(({ found, problem }) => `${found.where}: ${problem}: ${JSON.stringify(found.text)}`);
    expect(problems, `messages out of style:\n${problems.join('\n')}\n`).toEqual([]);
  });

  it('the check rejects a message in the other style and accepts names and acronyms', () => {
    const both = (kind: MessageEnd['kind'], text: string): (string | null)[] => [
      styleProblem({ kind, end: 'first', text }),
      styleProblem({ kind, end: 'last', text }),
    ];
    expect(both('error', 'Plugin guard is not installed')).toEqual([
      'error should start lower-case',
      null,
    ]);
    expect(both('error', 'plugin guard is not installed.')).toEqual([
      null,
      'error should not end with a period',
    ]);
    expect(both('note', 'warning: Deprecated')).toEqual(['note should start lower-case', null]);
    expect(both('diagnostic', 'PreToolUse accepts no matcher here')).toEqual([null, null]);
    expect(both('diagnostic', 'JSON output is not an object')).toEqual([null, null]);
    expect(both('error', 'waiting...')).toEqual([null, null]);
    expect(both('hint', 'run `hookpm list`.')).toEqual([
      'a hint should start with a capital',
      null,
    ]);
    expect(both('hint', 'Run `hookpm list`')).toEqual([null, 'a hint should end with a period']);
    expect(both('hint', 'Run `hookpm list`.')).toEqual([null, null]);
    expect(both('hint', 'hookpm installs only signed tarballs.')).toEqual([null, null]);
  });
});
