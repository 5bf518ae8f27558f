import { describe, expect, it, vi } from 'vitest';
import { formatLinkCommand } from '../../src/agents/link-command.js';
import { applyLink, applyUnlink, linkHandlersOf } from '../../src/agents/link-edit.js';
import { readSettingsDocument } from '../../src/agents/settings-document.js';
import { CLAUDE_CODE_EVENT_NAMES } from '../../src/hooks/events.js';

// The settings edit of link and unlink on a settings file of many megabytes: each pass parses the
// text once, whatever the number of edits (docs/design/decisions.md, "Large agent settings
// files"). Before, every edit parsed the whole text again.

const parses = vi.hoisted(() => ({ count: 0, rootReads: 0 }));
vi.mock('jsonc-parser', async (importOriginal) => {
  const actual = await importOriginal<typeof import('jsonc-parser')>();
  return {
    ...actual,
    parseTree: (...args: Parameters<typeof actual.parseTree>) => {
      parses.count += 1;
      const root = actual.parseTree(...args);
      // Counts the reads of the top-level object's members (its keys looked at).
      if (root?.children !== undefined)
        root.children = new Proxy(root.children, {
          get(target, key, receiver) {
            if (typeof key === 'string' && /^\d+$/.test(key)) parses.rootReads += 1;
            return Reflect.get(target, key, receiver) as unknown;
          },
        });
      return root;
    },
  };
});

const handler = (hookpm: string) => ({
  type: 'command' as const,
  command: formatLinkCommand({
    node: '/usr/bin/node',
    hookpm,
    agent: 'claude',
    home: null,
    deadline: 600,
  }),
  timeout: 600,
});
const EVENTS = [...CLAUDE_CODE_EVENT_NAMES, 'PreToolUse', 'PostToolUse', 'Stop'];

function settingsOf(text: string): Record<string, unknown> {
  const read = readSettingsDocument(text, 'settings.json');
  if (!read.ok) throw new Error(read.problem);
  return read.value;
}

/** What `edit` returns, and how many times it parsed a tree of the text. */
function counted(edit: () => string): { text: string; parses: number } {
  parses.count = 0;
  const text = edit();
  return { text, parses: parses.count };
}

describe('link edits of a large settings file', () => {
  it('link, relink with every handler changed and an event dropped, and unlink each parse the text at most twice', () => {
    const allow = Array.from({ length: 40_000 }, (_, i) => `Bash(tool-${i} *)`);
    const events = Object.fromEntries(EVENTS.slice(0, 5).map((e) => [e, [{ hooks: [] }]]));
    const text = `${JSON.stringify({ permissions: { allow }, hooks: events }, null, 2)}\n`;
    expect(text.length).toBeGreaterThan(1_000_000);
    const link = (from: string, linked: readonly string[], hookpm: string) =>
      applyLink({
        text: from,
        settings: settingsOf(from),
        agent: 'claude',
        events: linked,
        handler: handler(hookpm),
      });
    const linked = counted(() => link(text, EVENTS, '/old/hookpm.js'));
    expect(linked.parses).toBeLessThanOrEqual(1);
    expect(linkHandlersOf(settingsOf(linked.text), 'claude')).toHaveLength(EVENTS.length);
    const relinked = counted(() => link(linked.text, EVENTS.slice(1), '/new/hookpm.js'));
    expect(relinked.parses).toBeLessThanOrEqual(2);
    const now = linkHandlersOf(settingsOf(relinked.text), 'claude');
    expect(now.map((at) => at.event).sort()).toEqual(EVENTS.slice(1).sort());
    expect(
      now.every((at) => JSON.stringify(at.value) === JSON.stringify(handler('/new/hookpm.js'))),
    ).toBe(true);
    const unlinked = counted(() => applyUnlink(relinked.text, settingsOf(relinked.text), 'claude'));
    expect(unlinked.parses).toBeLessThanOrEqual(1);
    expect(unlinked.text).toBe(text);
  });

  it('unlink, and link over a file holding many stray link handlers, go over them a bounded number of times each, not once per group', () => {
    const count = 2_000;
    const stray = { hooks: [{ type: 'command', command: handler('/h').command }] };
    const text = JSON.stringify({
      hooks: { PreToolUse: Array.from({ length: count }, () => stray) },
    });
    const settings = settingsOf(text);
    const unlinked = scanned(() => applyUnlink(text, settings, 'claude'));
    expect(unlinked.text).toBe('{}');
    const linked = scanned(() =>
      applyLink({ text, settings, agent: 'claude', events: ['Stop'], handler: handler('/h') }),
    );
    expect(settingsOf(linked.text)).toEqual({ hooks: { Stop: [{ hooks: [handler('/h')] }] } });
    // One search of the handlers per group would go over count * count elements.
    expect(unlinked.elements).toBeLessThan(10 * count);
    expect(linked.elements).toBeLessThan(10 * count);
  });

  it('many edits below an object of many keys look its keys up once, not once per edit', () => {
    const keys = 5_000;
    const handlers = 2_000;
    const settings: Record<string, unknown> = {};
    for (let i = 0; i < keys; i += 1) settings[`k${i}`] = i;
    const group = {
      hooks: [{ type: 'command', command: handler('/h').command }, { command: 'x' }],
    };
    settings['hooks'] = { PreToolUse: Array.from({ length: handlers }, () => group) };
    const text = JSON.stringify(settings);
    parses.rootReads = 0;
    const unlinked = applyUnlink(text, settingsOf(text), 'claude');
    expect(linkHandlersOf(settingsOf(unlinked), 'claude')).toEqual([]);
    // One search of the keys per edit would read keys * handlers members.
    expect(parses.rootReads).toBeLessThan(3 * keys);
  });
});

/**
 * What `edit` returns, and how many list elements the searches it made went over (`filter`,
 * `find`, `some`, `includes`, `indexOf`): a measure of its work that no machine's load changes.
 */
function scanned(edit: () => string): { text: string; elements: number } {
  const searches = ['filter', 'find', 'some', 'includes', 'indexOf'] as const;
  const originals = searches.map((name) => [name, Array.prototype[name]] as const);
  let elements = 0;
  for (const [name, original] of originals)
    Object.defineProperty(Array.prototype, name, {
      configurable: true,
      writable: true,
      value: function (this: unknown[], ...args: unknown[]) {
        elements += this.length;
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      },
    });
  try {
    return { text: edit(), elements };
  } finally {
    for (const [name, original] of originals)
      Object.defineProperty(Array.prototype, name, {
        configurable: true,
        writable: true,
        value: original,
      });
  }
}
