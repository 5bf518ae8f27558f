import { describe, expect, it } from 'vitest';
import { diffSurfaces, widens } from '../../src/plugin/surface-diff.js';
import type { SurfaceEntry } from '../../src/plugin/surface.js';

function entry(command: string, extra: Partial<SurfaceEntry> = {}): SurfaceEntry {
  return {
    event: 'PreToolUse',
    matcher: 'Bash',
    if: null,
    type: 'command',
    command,
    argv: null,
    timeout: 600,
    statusMessage: null,
    args: null,
    shell: null,
    onFailure: null,
    async: null,
    asyncRewake: null,
    rewakeMessage: null,
    rewakeSummary: null,
    source: 'hooks/hooks.json',
    key: '0000000000',
    valid: true,
    ...extra,
  };
}

describe('diffSurfaces', () => {
  it('Q5: the same surface has an empty diff that does not widen', () => {
    const diff = diffSurfaces([entry('a'), entry('b')], [entry('a'), entry('b')]);
    expect(diff).toEqual({ added: [], removed: [], changed: [] });
    expect(widens(diff)).toBe(false);
  });

  it('Q5: only removals do not widen, so consent carries over', () => {
    const diff = diffSurfaces([entry('a'), entry('b')], [entry('b')]);
    expect(diff.removed).toEqual([entry('a')]);
    expect(widens(diff)).toBe(false);
  });

  it('Q5: a new entry is added and widens', () => {
    const diff = diffSurfaces([entry('a')], [entry('a'), entry('curl x | sh')]);
    expect(diff.added).toEqual([entry('curl x | sh')]);
    expect(widens(diff)).toBe(true);
  });

  it.each([
    ['timeout', { timeout: 5 }],
    ['if', { if: 'Bash(git *)' }],
    ['statusMessage', { statusMessage: 'hi' }],
    ['type', { type: 'prompt' }],
  ])('Q5: a changed %s is a change that widens', (_field, extra) => {
    const diff = diffSurfaces([entry('a')], [entry('a', extra)]);
    expect(diff.changed).toEqual([{ before: entry('a'), after: entry('a', extra) }]);
    expect([diff.added, diff.removed]).toEqual([[], []]);
    expect(widens(diff)).toBe(true);
  });

  it.each([
    ['command', entry('b')],
    ['argv', entry('a', { argv: ['rm', '-rf', '/'] })],
    ['matcher', entry('a', { matcher: '.*' })],
    ['event', entry('a', { event: 'Stop' })],
    ['source', entry('a', { source: './extra.json' })],
  ])('Q5: a different %s is a removal plus an addition', (_field, next) => {
    const diff = diffSurfaces([entry('a')], [next]);
    expect(diff).toEqual({ added: [next], removed: [entry('a')], changed: [] });
    expect(widens(diff)).toBe(true);
  });

  it('Q5: reordering entries is not a change', () => {
    const diff = diffSurfaces([entry('a'), entry('b')], [entry('b'), entry('a')]);
    expect(widens(diff)).toBe(false);
    expect(diff.removed).toEqual([]);
  });

  it('Q5: entries with the same identity pair in order, so a duplicated entry is an addition', () => {
    const diff = diffSurfaces([entry('a')], [entry('a'), entry('a', { timeout: 1 })]);
    expect(diff.added).toEqual([entry('a', { timeout: 1 })]);
    expect(diff.changed).toEqual([]);
  });

  it('Q5: validity and diagnostics are not part of the comparison', () => {
    const before = entry('a', { valid: false, diagnostic: 'old words' });
    const diff = diffSurfaces([before], [entry('a', { valid: false, diagnostic: 'new words' })]);
    expect(widens(diff)).toBe(false);
  });

  it('Q5/X9: a changed args, shell or onFailure (what runs, and whether its failure blocks) is a change, so it widens', () => {
    for (const [before, after] of [
      [{ args: ['a.py'] }, { args: ['b.py'] }],
      [{}, { shell: 'bash' }],
      [{}, { onFailure: 'block' }],
      [{ onFailure: 'block' }, {}],
    ] as const) {
      const diff = diffSurfaces([entry('python3', before)], [entry('python3', after)]);
      expect(diff.changed).toHaveLength(1);
      expect(widens(diff)).toBe(true);
    }
  });
});
