import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseHooksDocument } from '../../src/hooks/parse-document.js';
import { isEventName } from '../../src/hooks/events.js';
import type { Diagnostic } from '../../src/hooks/diagnostic.js';

const FILE = 'plugin/hooks/hooks.json';

function parse(value: unknown, legacy = false) {
  return parseHooksDocument(value, { file: FILE, legacy });
}

function doc(handlers: unknown[], extra: Record<string, unknown> = {}) {
  return { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: handlers, ...extra }] } };
}

const ok = { type: 'command', command: 'echo ok' };

function errors(diagnostics: Diagnostic[]) {
  return diagnostics.filter((d) => d.severity === 'error');
}

describe('handler schema (engine.md section 3)', () => {
  it('section 3: a handler with every field keeps them all, unchanged', () => {
    const handler = {
      ...ok,
      timeout: 1.5,
      statusMessage: 'checking',
      if: 'Bash(git *)',
      async: false,
    };
    const result = parse(doc([handler]));
    expect(result.diagnostics).toEqual([]);
    expect(result.config).toEqual({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            {
              type: 'command',
              command: 'echo ok',
              timeout: 1.5,
              statusMessage: 'checking',
              if: 'Bash(git *)',
            },
          ],
        },
      ],
    });
  });

  it('section 3: async:false runs the same as an absent async (the declared value stays, for review)', () => {
    const withFalse = parse(doc([{ ...ok, async: false }]));
    const absent = parse(doc([ok]));
    expect(withFalse.config).toEqual(absent.config);
    expect(withFalse.diagnostics).toEqual(absent.diagnostics);
    expect(withFalse.declared[0]?.async).toBe(false);
  });

  it('section 3: with argv, command may be absent and is shown as argv joined by spaces', () => {
    const result = parse(doc([{ type: 'command', argv: ['node', 'x.js', '--flag'] }]));
    expect(result.diagnostics).toEqual([]);
    expect(result.config?.PreToolUse?.[0]?.hooks[0]).toEqual({
      type: 'command',
      command: 'node x.js --flag',
      argv: ['node', 'x.js', '--flag'],
    });
  });

  it('section 3: with argv, a given command is kept only to be shown', () => {
    const result = parse(doc([{ type: 'command', command: 'run it', argv: ['run', 'it'] }]));
    expect(result.config?.PreToolUse?.[0]?.hooks[0]).toMatchObject({
      command: 'run it',
      argv: ['run', 'it'],
    });
  });

  const INVALID: Array<[string, Record<string, unknown>, string]> = [
    ['type "prompt"', { type: 'prompt', prompt: 'x' }, 'type must be "command", found "prompt"'],
    ['type "http"', { type: 'http', url: 'https://x' }, 'type must be "command", found "http"'],
    ['a missing type', { command: 'x' }, 'type must be "command", found nothing'],
    ['async: "yes"', { ...ok, async: 'yes' }, 'async must be true or false, found "yes"'],
    ['asyncRewake: 1', { ...ok, asyncRewake: 1 }, 'asyncRewake must be true or false, found 1'],
    ['timeout 0', { ...ok, timeout: 0 }, 'timeout must be a finite number > 0, found 0'],
    ['timeout -1', { ...ok, timeout: -1 }, 'timeout must be a finite number > 0, found -1'],
    [
      'timeout NaN',
      { ...ok, timeout: Number.NaN },
      'timeout must be a finite number > 0, found NaN',
    ],
    ['timeout Infinity', { ...ok, timeout: Infinity }, 'found Infinity'],
    [
      'timeout "60" (no coercion)',
      { ...ok, timeout: '60' },
      'timeout must be a finite number > 0, found "60"',
    ],
    ['a blank command', { type: 'command', command: '   ' }, 'command must be a non-blank string'],
    [
      'a missing command',
      { type: 'command' },
      'command must be a non-blank string (or give argv), found nothing',
    ],
    [
      'a numeric command',
      { type: 'command', command: 5 },
      'command must be a non-blank string, found 5',
    ],
    ['an empty argv', { type: 'command', argv: [] }, 'argv must be a non-empty array of strings'],
    ['a blank argv[0]', { type: 'command', argv: [' ', 'x'] }, 'with a non-blank first element'],
    ['a non-string argv element', { type: 'command', argv: ['node', 1] }, 'found an array'],
    ['a string argv', { type: 'command', argv: 'node x.js' }, 'found "node x.js"'],
    [
      'a numeric statusMessage',
      { ...ok, statusMessage: 5 },
      'statusMessage must be a string, found 5',
    ],
    ['a non-string if', { ...ok, if: ['Bash'] }, 'if must be a string'],
    ['a non-object handler', 'echo hi' as never, 'handler must be an object, found "echo hi"'],
  ];

  it.each(INVALID)(
    'C1: a handler with %s is invalid_config and null in place, its sibling stays',
    (_, bad, message) => {
      const result = parse(doc([ok, bad, ok]));
      const group = result.config?.PreToolUse?.[0];
      expect(group?.hooks).toEqual([ok, null, ok]);
      const found = errors(result.diagnostics);
      expect(found.length).toBeGreaterThan(0);
      for (const d of found) {
        expect(d.code).toBe('invalid_config');
        expect(d.path).toBe(`${FILE}:hooks.PreToolUse[0].hooks[1]`);
      }
      expect(found.map((d) => d.message).join('\n')).toContain(message);
      expect(result.declared.map((d) => d.valid)).toEqual([true, false, true]);
    },
  );

  it('C1: a handler of another type gets one diagnostic, not also one for its missing command', () => {
    const result = parse(doc([ok, { type: 'agent', agent: 'x' }]));
    expect(errors(result.diagnostics)).toHaveLength(1);
  });

  it('C1: each problem of one handler is its own diagnostic', () => {
    const result = parse(doc([ok, { ...ok, async: 'yes', timeout: 0 }]));
    expect(errors(result.diagnostics).map((d) => d.message)).toEqual([
      'timeout must be a finite number > 0, found 0',
      'async must be true or false, found "yes"',
    ]);
  });
});

describe('groups and events (C1)', () => {
  it('C1: a group whose handlers are all invalid is null, and later groups keep their index', () => {
    const value = {
      hooks: {
        Stop: [{ hooks: [ok] }, { hooks: [{ ...ok, async: 'yes' }] }, { hooks: [ok] }],
      },
    };
    const result = parse(value);
    expect(result.config?.Stop).toEqual([
      { matcher: null, hooks: [ok] },
      null,
      { matcher: null, hooks: [ok] },
    ]);
    expect(errors(result.diagnostics)[0]?.path).toBe(`${FILE}:hooks.Stop[1].hooks[0]`);
  });

  it('C1: an event whose groups are all invalid is absent from the configuration; the others load', () => {
    const value = {
      hooks: { Stop: [{ hooks: [{ ...ok, timeout: 0 }] }], SessionEnd: [{ hooks: [ok] }] },
    };
    const result = parse(value);
    expect(result.config).toEqual({ SessionEnd: [{ matcher: null, hooks: [ok] }] });
  });

  const GROUP_SHAPES: Array<[string, unknown, string]> = [
    [
      'hooks is not an array',
      { matcher: 'Bash', hooks: ok },
      'hooks must be an array of handlers, found an object',
    ],
    [
      'hooks is missing and a singular hook is given',
      { hook: ok },
      '(the key is "hooks", holding an array)',
    ],
    ['the group is a bare handler', ok, 'this looks like a handler'],
    [
      'the group is not an object',
      'echo',
      'group must be an object with a "hooks" array, found "echo"',
    ],
    [
      'the matcher is a number',
      { matcher: 5, hooks: [ok] },
      'matcher must be a string or null, found 5',
    ],
    ['the matcher is an object', { matcher: { tool: 'Write' }, hooks: [ok] }, 'found an object'],
  ];

  it.each(GROUP_SHAPES)(
    'section 3: a group where %s is invalid_config for that group only',
    (_, group, message) => {
      const result = parse({ hooks: { PreToolUse: [group, { matcher: 'Edit', hooks: [ok] }] } });
      expect(result.config?.PreToolUse).toEqual([null, { matcher: 'Edit', hooks: [ok] }]);
      const found = errors(result.diagnostics);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({
        code: 'invalid_config',
        path: `${FILE}:hooks.PreToolUse[0]`,
      });
      expect(found[0]?.message).toContain(message);
    },
  );

  it('E1/section 3: a null matcher and an omitted matcher both load as null', () => {
    const result = parse({
      hooks: { PreToolUse: [{ matcher: null, hooks: [ok] }, { hooks: [ok] }] },
    });
    expect(result.config?.PreToolUse?.map((g) => g?.matcher)).toEqual([null, null]);
  });

  it('C1: a group with no handlers is dropped with a warning', () => {
    const result = parse({ hooks: { Stop: [{ hooks: [] }] } });
    expect(result.config).toEqual({});
    expect(result.diagnostics).toMatchObject([{ code: 'invalid_config', severity: 'warning' }]);
  });

  it('section 3: an event value that is not an array is invalid_config for that event', () => {
    const result = parse({ hooks: { Stop: { command: 'x' }, SessionEnd: [{ hooks: [ok] }] } });
    expect(result.config).toEqual({ SessionEnd: [{ matcher: null, hooks: [ok] }] });
    expect(errors(result.diagnostics)).toMatchObject([
      { code: 'invalid_config', path: `${FILE}:hooks.Stop` },
    ]);
  });
});

describe('documents (C2, C3)', () => {
  it('C2: an unknown event name is invalid_config for that key only; the rest loads', () => {
    const result = parse({ hooks: { preToolUse: [{ hooks: [ok] }], Stop: [{ hooks: [ok] }] } });
    expect(result.config).toEqual({ Stop: [{ matcher: null, hooks: [ok] }] });
    const found = errors(result.diagnostics);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ code: 'invalid_config', path: `${FILE}:hooks.preToolUse` });
    expect(found[0]?.message).toContain('did you mean "PreToolUse"');
  });

  const NOT_DOCUMENTS: Array<[string, unknown, string]> = [
    ['an array', [], FILE],
    ['null', null, FILE],
    ['a string', 'hooks', FILE],
    ['an object without hooks', { description: 'x' }, `${FILE}:hooks`],
    ['an object with hooks: 5', { hooks: 5 }, `${FILE}:hooks`],
    ['an object with hooks: null', { hooks: null }, `${FILE}:hooks`],
    [
      'a list-shaped document outside legacy files',
      { hooks: [{ command: ['x'] }] },
      `${FILE}:hooks`,
    ],
  ];

  it.each(NOT_DOCUMENTS)(
    'C2: %s is invalid_config and not loaded (config null)',
    (_, value, path) => {
      const result = parse(value);
      expect(result.config).toBeNull();
      expect(result.declared).toEqual([]);
      expect(result.diagnostics).toMatchObject([
        { code: 'invalid_config', severity: 'error', path },
      ]);
    },
  );

  it('C2: events written at the top level, without the hooks wrapper, are named in the message', () => {
    const result = parse({ Stop: [{ hooks: [ok] }] });
    expect(result.config).toBeNull();
    expect(result.diagnostics[0]?.message).toContain('not at the top level');
  });

  it('C3: unknown handler, group and top-level keys are unknown_key warnings and change nothing else', () => {
    const value = {
      description: 'allowed',
      version: '1.0.0',
      hooks: { Stop: [{ id: 'g1', hooks: [{ ...ok, continueOnError: true }] }] },
    };
    const result = parse(value);
    expect(result.config).toEqual({ Stop: [{ matcher: null, hooks: [ok] }] });
    expect(result.diagnostics.map((d) => [d.code, d.severity, d.path])).toEqual([
      ['unknown_key', 'warning', `${FILE}:version`],
      ['unknown_key', 'warning', `${FILE}:hooks.Stop[0].id`],
      ['unknown_key', 'warning', `${FILE}:hooks.Stop[0].hooks[0].continueOnError`],
    ]);
  });

  it('C3: an unknown key of any length is quoted cut in the message, never whole', () => {
    const key = 'k'.repeat(100_000);
    const result = parse(doc([{ ...ok, [key]: 1 }]));
    const [warning] = result.diagnostics;
    expect(warning).toMatchObject({ code: 'unknown_key', severity: 'warning' });
    expect(warning!.message).toBe(`unknown handler key "${'k'.repeat(200)}..." is ignored`);
  });

  it("engine.md section 3 (args): Claude Code's exec form is argv = [command, ...args], command kept to be shown", () => {
    const result = parse(doc([{ type: 'command', command: 'node', args: ['x.js', '--a b'] }]));
    expect(result.config?.PreToolUse?.[0]?.hooks[0]).toEqual({
      type: 'command',
      command: 'node',
      argv: ['node', 'x.js', '--a b'],
    });
    expect(result.diagnostics).toEqual([]);
    const empty = parse(doc([{ type: 'command', command: 'true', args: [] }]));
    expect(empty.config?.PreToolUse?.[0]?.hooks[0]).toMatchObject({ argv: ['true'] });
  });

  it('engine.md section 3 (args): args with argv, args without a command, or args that are not strings are invalid_config', () => {
    for (const handler of [
      { type: 'command', command: 'node', args: ['x.js'], argv: ['node', 'x.js'] },
      { type: 'command', args: ['x.js'] },
      { type: 'command', command: '  ', args: ['x.js'] },
      { type: 'command', command: 'node', args: 'x.js' },
      { type: 'command', command: 'node', args: ['x.js', 1] },
    ]) {
      const result = parse(doc([handler, { type: 'command', command: 'ok' }]));
      expect(
        errors(result.diagnostics).map((d) => d.code),
        JSON.stringify(handler),
      ).toEqual(['invalid_config']);
      expect(result.config?.PreToolUse?.[0]?.hooks).toEqual([
        null,
        { type: 'command', command: 'ok' },
      ]);
    }
  });

  it('engine.md section 3 (shell): "bash" is kept for a command, "sh" is the default, anything else is invalid_config', () => {
    const result = parse(
      doc([
        { type: 'command', command: 'echo $RANDOM', shell: 'bash' },
        { type: 'command', command: 'echo x', shell: 'sh' },
        { type: 'command', command: 'node', args: ['x.js'], shell: 'bash' },
        { type: 'command', command: 'echo', shell: 'zsh' },
        { type: 'command', command: 'echo', shell: ['bash'] },
      ]),
    );
    expect(result.config?.PreToolUse?.[0]?.hooks).toEqual([
      { type: 'command', command: 'echo $RANDOM', shell: 'bash' },
      { type: 'command', command: 'echo x' },
      { type: 'command', command: 'node', argv: ['node', 'x.js'] },
      null,
      null,
    ]);
    expect(errors(result.diagnostics).map((d) => d.path)).toEqual([
      `${FILE}:hooks.PreToolUse[0].hooks[3]`,
      `${FILE}:hooks.PreToolUse[0].hooks[4]`,
    ]);
  });

  it('X9: onFailure "block" is kept, "continue" is the default, anything else is invalid_config; neither is an unknown key', () => {
    const result = parse(
      doc([
        { type: 'command', command: 'guard', onFailure: 'block' },
        { type: 'command', command: 'guard', onFailure: 'continue' },
        { type: 'command', command: 'guard', onFailure: 'deny' },
        { type: 'command', command: 'guard', onFailure: true },
      ]),
    );
    expect(result.config?.PreToolUse?.[0]?.hooks).toEqual([
      { type: 'command', command: 'guard', onFailure: 'block' },
      { type: 'command', command: 'guard' },
      null,
      null,
    ]);
    expect(errors(result.diagnostics).map((d) => [d.path, d.message])).toEqual([
      [
        `${FILE}:hooks.PreToolUse[0].hooks[2]`,
        'onFailure must be "block" or "continue", found "deny"',
      ],
      [
        `${FILE}:hooks.PreToolUse[0].hooks[3]`,
        'onFailure must be "block" or "continue", found true',
      ],
    ]);
    expect(result.diagnostics.map((d) => d.code)).not.toContain('unknown_key');
  });

  it('C1: paths quote keys that are not identifiers, so untrusted keys cannot forge a path', () => {
    const result = parse({ hooks: { 'Pre.Tool\u001b[31m': [] } });
    expect(result.diagnostics[0]?.path).toBe(`${FILE}:hooks["Pre.Tool\\u001b[31m"]`);
  });

  it('C2: keys such as __proto__ and constructor are plain unknown keys, never inherited values', () => {
    const value = JSON.parse(
      '{"hooks":{"__proto__":[{"hooks":[{"type":"command","command":"x"}]}],"constructor":[]}}',
    );
    const result = parse(value);
    expect(result.config).toEqual({});
    expect(errors(result.diagnostics).map((d) => d.path)).toEqual([
      `${FILE}:hooks.__proto__`,
      `${FILE}:hooks.constructor`,
    ]);
    expect(result.declared).toHaveLength(1);
  });
});

describe('diagnostics of untrusted keys are bounded (security.md: bounded)', () => {
  it('C2: a 300 KB unknown event name and a 300 KB unknown key are named by a bounded prefix, in the path too', () => {
    const long = 'X'.repeat(300_000);
    const { diagnostics } = parse({
      hooks: { [long]: [], PreToolUse: [{ hooks: [{ ...ok, [long]: 1 }] }] },
    });
    expect(diagnostics.map((d) => d.code)).toEqual(['invalid_config', 'unknown_key']);
    for (const d of diagnostics) {
      expect(d.path!.length + d.message.length).toBeLessThan(1000);
      expect(d.path).toContain(`["${'X'.repeat(200)}..."]`);
    }
  });
});

describe('declared handlers (consent surface input)', () => {
  it('declared lists every handler entry in document order with raw values, valid or not, unknown events included', () => {
    const value = {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ ...ok, timeout: '60', if: 'Bash(rm *)' }, ok] }],
        OnSave: [{ matcher: 'init', hooks: [{ type: 'command', command: 'setup.sh' }] }],
        Stop: [{ matcher: 5, hooks: [ok] }],
      },
    };
    const result = parse(value);
    expect(result.declared).toEqual([
      {
        event: 'PreToolUse',
        groupIndex: 0,
        handlerIndex: 0,
        matcher: 'Bash',
        if: 'Bash(rm *)',
        type: 'command',
        command: 'echo ok',
        argv: undefined,
        timeout: '60',
        statusMessage: undefined,
        valid: false,
        path: `${FILE}:hooks.PreToolUse[0].hooks[0]`,
      },
      expect.objectContaining({ event: 'PreToolUse', handlerIndex: 1, valid: true }),
      expect.objectContaining({
        event: 'OnSave',
        matcher: 'init',
        command: 'setup.sh',
        valid: false,
      }),
      expect.objectContaining({
        event: 'Stop',
        matcher: 5,
        valid: false,
        path: `${FILE}:hooks.Stop[0].hooks[0]`,
      }),
    ]);
  });
});

const CORPUS = fileURLToPath(new URL('../../../shared/corpus', import.meta.url));

/** Hooks documents of the corpus: every .json under a folder named like hooks, except manifests. */
function corpusHookFiles(): string[] {
  return readdirSync(CORPUS, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.json') && /hook/i.test(file) && !file.endsWith('plugin.json'))
    .map((file) => join(CORPUS, file))
    .sort();
}

describe('the real-world corpus (corpus/INDEX.md)', () => {
  it('C1-C3: every hooks document of the corpus parses without throwing, and either loads groups or says why', () => {
    const files = corpusHookFiles();
    expect(files.length).toBeGreaterThan(50);
    let parsed = 0;
    for (const file of files) {
      let value: unknown;
      try {
        value = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
      } catch {
        continue; // invalid JSON is config_read_failed, decided before this parser (S5)
      }
      const name = relative(CORPUS, file);
      const result = parseHooksDocument(value, { file: name, legacy: false });
      parsed += 1;
      for (const d of result.diagnostics) expect(d.path?.startsWith(name)).toBe(true);
      if (result.config === null) expect(errors(result.diagnostics)).toHaveLength(1);
      const loaded = Object.values(result.config ?? {})
        .flat()
        .filter((g) => g !== null).length;
      expect(loaded > 0 || errors(result.diagnostics).length > 0).toBe(true);
    }
    expect(parsed).toBeGreaterThan(50);
  });

  it('C1 (engine.md), G1, G3 (plugins.md): corpus quirks load as the spec says (async:true kept as background, singular hook rejected, no wrapper rejected, Claude Code events kept)', () => {
    const load = (path: string) =>
      parseHooksDocument(JSON.parse(readFileSync(join(CORPUS, path), 'utf8')), {
        file: path,
        legacy: false,
      });
    const omc = load('Yeachan-Heo__oh-my-claudecode__oh-my-claudecode/hooks/hooks.json');
    // plugins.md G3: async handlers load as background handlers; the engine says it runs none.
    const background = omc.config?.SessionEnd?.flatMap((g) => g?.hooks ?? []) ?? [];
    expect(background.length).toBeGreaterThan(0);
    expect(background.every((h) => h?.background !== undefined)).toBe(true);
    expect(errors(omc.diagnostics)).toEqual([]);
    expect(
      omc.diagnostics.some((d) => d.message.startsWith('async command hooks are not supported')),
    ).toBe(true);
    const singular = load('wshobson__agents__protect-mcp_at_da311bf/hooks/hooks.json');
    expect(singular.config).toEqual({});
    const unwrapped = load(
      'Yeachan-Heo__oh-my-claudecode__oh-my-claudecode_at_bf2f98d/hooks/hooks.json',
    );
    expect(unwrapped.config).toBeNull();
    const manyEvents = load('rohitg00__pro-workflow__pro-workflow/hooks/hooks.json');
    const loadedEvents = Object.keys(manyEvents.config ?? {});
    expect(loadedEvents.filter((e) => isEventName(e))).toHaveLength(12);
    // plugins.md G1: Claude Code's own events load too, to run inside Claude Code only.
    expect(loadedEvents).toContain('FileChanged');
    expect(manyEvents.declared.some((d) => d.event === 'FileChanged' && d.valid)).toBe(true);
  });
});

describe("Claude Code's own events (plugins.md G1)", () => {
  it("G1: a group under one of Claude Code's events loads and is validated like an engine event's; a name no agent knows stays invalid_config", () => {
    const result = parseHooksDocument(
      {
        hooks: {
          PostToolBatch: [{ hooks: [{ type: 'command', command: 'batch.sh' }] }],
          FileChanged: [{ matcher: '.envrc', hooks: [{ type: 'command', timeout: 'x' }] }],
          OnSave: [{ hooks: [{ type: 'command', command: 'x' }] }],
        },
      },
      { file: 'hooks.json', legacy: false },
    );
    expect(Object.keys(result.config ?? {})).toEqual(['PostToolBatch']);
    expect(result.declared.map((d) => [d.event, d.valid])).toEqual([
      ['PostToolBatch', true],
      ['FileChanged', false],
      ['OnSave', false],
    ]);
    const invalid = result.diagnostics.filter((d) => d.code === 'invalid_config');
    expect(invalid.some((d) => d.path === 'hooks.json:hooks.OnSave')).toBe(true);
    expect(invalid.some((d) => d.path === 'hooks.json:hooks.PostToolBatch')).toBe(false);
    expect(invalid.some((d) => d.path?.startsWith('hooks.json:hooks.FileChanged[0]'))).toBe(true);
  });
});

describe('background handlers (plugins.md G3)', () => {
  it("G3, G11: async: true is a background handler with a warning that hookpm's engine does not run it; asyncRewake alone is an ordinary handler", () => {
    const result = parseHooksDocument(
      {
        hooks: {
          Stop: [
            {
              hooks: [
                { type: 'command', command: 'a', async: true },
                {
                  type: 'command',
                  command: 'b',
                  asyncRewake: true,
                  rewakeMessage: 'Review:',
                  rewakeSummary: 'found issues',
                },
              ],
            },
          ],
        },
      },
      { file: 'hooks.json', legacy: false },
    );
    const [a, b] = result.config?.Stop?.[0]?.hooks ?? [];
    expect(a?.background).toEqual({ rewake: false });
    // G11: asyncRewake without async is an ordinary (foreground) handler, as in Claude Code.
    expect(b?.background).toBeUndefined();
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.diagnostics.map((d) => d.path)).toEqual(['hooks.json:hooks.Stop[0].hooks[0]']);
  });
});

describe('hook modules (plugins.md G4)', () => {
  it('G4: a hooks document with modules and no hooks loads with no handler and a warning that Claude Code alone runs its modules; with hooks, they load as before', () => {
    const only = parseHooksDocument(
      { modules: [{ module: 'hooks/board.tsx' }] },
      { file: 'hooks.json', legacy: false },
    );
    expect(only.config).toEqual({});
    expect(only.diagnostics).toEqual([
      expect.objectContaining({
        code: 'unsupported_field',
        severity: 'warning',
        path: 'hooks.json:modules',
      }),
    ]);
    expect(only.diagnostics[0]!.message).toContain('Claude Code alone runs them');
    const both = parseHooksDocument(
      { modules: [], hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x' }] }] } },
      { file: 'hooks.json', legacy: false },
    );
    expect(Object.keys(both.config ?? {})).toEqual(['Stop']);
    expect(both.diagnostics.map((d) => d.code)).toEqual(['unsupported_field']);
  });
});

describe('a hooks document of very many handlers (plugins.md P4: an error, never E_INTERNAL)', () => {
  it('C1, C3: 200,000 handlers in one group, or 200,000 unknown keys on one handler, are read', () => {
    const handler: Record<string, unknown> = { type: 'command', command: 'echo' };
    for (let i = 0; i < 200_000; i++) handler[`k${i}`] = 1;
    const many = Array.from({ length: 200_000 }, () => ({ type: 'prompt', prompt: 'x' }));
    const parsed = parse({ hooks: { Stop: [{ hooks: many }, { hooks: [handler] }] } });
    expect(parsed.declared).toHaveLength(200_001);
    expect(parsed.diagnostics.filter((d) => d.code === 'unknown_key')).toHaveLength(400_000);
  });
});
