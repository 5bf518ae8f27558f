import { describe, expect, it } from 'vitest';
import { parseHooksDocument } from '../../src/hooks/parse-document.js';

const FILE = '/home/u/.deepagents/hooks.json';

function migrate(hooks: unknown[], extra: Record<string, unknown> = {}) {
  return parseHooksDocument({ hooks, ...extra }, { file: FILE, legacy: true });
}

function handler(event: string, argv: string[], threadId?: string) {
  const stdin: Record<string, unknown> = { event };
  if (threadId !== undefined) stdin.thread_id = threadId;
  return { type: 'command', command: argv.join(' '), argv, timeout: 6, legacyStdin: stdin };
}

describe('legacy list-shaped files (engine.md C4)', () => {
  it('C4: each legacy event maps to its engine event and matcher, one group per (entry, event) pair', () => {
    const events = [
      'session.start',
      'user.prompt',
      'task.complete',
      'input.required',
      'session.end',
      'context.offload',
      'context.compact',
    ];
    const result = migrate([{ command: ['notify', '--x'], events }]);
    const argv = ['notify', '--x'];
    expect(result.config).toEqual({
      UserPromptSubmit: [
        { matcher: null, hooks: [handler('session.start', argv)] },
        { matcher: null, hooks: [handler('user.prompt', argv)] },
      ],
      Notification: [
        { matcher: 'agent_completed', hooks: [handler('task.complete', argv)] },
        { matcher: 'agent_needs_input', hooks: [handler('input.required', argv)] },
      ],
      SessionEnd: [{ matcher: null, hooks: [handler('session.end', argv)] }],
      PreCompact: [
        { matcher: 'manual', hooks: [handler('context.offload', argv)] },
        { matcher: 'manual', hooks: [handler('context.compact', argv)] },
      ],
    });
  });

  it('C4: legacy_deprecated once per document, legacy_migrated per mapped event, legacy_unmapped per dropped name', () => {
    const result = migrate([
      { command: ['a'], events: ['session.end', 'tool.call'] },
      { command: ['b'], events: ['task.complete', 'agent.idle'] },
    ]);
    expect(result.diagnostics.map((d) => [d.code, d.severity, d.path])).toEqual([
      ['legacy_deprecated', 'warning', `${FILE}:hooks`],
      ['legacy_migrated', 'info', `${FILE}:hooks[0]`],
      ['legacy_unmapped', 'warning', `${FILE}:hooks[0]`],
      ['legacy_migrated', 'info', `${FILE}:hooks[1]`],
      ['legacy_unmapped', 'warning', `${FILE}:hooks[1]`],
    ]);
    expect(result.diagnostics[2]?.message).toContain('"tool.call"');
    expect(result.config).toEqual({
      SessionEnd: [{ matcher: null, hooks: [handler('session.end', ['a'])] }],
      Notification: [{ matcher: 'agent_completed', hooks: [handler('task.complete', ['b'])] }],
    });
  });

  it('C4: an entry without events gets every mapped legacy event', () => {
    const result = migrate([{ command: ['x'] }]);
    const groups = Object.values(result.config ?? {}).flat();
    expect(groups).toHaveLength(7);
    expect(result.diagnostics.filter((d) => d.code === 'legacy_migrated')).toHaveLength(7);
  });

  it('C4: the handler stdin carries thread_id when the entry has one, and the timeout is 6 s', () => {
    const result = migrate([{ command: ['x'], events: ['session.end'], thread_id: 't-1' }]);
    expect(result.config?.SessionEnd?.[0]?.hooks[0]).toEqual(handler('session.end', ['x'], 't-1'));
  });

  it('C4: "events": [] means every mapped legacy event, as the reference migration reads it', () => {
    const empty = migrate([{ command: ['x'], events: [] }]);
    const absent = migrate([{ command: ['x'] }]);
    expect(empty.config).toEqual(absent.config);
    expect(Object.values(empty.config ?? {}).flat()).toHaveLength(7);
    expect(empty.diagnostics.filter((d) => d.code === 'legacy_migrated')).toHaveLength(7);
  });

  it('C4: a command given as a string is skipped with legacy_unmapped (legacy entries are argv lists)', () => {
    const result = migrate([
      { command: 'say done | tee log', events: ['task.complete'] },
      { command: ['good'], events: ['session.end'] },
    ]);
    expect(result.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['legacy_deprecated', `${FILE}:hooks`],
      ['legacy_unmapped', `${FILE}:hooks[0]`],
      ['legacy_migrated', `${FILE}:hooks[1]`],
    ]);
    expect(result.diagnostics[1]?.message).toContain('"say done | tee log"');
    expect(result.config).toEqual({
      SessionEnd: [{ matcher: null, hooks: [handler('session.end', ['good'])] }],
    });
    expect(result.declared.map((d) => d.command)).toEqual(['good']);
  });

  it('C4: a legacy list with an item that is not an object refuses the whole document', () => {
    for (const item of ['echo', 3, null, ['echo']]) {
      const result = migrate([{ command: ['good'], events: ['session.end'] }, item]);
      expect(result.config, JSON.stringify(item)).toBeNull();
      expect(result.declared).toEqual([]);
      expect(result.diagnostics.map((d) => [d.code, d.severity, d.path])).toEqual([
        ['invalid_config', 'error', `${FILE}:hooks[1]`],
      ]);
      expect(result.diagnostics[0]?.message).toContain('the document is not loaded');
    }
  });

  it('C4: an invalid entry (an object) is invalid_config for that entry only; the others migrate', () => {
    const result = migrate([
      { command: [], events: ['session.end'] },
      { command: ['ok'], events: 'session.end' },
      { command: ['ok'], events: ['session.end'], thread_id: 5 },
      { command: ['good'], events: ['session.end'] },
    ]);
    const invalid = result.diagnostics.filter((d) => d.code === 'invalid_config');
    expect(invalid.map((d) => d.path)).toEqual([
      `${FILE}:hooks[0]`,
      `${FILE}:hooks[1]`,
      `${FILE}:hooks[2]`,
    ]);
    expect(result.config).toEqual({
      SessionEnd: [{ matcher: null, hooks: [handler('session.end', ['good'])] }],
    });
  });

  it('C4: migrated handlers are declared with their event, group index and migrated values', () => {
    const result = migrate([
      { command: ['a'], events: ['session.end'] },
      { command: ['b'], events: ['session.end'] },
    ]);
    expect(result.declared).toMatchObject([
      {
        event: 'SessionEnd',
        groupIndex: 0,
        handlerIndex: 0,
        command: 'a',
        argv: ['a'],
        timeout: 6,
        valid: true,
        path: `${FILE}:hooks[0]`,
      },
      { event: 'SessionEnd', groupIndex: 1, command: 'b', path: `${FILE}:hooks[1]` },
    ]);
  });

  it('C4: unknown keys of legacy entries are unknown_key warnings', () => {
    const result = migrate([{ command: ['a'], events: ['session.end'], name: 'n' }]);
    expect(result.diagnostics.find((d) => d.code === 'unknown_key')?.path).toBe(
      `${FILE}:hooks[0].name`,
    );
  });

  it('C4: plugin documents are never migrated: a list-shaped hooks there is invalid_config', () => {
    const result = parseHooksDocument(
      { hooks: [{ command: ['x'] }] },
      { file: 'p/hooks/hooks.json', legacy: false },
    );
    expect(result.config).toBeNull();
    expect(result.diagnostics.map((d) => d.code)).toEqual(['invalid_config']);
  });

  it('C4: an event-keyed user file is read as is, without legacy diagnostics', () => {
    const result = parseHooksDocument(
      { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x' }] }] } },
      { file: FILE, legacy: true },
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.config?.Stop).toHaveLength(1);
  });
});
