import { describe, expect, it } from 'vitest';
import { diagnostic } from '../../src/hooks/diagnostic.js';
import { buildSnapshot } from '../../src/hooks/snapshot/snapshot.js';
import { matchHandlers } from '../../src/hooks/snapshot/snapshot-match.js';
import type {
  GroupConfig,
  HandlerConfig,
  HooksConfig,
  SourceDocument,
} from '../../src/hooks/types.js';

const cmd = (command: string, extra: Partial<HandlerConfig> = {}): HandlerConfig => ({
  type: 'command',
  command,
  ...extra,
});
const group = (matcher: string | null, ...hooks: (HandlerConfig | null)[]): GroupConfig => ({
  matcher,
  hooks,
});

function project(config: HooksConfig): SourceDocument {
  return { origin: 'project', file: '/p/.deepagents/hooks.json', config };
}
function user(config: HooksConfig): SourceDocument {
  return { origin: 'user', file: '/h/.deepagents/hooks.json', config };
}
function plugin(id: string, config: HooksConfig, file = 'hooks/hooks.json'): SourceDocument {
  return {
    origin: 'plugin',
    file,
    config,
    plugin: { id, root: `/store/${id}`, data: `/data/${id}` },
  };
}

const bash = { tool_name: 'Bash', tool_input: { command: 'git status' } };

describe('buildSnapshot: order and ids', () => {
  it('S3: groups are concatenated project, user, then plugins sorted by id, whatever the input order', () => {
    const snapshot = buildSnapshot({
      projectDir: '/p',
      sources: [
        plugin('zeta@r', { Stop: [group(null, cmd('z'))] }),
        user({ Stop: [group(null, cmd('u'))] }),
        plugin('alpha@r', { Stop: [group(null, cmd('a1'))] }),
        project({ Stop: [group(null, cmd('p'))] }),
        plugin('alpha@r', { Stop: [group(null, cmd('a2'))] }, 'plugin.json#hooks'),
      ],
    });
    expect(snapshot.handlers.map((h) => [h.id, h.command, h.origin, h.plugin])).toEqual([
      ['Stop:0:0', 'p', 'project', null],
      ['Stop:1:0', 'u', 'user', null],
      ['Stop:2:0', 'a1', 'plugin', 'alpha@r'],
      ['Stop:3:0', 'a2', 'plugin', 'alpha@r'],
      ['Stop:4:0', 'z', 'plugin', 'zeta@r'],
    ]);
    expect(matchHandlers(snapshot, 'Stop', {}).map((h) => h.command)).toEqual([
      'p',
      'u',
      'a1',
      'a2',
      'z',
    ]);
  });

  it('R2: rejected groups (dropped or with a bad matcher) and dropped handlers keep their positions', () => {
    const snapshot = buildSnapshot({
      projectDir: '/p',
      sources: [
        project({ PreToolUse: [null, group('Bash', null, cmd('second'))] }),
        user({ PreToolUse: [group('(unclosed', cmd('never')), group('Bash', cmd('user'))] }),
      ],
    });
    expect(snapshot.handlers.map((h) => h.id)).toEqual(['PreToolUse:1:1', 'PreToolUse:3:0']);
    const [first] = snapshot.handlers;
    expect(first).toMatchObject({
      groupIndex: 1,
      handlerIndex: 1,
      event: 'PreToolUse',
      source: '/p/.deepagents/hooks.json',
    });
  });

  it('R2: events are numbered independently and listed in table order', () => {
    const snapshot = buildSnapshot({
      projectDir: '/p',
      sources: [
        user({
          Stop: [group(null, cmd('s'))],
          SessionStart: [group('startup', cmd('a'), cmd('b'))],
        }),
      ],
    });
    expect(snapshot.handlers.map((h) => h.id)).toEqual([
      'SessionStart:0:0',
      'SessionStart:0:1',
      'Stop:0:0',
    ]);
  });

  it('X6: a handler without a timeout gets the event default; its own timeout wins otherwise', () => {
    const snapshot = buildSnapshot({
      projectDir: '/p',
      sources: [user({ UserPromptSubmit: [group(null, cmd('a'), cmd('b', { timeout: 2.5 }))] })],
    });
    expect(snapshot.handlers.map((h) => h.timeoutSec)).toEqual([30, 2.5]);
  });

  it('plugins.md section 3: plugin handlers get CLAUDE_PLUGIN_ROOT, PLUGIN_ROOT, CLAUDE_PLUGIN_DATA, PLUGIN_DATA', () => {
    const snapshot = buildSnapshot({
      projectDir: '/p',
      sources: [
        user({ Stop: [group(null, cmd('u'))] }),
        plugin('g@r', { Stop: [group(null, cmd('g'))] }),
      ],
    });
    expect(snapshot.handlers[0]?.pluginEnv).toEqual({});
    expect(snapshot.handlers[1]?.pluginEnv).toEqual({
      CLAUDE_PLUGIN_ROOT: '/store/g@r',
      PLUGIN_ROOT: '/store/g@r',
      CLAUDE_PLUGIN_DATA: '/data/g@r',
      PLUGIN_DATA: '/data/g@r',
    });
    expect(snapshot.plugins).toEqual([{ id: 'g@r', events: ['Stop'] }]);
  });
});

describe('buildSnapshot: immutability and id', () => {
  it('R1: the snapshot and everything in it are frozen, and later edits of the inputs change nothing', () => {
    const hooks: (HandlerConfig | null)[] = [cmd('echo one', { argv: ['echo', 'one'] })];
    const config: HooksConfig = { PreToolUse: [{ matcher: 'Bash', hooks }] };
    const snapshot = buildSnapshot({ projectDir: '/p', sources: [plugin('g@r', config)] });
    const handler = snapshot.handlers[0];
    expect(Object.isFrozen(snapshot)).toBe(true);
    expect(Object.isFrozen(snapshot.handlers)).toBe(true);
    expect(Object.isFrozen(handler)).toBe(true);
    expect(Object.isFrozen(handler?.argv)).toBe(true);
    expect(Object.isFrozen(handler?.pluginEnv)).toBe(true);
    expect(Object.isFrozen(snapshot.diagnostics)).toBe(true);
    expect(Object.isFrozen(snapshot.groups.PreToolUse)).toBe(true);
    const id = snapshot.id;
    hooks.push(cmd('added later'));
    hooks[0] = cmd('replaced');
    expect(matchHandlers(snapshot, 'PreToolUse', bash).map((h) => h.command)).toEqual(['echo one']);
    expect(snapshot.id).toBe(id);
  });

  it('R3: equal configurations have equal ids (64 hex), however their objects were written', () => {
    const a = buildSnapshot({
      projectDir: '/p',
      sources: [
        user({
          Stop: [group(null, cmd('x', { timeout: 5 }))],
          PreToolUse: [group('Bash', cmd('y'))],
        }),
      ],
    });
    const b = buildSnapshot({
      projectDir: '/p',
      sources: [
        user({
          PreToolUse: [{ hooks: [{ command: 'y', type: 'command' }], matcher: 'Bash' }],
          Stop: [group(null, { timeout: 5, command: 'x', type: 'command' })],
        }),
      ],
    });
    expect(a.id).toMatch(/^[0-9a-f]{64}$/);
    expect(b.id).toBe(a.id);
  });

  it('R3: enabling a plugin, moving its root, or changing one handler changes the id', () => {
    const base = [user({ Stop: [group(null, cmd('x'))] })];
    const withPlugin = [...base, plugin('g@r', { Stop: [group(null, cmd('g'))] })];
    const moved: SourceDocument[] = [
      ...base,
      {
        ...plugin('g@r', { Stop: [group(null, cmd('g'))] }),
        plugin: { id: 'g@r', root: '/elsewhere', data: '/data/g@r' },
      },
    ];
    const ids = [
      buildSnapshot({ projectDir: '/p', sources: base }).id,
      buildSnapshot({ projectDir: '/p', sources: withPlugin }).id,
      buildSnapshot({ projectDir: '/p', sources: moved }).id,
      buildSnapshot({ projectDir: '/p', sources: [user({ Stop: [group(null, cmd('x2'))] })] }).id,
    ];
    expect(new Set(ids).size).toBe(4);
  });

  it('R3: a dropped group counts for positions, so inserting one changes the id as it changes the handler ids', () => {
    const plain = buildSnapshot({
      projectDir: '/p',
      sources: [user({ Stop: [group(null, cmd('x'))] })],
    });
    const shifted = buildSnapshot({
      projectDir: '/p',
      sources: [user({ Stop: [null, group(null, cmd('x'))] })],
    });
    expect(shifted.handlers[0]?.id).toBe('Stop:1:0');
    expect(shifted.id).not.toBe(plain.id);
  });
});

describe('buildSnapshot: diagnostics once, at build time', () => {
  it('E4: a matcher that does not compile, or can backtrack catastrophically, rejects only its group and is reported once', () => {
    const snapshot = buildSnapshot({
      projectDir: '/p',
      sources: [
        user({
          PreToolUse: [
            group('([', cmd('bad')),
            group('(a+)+$', cmd('unsafe')),
            group('Bash', cmd('good')),
          ],
        }),
      ],
    });
    expect(snapshot.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['invalid_matcher', '/h/.deepagents/hooks.json:hooks.PreToolUse[0].matcher'],
      ['unsafe_matcher', '/h/.deepagents/hooks.json:hooks.PreToolUse[1].matcher'],
    ]);
    for (let i = 0; i < 3; i += 1) {
      expect(matchHandlers(snapshot, 'PreToolUse', bash).map((h) => h.id)).toEqual([
        'PreToolUse:2:0',
      ]);
    }
    expect(snapshot.diagnostics).toHaveLength(2);
  });

  it('E5: a non-wildcard matcher on an event without a matcher field rejects its group with unsupported_matcher', () => {
    const snapshot = buildSnapshot({
      projectDir: '/p',
      sources: [user({ Stop: [group('Bash', cmd('no')), group('*', cmd('yes'))] })],
    });
    expect(snapshot.diagnostics.map((d) => d.code)).toEqual(['unsupported_matcher']);
    expect(matchHandlers(snapshot, 'Stop', {}).map((h) => h.command)).toEqual(['yes']);
  });

  it('F3: an unparseable rule, or any rule on a non-tool event, never runs and gives invalid_if once', () => {
    const snapshot = buildSnapshot({
      projectDir: '/p',
      sources: [
        plugin('g@r', {
          PreToolUse: [group('Bash', cmd('broken', { if: 'Bash(' }), cmd('fine'))],
          Stop: [group(null, cmd('stop-if', { if: 'Bash(git *)' }))],
        }),
      ],
    });
    expect(snapshot.diagnostics.map((d) => [d.code, d.handler, d.plugin, d.origin])).toEqual([
      ['invalid_if', 'PreToolUse:0:0', 'g@r', 'plugin'],
      ['invalid_if', 'Stop:0:0', 'g@r', 'plugin'],
    ]);
    expect(matchHandlers(snapshot, 'PreToolUse', bash).map((h) => h.id)).toEqual([
      'PreToolUse:0:1',
    ]);
    expect(matchHandlers(snapshot, 'Stop', {})).toEqual([]);
  });

  it('C3: unknown_key warnings of parsing stay out of the snapshot; other load diagnostics are kept first', () => {
    const snapshot = buildSnapshot({
      projectDir: '/p',
      sources: [user({ Stop: [group('x', cmd('no'))] })],
      diagnostics: [
        diagnostic('unknown_key', 'warning', 'unknown key "description"'),
        diagnostic('config_read_failed', 'error', 'cannot read'),
      ],
    });
    expect(snapshot.diagnostics.map((d) => d.code)).toEqual([
      'config_read_failed',
      'unsupported_matcher',
    ]);
  });
});

describe('matchHandlers', () => {
  const snapshot = buildSnapshot({
    projectDir: '/p',
    sources: [
      user({
        PreToolUse: [
          group('Write', cmd('write')),
          group('mcp__.*', cmd('mcp')),
          group(null, cmd('all'), cmd('git-only', { if: 'Bash(git *)' })),
          group('Bash|Edit', cmd('bash-or-edit')),
        ],
      }),
    ],
  });

  it('E2: an exact matcher never matches a substring', () => {
    expect(
      matchHandlers(snapshot, 'PreToolUse', { tool_name: 'WriteFile' }).map((h) => h.command),
    ).toEqual(['all']);
  });

  it('E3 and F1-F3: matcher then if rule, results in configuration order', () => {
    expect(matchHandlers(snapshot, 'PreToolUse', bash).map((h) => h.command)).toEqual([
      'all',
      'git-only',
      'bash-or-edit',
    ]);
    const other = { tool_name: 'Bash', tool_input: { command: 'ls' } };
    expect(matchHandlers(snapshot, 'PreToolUse', other).map((h) => h.command)).toEqual([
      'all',
      'bash-or-edit',
    ]);
    expect(
      matchHandlers(snapshot, 'PreToolUse', { tool_name: 'mcp__github__x' }).map((h) => h.command),
    ).toEqual(['mcp', 'all']);
  });

  it('E6: a payload without the matcher field matches only match-all groups', () => {
    expect(matchHandlers(snapshot, 'PreToolUse', {}).map((h) => h.command)).toEqual(['all']);
  });

  it('an event with no configured groups matches nothing', () => {
    expect(matchHandlers(snapshot, 'SessionEnd', { reason: 'exit' })).toEqual([]);
  });

  it('performance: one PreToolUse target against 2,000 groups matches well under 1 ms', () => {
    const groups = Array.from({ length: 2000 }, (_, i) =>
      group(i % 2 === 0 ? `Tool${i}` : `^mcp__s${i}__.*`, cmd(`c${i}`)),
    );
    const big = buildSnapshot({ projectDir: '/p', sources: [user({ PreToolUse: groups })] });
    const payload = { tool_name: 'Tool1000', tool_input: {} };
    for (let i = 0; i < 50; i += 1) matchHandlers(big, 'PreToolUse', payload);
    const times: number[] = [];
    for (let i = 0; i < 21; i += 1) {
      const start = performance.now();
      matchHandlers(big, 'PreToolUse', payload);
      times.push(performance.now() - start);
    }
    expect(matchHandlers(big, 'PreToolUse', payload).map((h) => h.command)).toEqual(['c1000']);
    // The best of 21 runs: robust against other work on the machine (bench/ reports medians).
    expect(Math.min(...times)).toBeLessThan(1);
  });
});
