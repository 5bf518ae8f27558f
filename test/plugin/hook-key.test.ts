import { describe, expect, it } from 'vitest';
import { parseHooksDocument } from '../../src/hooks/parse-document.js';
import { buildSnapshot } from '../../src/hooks/snapshot/snapshot.js';
import type { SourceDocument } from '../../src/hooks/types.js';
import { canonicalJson, sha256Base64 } from '../../src/json/canonical-json.js';
import { withoutOptedOutHooks } from '../../src/plugin/hook-opt-outs.js';
import { describeSnapshot } from '../../src/ops/run/list-hooks.js';
import { hookKey, isHookKeyForm } from '../../src/plugin/hook-key.js';
import { buildSurface, CONSENTED_FIELDS } from '../../src/plugin/surface.js';

function documentOf(value: unknown, source = 'hooks/hooks.json') {
  const parsed = parseHooksDocument(value, { file: source, legacy: false });
  return { source, config: parsed.config, declared: parsed.declared };
}

const surfaceOf = (...documents: ReturnType<typeof documentOf>[]) => buildSurface({ documents });

const cmd = (command: string, extra: object = {}) => ({ type: 'command', command, ...extra });

function snapshotOf(documents: ReturnType<typeof documentOf>[]) {
  const sources: SourceDocument[] = documents.map((d) => ({
    origin: 'plugin',
    file: d.source,
    config: d.config ?? {},
    plugin: { id: 'guard@acme', root: '/p', data: '/d' },
  }));
  return buildSnapshot({ projectDir: '/w', sources });
}

describe('hook keys (per-hook opt-outs)', () => {
  it('a key is 10 hex digits of event, matcher, if, command and argv: position, document, timeout and status message leave it as it is', () => {
    const one = surfaceOf(
      documentOf({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('guard.sh')] }] } }),
    );
    const moved = surfaceOf(
      documentOf({ hooks: { Stop: [{ hooks: [cmd('other')] }] } }),
      documentOf(
        {
          hooks: {
            PreToolUse: [
              { matcher: 'Bash', hooks: [cmd('guard.sh', { timeout: 9, statusMessage: 'x' })] },
            ],
          },
        },
        './extra.json',
      ),
    );
    const key = one.entries[0]!.key;
    expect(isHookKeyForm(key)).toBe(true);
    expect(moved.entries[1]!.key).toBe(key);
    expect(moved.entries[0]!.key).not.toBe(key);
  });

  it('what runs or when gives another key: the command, the argv, the matcher, the if rule, the event', () => {
    const base = { event: 'PreToolUse', matcher: 'Bash', if: null, command: 'a', argv: null };
    const key = hookKey(base);
    for (const change of [
      { command: 'b' },
      { argv: ['a'] },
      { matcher: 'Edit' },
      { if: 'Bash(rm *)' },
      { event: 'PostToolUse' },
    ])
      expect(hookKey({ ...base, ...change }), JSON.stringify(change)).not.toBe(key);
  });

  it('the surface, `hookpm hooks` and the engine filter compute the same key for each handler (argv handlers too)', () => {
    const documents = [
      documentOf({
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [cmd('a', { if: 'Bash(git *)' }), { type: 'command', argv: ['node', 'x.js'] }],
            },
          ],
          Stop: [{ hooks: [cmd('b', { argv: ['b', '--flag'] })] }],
        },
      }),
    ];
    const surfaceKeys = surfaceOf(...documents).entries.map((e) => e.key);
    const listed = describeSnapshot(snapshotOf(documents)).handlers.map((h) => h.key);
    expect(listed).toEqual(surfaceKeys);
    for (const key of surfaceKeys) {
      const left = describeSnapshot(snapshotOf(withoutOptedOutHooks(documents, [key])));
      expect(left.handlers.map((h) => h.key)).toEqual(surfaceKeys.filter((k) => k !== key));
    }
  });

  it('engine.md R2: an opted-out handler becomes null in place, so the ids of the others do not move', () => {
    const documents = [
      documentOf({
        hooks: { PreToolUse: [{ hooks: [cmd('first'), cmd('second'), cmd('third')] }] },
      }),
    ];
    const keys = surfaceOf(...documents).entries.map((e) => e.key);
    const filtered = withoutOptedOutHooks(documents, [keys[1]!]);
    expect(filtered[0]!.config!.PreToolUse![0]!.hooks.map((h) => h?.command ?? null)).toEqual([
      'first',
      null,
      'third',
    ]);
    expect(describeSnapshot(snapshotOf(filtered)).handlers.map((h) => h.id)).toEqual([
      'PreToolUse:0:0',
      'PreToolUse:0:2',
    ]);
    expect(documents[0]!.config!.PreToolUse![0]!.hooks[1]?.command).toBe('second');
    expect(withoutOptedOutHooks(documents, undefined)).toEqual(documents);
  });
});

describe("args and shell in the surface (Claude Code's exec form and shell, run by the engine)", () => {
  it('Q2: a surface that declares neither hashes exactly the consented fields', () => {
    const s = surfaceOf(documentOf({ hooks: { Stop: [{ hooks: [cmd('a')] }] } }));
    const form = s.entries.map((e) => Object.fromEntries(CONSENTED_FIELDS.map((f) => [f, e[f]])));
    expect(s.surfaceHash).toBe(`sha256-${sha256Base64(canonicalJson(form))}`);
  });

  it('Q2, Q5: declared args and shell are shown and hashed, so a change to them needs consent', () => {
    const of = (extra: object) =>
      surfaceOf(documentOf({ hooks: { Stop: [{ hooks: [cmd('python3', extra)] }] } }));
    const plain = of({});
    const withArgs = of({ args: ['a.py'] });
    const otherArgs = of({ args: ['b.py'] });
    const withShell = of({ shell: 'bash' });
    expect(withArgs.entries[0]).toMatchObject({ args: ['a.py'], shell: null });
    expect(withShell.entries[0]).toMatchObject({ args: null, shell: 'bash' });
    const hashes = new Set([plain, withArgs, otherArgs, withShell].map((s) => s.surfaceHash));
    expect(hashes.size).toBe(4);
  });

  it('args and shell: "bash" change what hookpm runs, so they change the key; "sh" and a shell beside argv do not', () => {
    const of = (extra: object) =>
      surfaceOf(documentOf({ hooks: { Stop: [{ hooks: [cmd('python3', extra)] }] } })).entries[0]!
        .key;
    const keys = [of({}), of({ args: ['a.py'] }), of({ args: ['b.py'] }), of({ shell: 'bash' })];
    expect(new Set(keys).size).toBe(4);
    expect(of({ shell: 'sh' })).toBe(of({}));
    expect(of({ argv: ['python3'], shell: 'bash' })).toBe(of({ argv: ['python3'] }));
    // The exec form and the same argv run the same program: one hook to hookpm.
    expect(of({ args: ['a.py'] })).toBe(of({ argv: ['python3', 'a.py'] }));
  });

  it('the surface, `hookpm hooks` and the engine filter agree on the keys of args and shell handlers', () => {
    const documents = [
      documentOf({
        hooks: {
          Stop: [
            {
              hooks: [
                cmd('node', { args: ['x.js'] }),
                cmd('echo $RANDOM', { shell: 'bash' }),
                cmd('echo $RANDOM'),
              ],
            },
          ],
        },
      }),
    ];
    const surfaceKeys = surfaceOf(...documents).entries.map((e) => e.key);
    expect(new Set(surfaceKeys).size).toBe(3);
    expect(describeSnapshot(snapshotOf(documents)).handlers.map((h) => h.key)).toEqual(surfaceKeys);
    for (const key of surfaceKeys) {
      const left = describeSnapshot(snapshotOf(withoutOptedOutHooks(documents, [key])));
      expect(left.handlers.map((h) => h.key)).toEqual(surfaceKeys.filter((k) => k !== key));
    }
  });
});
