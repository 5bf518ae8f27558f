import { describe, expect, it } from 'vitest';
import {
  checkHooksPath,
  inlineDocument,
  planHookDocuments,
} from '../../src/plugin/resolve-hooks.js';

const WHERE = { manifestFile: '.claude-plugin/plugin.json', plugin: 'guard' };

describe('planHookDocuments', () => {
  it('H1: without a manifest hooks field only the default document is planned', () => {
    expect(planHookDocuments(undefined, WHERE)).toEqual({
      requests: [{ kind: 'default' }],
      diagnostics: [],
    });
  });

  it('H2, H4: manifest paths follow the default, in their order', () => {
    const plan = planHookDocuments(['./b.json', './a/'], WHERE);
    expect(plan.requests).toEqual([
      { kind: 'default' },
      {
        kind: 'path',
        declared: './b.json',
        relative: 'b.json',
        at: `${WHERE.manifestFile}:hooks[0]`,
      },
      { kind: 'path', declared: './a/', relative: 'a', at: `${WHERE.manifestFile}:hooks[1]` },
    ]);
  });

  it('H2: a path that breaks the rules is an error naming it, and the other paths still load', () => {
    const plan = planHookDocuments(['../outside-hooks.json', './ok.json'], WHERE);
    expect(plan.requests.map((r) => r.kind)).toEqual(['default', 'path']);
    expect(plan.diagnostics).toHaveLength(1);
    expect(plan.diagnostics[0]).toMatchObject({
      code: 'plugin_hooks_failed',
      severity: 'error',
      path: `${WHERE.manifestFile}:hooks[0]`,
    });
    expect(plan.diagnostics[0]!.message).toContain('"../outside-hooks.json"');
    expect(plan.diagnostics[0]!.message).toContain('plugin guard');
  });

  it('H3: an inline bare event map becomes a document', () => {
    const plan = planHookDocuments({ Stop: [] }, WHERE);
    expect(plan.requests).toEqual([
      { kind: 'default' },
      { kind: 'inline', document: { hooks: { Stop: [] } } },
    ]);
  });

  it('H3: an inline object holding its own hooks object is used as a whole document', () => {
    const whole = { description: 'd', hooks: { Stop: [] } };
    expect(inlineDocument(whole)).toBe(whole);
    expect(inlineDocument({ hooks: [] })).toEqual({ hooks: { hooks: [] } });
  });
});

describe('checkHooksPath', () => {
  it.each([
    ['./hooks.json', 'hooks.json'],
    ['./a/b/c.json', 'a/b/c.json'],
    ['./a//./b.json', 'a/b.json'],
    ['./custom-hooks/', 'custom-hooks'],
    ['./com.anthropic.claude-code/hooks/hooks.json', 'com.anthropic.claude-code/hooks/hooks.json'],
  ])('H2: %j is accepted as %j', (path, relative) => {
    expect(checkHooksPath(path)).toEqual({ ok: true, relative });
  });

  it.each([
    ['hooks.json', 'must start with "./"'],
    ['hooks/hooks.json', 'must start with "./"'],
    ['./', 'names the plugin root itself'],
    ['./.', 'names the plugin root itself'],
    ['.', 'must start with "./"'],
    ['', 'must start with "./"'],
    ['../../other/hooks.json', '".." segment'],
    ['./a/../../b.json', '".." segment'],
    ['./a/..', '".." segment'],
    ['.\\..\\b.json', '".." segment'],
    ['/etc/hooks.json', 'is absolute'],
    ['\\\\server\\share', 'is absolute'],
    ['C:/hooks.json', 'is absolute'],
    ['./a\0b', 'NUL'],
  ])('H2: %j is refused (%s)', (path, reason) => {
    const checked = checkHooksPath(path);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.reason).toContain(reason);
  });
});
