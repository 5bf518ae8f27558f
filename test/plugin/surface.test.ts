import { describe, expect, it } from 'vitest';
import { parseHooksDocument } from '../../src/hooks/parse-document.js';
import { buildSurface, surfaceHash } from '../../src/plugin/surface.js';

function doc(source: string, value: unknown) {
  const parsed = parseHooksDocument(value, { file: source, legacy: false });
  return {
    document: { source, config: parsed.config, declared: parsed.declared },
    diagnostics: parsed.diagnostics,
  };
}

function surfaceOf(...docs: Array<ReturnType<typeof doc>>) {
  return buildSurface({
    documents: docs.map((d) => d.document),
    diagnostics: docs.flatMap((d) => d.diagnostics),
  });
}

const cmd = (command: string, extra: object = {}) => ({ type: 'command', command, ...extra });

describe('buildSurface', () => {
  it('Q1: events are the engine events in declaration order, without repeats', () => {
    const s = surfaceOf(
      doc('hooks/hooks.json', {
        hooks: {
          Stop: [{ hooks: [cmd('a')] }],
          PreToolUse: [{ matcher: 'Bash', hooks: [cmd('b')] }],
        },
      }),
      doc('./extra.json', {
        hooks: { SessionStart: [{ hooks: [cmd('c')] }], Stop: [{ hooks: [cmd('d')] }] },
      }),
    );
    expect(s.events).toEqual(['Stop', 'PreToolUse', 'SessionStart']);
    expect(s.entries.map((e) => [e.event, e.command, e.source])).toEqual([
      ['Stop', 'a', 'hooks/hooks.json'],
      ['PreToolUse', 'b', 'hooks/hooks.json'],
      ['SessionStart', 'c', './extra.json'],
      ['Stop', 'd', './extra.json'],
    ]);
  });

  it('Q1: defaults are explicit: matcher, if, argv, args, shell, onFailure and statusMessage null, timeout the event default', () => {
    const s = surfaceOf(
      doc('hooks/hooks.json', {
        hooks: {
          UserPromptSubmit: [{ hooks: [cmd('a')] }],
          Stop: [{ hooks: [cmd('b', { timeout: 5, statusMessage: 'checking' })] }],
        },
      }),
    );
    expect(s.entries).toEqual([
      {
        event: 'UserPromptSubmit',
        matcher: null,
        if: null,
        type: 'command',
        command: 'a',
        argv: null,
        args: null,
        shell: null,
        onFailure: null,
        async: null,
        asyncRewake: null,
        rewakeMessage: null,
        rewakeSummary: null,
        timeout: 30,
        statusMessage: null,
        source: 'hooks/hooks.json',
        key: expect.stringMatching(/^[0-9a-f]{10}$/),
        valid: true,
      },
      {
        event: 'Stop',
        matcher: null,
        if: null,
        type: 'command',
        command: 'b',
        argv: null,
        args: null,
        shell: null,
        onFailure: null,
        async: null,
        asyncRewake: null,
        rewakeMessage: null,
        rewakeSummary: null,
        timeout: 5,
        statusMessage: 'checking',
        source: 'hooks/hooks.json',
        key: expect.stringMatching(/^[0-9a-f]{10}$/),
        valid: true,
      },
    ]);
  });

  it('Q1: an argv handler shows its argv and the command the engine shows', () => {
    const s = surfaceOf(
      doc('hooks/hooks.json', {
        hooks: { Stop: [{ hooks: [{ type: 'command', argv: ['node', 'x.js'] }] }] },
      }),
    );
    expect(s.entries[0]).toMatchObject({ argv: ['node', 'x.js'], valid: true });
    expect(typeof s.entries[0]!.command).toBe('string');
  });

  it('Q1: invalid entries and unknown events are listed, marked invalid with their diagnostic, and add no event', () => {
    const s = surfaceOf(
      doc('hooks/hooks.json', {
        hooks: {
          OnSave: [{ hooks: [cmd('x')] }],
          Stop: [{ hooks: [{ type: 'prompt', prompt: 'p' }, cmd('ok', { async: 'yes' })] }],
          PreToolUse: [{ matcher: 1, hooks: [cmd('y')] }],
        },
      }),
    );
    expect(s.events).toEqual([]);
    expect(s.entries.map((e) => [e.event, e.type, e.valid])).toEqual([
      ['OnSave', 'command', false],
      ['Stop', 'prompt', false],
      ['Stop', 'command', false],
      ['PreToolUse', 'command', false],
    ]);
    expect(s.entries[0]!.diagnostic).toContain('OnSave');
    expect(s.entries[1]!.diagnostic).toContain('prompt');
    expect(s.entries[2]!.diagnostic).toContain('async');
    expect(s.entries[3]!.diagnostic).toContain('matcher');
    expect(s.entries[3]!.matcher).toBe(1);
  });

  it('Q1, G1, G3, G11: entries that run only inside Claude Code are valid, say where they run, and add no engine event', () => {
    const s = surfaceOf(
      doc('hooks/hooks.json', {
        hooks: {
          PostToolBatch: [{ hooks: [cmd('a')] }],
          Stop: [{ hooks: [cmd('b', { async: true })] }],
          SessionStart: [{ hooks: [cmd('c', { asyncRewake: true })] }],
        },
      }),
    );
    expect(s.entries.map((e) => [e.event, e.valid, e.runsIn])).toEqual([
      ['PostToolBatch', true, 'claude'],
      ['Stop', true, 'claude-background'],
      ['SessionStart', true, undefined],
    ]);
    // G11: asyncRewake alone is an ordinary handler, in hookpm's engine as inside Claude Code.
    expect(s.events).toEqual(['SessionStart']);
  });

  it('Q1: a matcher or if rule that can never work marks its entry invalid (E4, E5, F3)', () => {
    const s = surfaceOf(
      doc('hooks/hooks.json', {
        hooks: {
          PreToolUse: [
            { matcher: '(unclosed', hooks: [cmd('a')] },
            { matcher: '(a+)+$', hooks: [cmd('b')] },
            {
              matcher: 'Bash',
              hooks: [cmd('c', { if: 'Bash(git *)' }), cmd('d', { if: 'Bash(' })],
            },
          ],
          Stop: [{ matcher: 'Bash', hooks: [cmd('e')] }, { hooks: [cmd('f', { if: 'Bash(*)' })] }],
        },
      }),
    );
    expect(s.entries.map((e) => [e.command, e.valid, e.diagnostic?.split(':')[0]])).toEqual([
      ['a', false, 'invalid_matcher'],
      ['b', false, 'unsafe_matcher'],
      ['c', true, undefined],
      ['d', false, 'invalid_if'],
      ['e', false, 'unsupported_matcher'],
      ['f', false, 'invalid_if'],
    ]);
    expect(s.events).toEqual(['PreToolUse']);
  });

  it('Q2: the hash is sha256- plus base64, and the same surface always has the same hash', () => {
    const value = { hooks: { Stop: [{ hooks: [cmd('a')] }] } };
    const a = surfaceOf(doc('hooks/hooks.json', value));
    const b = surfaceOf(doc('hooks/hooks.json', JSON.parse(JSON.stringify(value))));
    expect(a.surfaceHash).toMatch(/^sha256-[A-Za-z0-9+/]{43}=$/);
    expect(b.surfaceHash).toBe(a.surfaceHash);
    expect(surfaceHash(a.entries)).toBe(a.surfaceHash);
  });

  it('Q2: defaults are explicit in the hash: an absent timeout hashes like the default written out', () => {
    const implicit = surfaceOf(
      doc('hooks/hooks.json', { hooks: { Stop: [{ hooks: [cmd('a')] }] } }),
    );
    const explicit = surfaceOf(
      doc('hooks/hooks.json', {
        hooks: { Stop: [{ matcher: null, hooks: [cmd('a', { timeout: 600 })] }] },
      }),
    );
    expect(explicit.surfaceHash).toBe(implicit.surfaceHash);
  });

  it.each([
    ['a command', { hooks: { Stop: [{ hooks: [cmd('b')] }] } }],
    ['a timeout', { hooks: { Stop: [{ hooks: [cmd('a', { timeout: 1 })] }] } }],
    ['a matcher', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('a')] }] } }],
    ['the event', { hooks: { SubagentStop: [{ hooks: [cmd('a')] }] } }],
    ['a statusMessage', { hooks: { Stop: [{ hooks: [cmd('a', { statusMessage: 's' })] }] } }],
    ['an added entry', { hooks: { Stop: [{ hooks: [cmd('a'), cmd('a')] }] } }],
  ])('Q2: changing %s changes the hash', (_what, value) => {
    const base = surfaceOf(doc('hooks/hooks.json', { hooks: { Stop: [{ hooks: [cmd('a')] }] } }));
    expect(surfaceOf(doc('hooks/hooks.json', value)).surfaceHash).not.toBe(base.surfaceHash);
  });

  it('Q2: the source is part of the hash, diagnostics text and unknown keys are not', () => {
    const value = { hooks: { Stop: [{ hooks: [cmd('a')] }] } };
    const base = surfaceOf(doc('hooks/hooks.json', value)).surfaceHash;
    expect(surfaceOf(doc('./other.json', value)).surfaceHash).not.toBe(base);
    const noted = { hooks: { Stop: [{ description: 'x', hooks: [cmd('a', { note: 'y' })] }] } };
    expect(surfaceOf(doc('hooks/hooks.json', noted)).surfaceHash).toBe(base);
  });

  it('Q1: a plugin with no documents has an empty surface with a stable hash', () => {
    const s = buildSurface({ documents: [] });
    expect([s.events, s.entries]).toEqual([[], []]);
    expect(s.surfaceHash).toBe(surfaceHash([]));
  });
});

describe('a surface of very many invalid entries (plugins.md Q1)', () => {
  it('Q1: 20,000 invalid handlers each show their own diagnostic, in time proportional to them', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => ({ type: 'prompt', prompt: `p${i}` }));
    const parsed = doc('hooks/hooks.json', { hooks: { Stop: [{ hooks: many }] } });
    const started = performance.now();
    const s = surfaceOf(parsed);
    expect(performance.now() - started).toBeLessThan(8000);
    expect(s.entries).toHaveLength(20_000);
    expect(s.entries[19_999]!.valid).toBe(false);
    expect(s.entries[19_999]!.diagnostic).toContain('prompt');
  });
});

describe('Claude Code forms in the surface (plugins.md Q1)', () => {
  it('an exec-form handler shows its command, its args and the argv hookpm runs; an invalid one stays inert with its reason', () => {
    const s = surfaceOf(
      doc('hooks/hooks.json', {
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                cmd('python3', { args: ['${CLAUDE_PLUGIN_ROOT}/hooks/secret-safety.py'] }),
                cmd('python3', { args: ['x.py'], argv: ['python3', 'x.py'] }),
                cmd('echo $RANDOM', { shell: 'bash' }),
              ],
            },
          ],
        },
      }),
    );
    expect(s.entries[0]).toMatchObject({
      command: 'python3',
      args: ['${CLAUDE_PLUGIN_ROOT}/hooks/secret-safety.py'],
      argv: ['python3', '${CLAUDE_PLUGIN_ROOT}/hooks/secret-safety.py'],
      shell: null,
      valid: true,
    });
    expect(s.entries[1]).toMatchObject({ valid: false, argv: ['python3', 'x.py'] });
    expect(s.entries[1]?.diagnostic).toContain('argv and args');
    expect(s.entries[2]).toMatchObject({ shell: 'bash', argv: null, valid: true });
  });

  it('Q2/X9: onFailure is shown as declared and hashed only when declared, so changing it changes the surface hash', () => {
    const surface = (extra: Record<string, unknown>) =>
      surfaceOf(
        doc('hooks/hooks.json', {
          hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('guard', extra)] }] },
        }),
      );
    const plain = surface({});
    const blocking = surface({ onFailure: 'block' });
    const continuing = surface({ onFailure: 'continue' });
    expect(plain.entries[0]?.onFailure).toBeNull();
    expect(blocking.entries[0]).toMatchObject({ onFailure: 'block', valid: true });
    expect(continuing.entries[0]).toMatchObject({ onFailure: 'continue', valid: true });
    expect(new Set([plain, blocking, continuing].map((s) => s.surfaceHash)).size).toBe(3);
    expect(blocking.entries[0]?.key).toBe(plain.entries[0]?.key);
  });

  it('Q2/G3: async, asyncRewake, rewakeMessage and rewakeSummary are shown as declared and hashed only when declared, so dropping async changes the surface hash', () => {
    const surface = (extra: Record<string, unknown>) =>
      surfaceOf(
        doc('hooks/hooks.json', {
          hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('guard', extra)] }] },
        }),
      );
    const plain = surface({});
    const background = surface({ async: true });
    const rewake = surface({ async: true, asyncRewake: true, rewakeMessage: 'm' });
    expect(plain.entries[0]).toMatchObject({ async: null, asyncRewake: null, rewakeMessage: null });
    expect(background.entries[0]).toMatchObject({ async: true, runsIn: 'claude-background' });
    expect(rewake.entries[0]).toMatchObject({ asyncRewake: true, rewakeMessage: 'm' });
    expect(new Set([plain, background, rewake].map((s) => s.surfaceHash)).size).toBe(3);
    expect(plain.surfaceHash).toBe(surfaceHash(plain.entries));
  });
});
