import { describe, expect, it } from 'vitest';
import { formatLinkCommand, parseLinkCommand } from '../../src/agents/link-command.js';
import { applyLink, applyUnlink, linkHandlersOf } from '../../src/agents/link-edit.js';
import { readSettingsDocument } from '../../src/agents/settings-document.js';
import { withoutLinkHandlers } from '../../src/agents/without-links.js';
import type { HooksConfig } from '../../src/hooks/types.js';

// The settings edit of link and unlink: link adds one handler per event and changes nothing
// else; unlink takes exactly hookpm's handlers out; a file that is not strict JSON is refused.

const COMMAND = formatLinkCommand({
  node: '/usr/bin/node',
  hookpm: "/opt/it's/bin/hookpm.js",
  agent: 'claude',
  home: null,
  deadline: 600,
});
const HANDLER = { type: 'command' as const, command: COMMAND, timeout: 600 };
const EVENTS = ['PreToolUse', 'Stop'];

function settingsOf(text: string): Record<string, unknown> {
  const read = readSettingsDocument(text, 'settings.json');
  if (!read.ok) throw new Error(read.problem);
  return read.value;
}

function link(text: string | null, events = EVENTS, handler = HANDLER): string {
  return applyLink({
    text,
    settings: text === null ? {} : settingsOf(text),
    agent: 'claude',
    events,
    handler,
  });
}

/** `value` with every object's keys in sorted order, as `jq -S` writes them. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
}

function unlink(text: string): string {
  return applyUnlink(text, settingsOf(text), 'claude');
}

const FILES: Record<string, string> = {
  'two-space, no hooks': '{\n  "model": "opus",\n  "n": 1.0e3,\n  "esc": "\\u00e9"\n}\n',
  'four-space, inline hooks':
    '{\n    "permissions": {"allow": ["Bash(ls)"]},\n    "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "mine.sh"}]}]}\n}\n',
  'tabs, CRLF, multi-line hooks':
    '{\r\n\t"hooks": {\r\n\t\t"Stop": [\r\n\t\t\t{\r\n\t\t\t\t"hooks": [{"type": "command", "command": "a"}]\r\n\t\t\t}\r\n\t\t]\r\n\t}\r\n}\r\n',
  'empty object': '{}',
  'empty hooks': '{"hooks": {}, "x": [1, 2]}',
};

describe('link edits', () => {
  for (const [name, text] of Object.entries(FILES)) {
    it(`${name}: every other key keeps its value, each event gets one hookpm group, and unlink gives the bytes back`, () => {
      const linked = link(text);
      const before = settingsOf(text);
      const after = settingsOf(linked);
      for (const key of Object.keys(before).filter((k) => k !== 'hooks'))
        expect(after[key]).toEqual(before[key]);
      const handlers = linkHandlersOf(after, 'claude');
      expect(handlers.map((h) => h.event).sort()).toEqual([...EVENTS].sort());
      expect(handlers.every((h) => JSON.stringify(h.value) === JSON.stringify(HANDLER))).toBe(true);
      // The user's own handlers are all still there, in order.
      const own = (v: Record<string, unknown>) =>
        JSON.stringify(
          Object.entries((v['hooks'] ?? {}) as Record<string, unknown[]>)
            .map(([e, gs]) => [e, gs.filter((g) => !JSON.stringify(g).includes(' wire claude'))])
            .filter(([, gs]) => (gs as unknown[]).length > 0),
        );
      expect(own(after)).toBe(own(before));
      expect(link(linked)).toBe(linked);
      expect(unlink(linked)).toBe(text === '{"hooks": {}, "x": [1, 2]}' ? '{"x": [1, 2]}' : text);
    });
  }

  it('link keeps the bytes outside hooks exactly: number forms, escapes, inline lists', () => {
    const text = FILES['four-space, inline hooks']!;
    const linked = link(text);
    expect(
      linked.startsWith(
        '{\n    "permissions": {"allow": ["Bash(ls)"]},\n    "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "mine.sh"}]}, ',
      ),
    ).toBe(true);
    const number = link(FILES['two-space, no hooks']!);
    expect(number).toContain('"n": 1.0e3,\n  "esc": "\\u00e9",\n  "hooks": {');
  });

  it('a new file is made with the hooks alone', () => {
    const made = link(null);
    expect(Object.keys(settingsOf(made))).toEqual(['hooks']);
    expect(made.endsWith('}\n')).toBe(true);
  });

  it('agents.md What link writes: linking twice writes nothing, also after the keys were sorted', () => {
    // `jq -S` or an editor's "sort keys" reorders the handler's keys: the same handler still.
    const resorted = JSON.stringify(sortKeys(JSON.parse(link(null))), null, 2) + '\n';
    expect(resorted).not.toBe(link(null));
    expect(link(resorted)).toBe(resorted);
  });

  it('a link to a hookpm that moved is rewritten in place; a link on an event no longer linked goes', () => {
    const old = link(FILES['two-space, no hooks']!, ['PreToolUse', 'Stop', 'Notification'], {
      ...HANDLER,
      command: HANDLER.command.replaceAll('/opt', '/old'),
    });
    const relinked = link(old);
    const handlers = linkHandlersOf(settingsOf(relinked), 'claude');
    expect(handlers.map((h) => h.event)).toEqual(['PreToolUse', 'Stop']);
    expect(handlers.every((h) => (h.value as { command: string }).command === COMMAND)).toBe(true);
    expect(unlink(relinked)).toBe(FILES['two-space, no hooks']);
  });

  it("agents.md What link writes: a handler rewritten in place in a file written on one line stays on that line, in the file's own layout", () => {
    const moved = { ...HANDLER, command: HANDLER.command.replaceAll('/opt', '/old') };
    const compact = JSON.stringify({ model: 'opus', hooks: { Stop: [{ hooks: [moved] }] } });
    const relinked = link(compact, ['Stop']);
    expect(relinked).toBe(
      JSON.stringify({ model: 'opus', hooks: { Stop: [{ hooks: [HANDLER] }] } }),
    );
    // An empty `hooks`, or an empty event list, on the line of the rest gets it on that line.
    const group = `{"hooks":[${JSON.stringify(HANDLER)}]}`;
    expect(link('{"model":"opus","hooks":{}}', ['Stop'])).toBe(
      `{"model":"opus","hooks":{"Stop": [${group}]}}`,
    );
    expect(link('{"hooks":{"Stop":[]},"x":1}', ['Stop'])).toBe(
      `{"hooks":{"Stop":[${group}]},"x":1}`,
    );
  });

  it("a CRLF file: every line link inserts or rewrites ends in the file's own CRLF, and unlink gives the bytes back", () => {
    const bareLf = /(?<!\r)\n/;
    const crlf = (text: string) => text.replaceAll('\n', '\r\n');
    const moved = { ...HANDLER, command: HANDLER.command.replaceAll('/opt', '/old') };
    // A new `hooks` key, a new event in `hooks`, a group appended to an event's list.
    for (const text of [
      crlf(FILES['two-space, no hooks']!),
      crlf('{\n  "hooks": {\n    "Stop": [\n      {"hooks": []}\n    ]\n  }\n}\n'),
      FILES['tabs, CRLF, multi-line hooks']!,
    ]) {
      const linked = link(text);
      expect(linked).not.toMatch(bareLf);
      expect(unlink(linked)).toBe(text);
      // A handler rewritten in place (a hookpm that moved).
      const relinked = link(link(text, EVENTS, moved));
      expect(relinked).not.toMatch(bareLf);
      expect(relinked).toBe(linked);
    }
  });

  it('with the document from before link, unlink and a relink that drops an event keep the containers the user had, emptied', () => {
    const text = '{"hooks": {"Stop": []}, "x": 1}';
    const before = settingsOf(text);
    const edited = link(text).replace('"x": 1', '"x": 2');
    expect(applyUnlink(edited, settingsOf(edited), 'claude', before)).toBe(
      '{"hooks": {"Stop": []}, "x": 2}',
    );
    // Not knowing what the file had, every container left empty goes.
    expect(applyUnlink(edited, settingsOf(edited), 'claude')).toBe('{"x": 2}');
    const relinked = applyLink({
      text: edited,
      settings: settingsOf(edited),
      agent: 'claude',
      events: ['PreToolUse'],
      handler: HANDLER,
      before,
    });
    expect(settingsOf(relinked)['hooks']).toEqual({
      Stop: [],
      PreToolUse: [{ hooks: [HANDLER] }],
    });
  });

  it("unlink takes a hookpm handler out of a user's own group and keeps the group", () => {
    const text = `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a"}, ${JSON.stringify(HANDLER)}]}]}}`;
    expect(unlink(text)).toBe(
      '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a"}]}]}}',
    );
  });

  it('a link handler in a group with a matcher is taken out of it and linked in a group of its own; a wildcard group keeps it', () => {
    const narrowed = `{"hooks": {"Stop": [{"hooks": [${JSON.stringify(HANDLER)}]}], "PreToolUse": [{"matcher": "Bash", "hooks": [${JSON.stringify(HANDLER)}, {"type": "command", "command": "a"}]}]}}`;
    expect(settingsOf(link(narrowed))['hooks']).toEqual({
      Stop: [{ hooks: [HANDLER] }],
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'a' }] },
        { hooks: [HANDLER] },
      ],
    });
    const wildcard = `{"hooks": {"Stop": [{"matcher": "*", "hooks": [${JSON.stringify(HANDLER)}]}], "PreToolUse": [{"matcher": "", "hooks": [${JSON.stringify(HANDLER)}]}]}}`;
    expect(link(wildcard)).toBe(wildcard);
  });

  it("another agent's link is not this agent's: unlink claude leaves deepagents' handler", () => {
    const other = {
      ...HANDLER,
      command: formatLinkCommand({
        node: '/n',
        hookpm: '/h',
        agent: 'deepagents',
        home: null,
        deadline: 600,
      }),
    };
    const text = `{"hooks": {"Stop": [{"hooks": [${JSON.stringify(other)}]}]}}`;
    expect(unlink(text)).toBe(text);
    expect(linkHandlersOf(settingsOf(link(text)), 'claude')).toHaveLength(2);
  });

  it.each([
    ['a trailing comma', '{"a": 1,}'],
    ['a comment', '{\n  // mine\n  "a": 1\n}'],
    ['a duplicate key', '{"a": 1, "a": 2}'],
    ['not an object', '[1]'],
    ['hooks not an object', '{"hooks": []}'],
    ['an event not a list', '{"hooks": {"Stop": {}}}'],
    ['white space JSON does not allow', '\u00a0'],
  ])('%s is refused with where and why', (_name, text) => {
    const read = readSettingsDocument(text, '/h/.claude/settings.json');
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.problem).toContain('/h/.claude/settings.json');
  });

  it.each([
    ['empty', '', false],
    ['white space', ' \t\r\n', false],
    ['a byte-order mark and a line end', '\ufeff\n', true],
  ])('%s is read as `{}` (agents.md What link writes)', (_name, text, bom) => {
    expect(readSettingsDocument(text, '/h/.claude/settings.json')).toEqual({
      ok: true,
      value: {},
      bom,
    });
  });

  it('security.md: an event key 200 KB long that is not a list is refused, quoting its first 200 characters', () => {
    const event = 'E'.repeat(200_000);
    const read = readSettingsDocument(`{"hooks": {"${event}": 1}}`, '/h/.claude/settings.json');
    expect(read.ok).toBe(false);
    if (!read.ok) {
      expect(read.problem).toContain(`"hooks.${'E'.repeat(200)}..." is not a list of groups`);
      expect(read.problem.length).toBeLessThan(400);
    }
  });
});

describe('link commands', () => {
  it('format and parse are inverse, whatever the paths hold', () => {
    for (const link of [
      {
        node: '/usr/bin/node',
        hookpm: '/a b/hookpm.js',
        agent: 'claude',
        home: null,
        deadline: 600,
      },
      { node: "/it's", hookpm: "/x'y'/h.js", agent: 'deepagents', home: "/h o'me", deadline: 45 },
      { node: '/n', hookpm: '/h', agent: 'codex', home: null, deadline: null },
    ])
      expect(parseLinkCommand(formatLinkCommand(link))).toEqual(link);
    expect(parseLinkCommand('hookpm wire claude')).toBeNull();
    expect(parseLinkCommand("'/n' '/h' wire claude; rm -rf /")).toBeNull();
    expect(parseLinkCommand("'/n' '/h' wire claude --deadline 0")).toBeNull();
    expect(parseLinkCommand("'/n' '/h' wire claude --deadline 6; rm -rf /")).toBeNull();
  });

  it('a link an earlier hookpm wrote (no --deadline) is still a link command, with no deadline', () => {
    expect(parseLinkCommand("'/n' '/h' wire claude --home '/x'")).toEqual({
      node: '/n',
      hookpm: '/h',
      agent: 'claude',
      home: '/x',
      deadline: null,
      unchecked: true,
    });
  });

  it('S1: a user or project document less its link handlers keeps every position (R2)', () => {
    const config: HooksConfig = {
      Stop: [
        {
          matcher: null,
          hooks: [
            { type: 'command', command: 'a' },
            { type: 'command', command: COMMAND },
          ],
        },
        { matcher: null, hooks: [{ type: 'command', command: COMMAND }] },
        { matcher: null, hooks: [{ type: 'command', command: 'b' }] },
      ],
    };
    const out = withoutLinkHandlers(config);
    expect(out.Stop?.[0]?.hooks.map((h) => h?.command ?? null)).toEqual(['a', null]);
    expect(out.Stop?.[1]).toBeNull();
    expect(out.Stop?.[2]).toBe(config.Stop?.[2]);
    const plain: HooksConfig = {
      Stop: [{ matcher: null, hooks: [{ type: 'command', command: 'a' }] }],
    };
    expect(withoutLinkHandlers(plain)).toBe(plain);
  });
});
