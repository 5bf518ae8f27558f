import { describe, expect, it } from 'vitest';
import { createCollisionGuard, normaliseEntryPath } from '../../src/store/tar/tarball-rules.js';
import { outcomeOf } from '../helpers/failure.js';

describe('A2 name rules', () => {
  it.each([
    ['package/plugin.json', 'plugin.json'],
    ['package/', ''],
    ['./package//hooks/./hooks.json', 'hooks/hooks.json'],
    ['package/a/', 'a'],
    ['package/../x', 'E_ARCHIVE_UNSAFE'],
    ['package/a/../../x', 'E_ARCHIVE_UNSAFE'],
    ['/etc/passwd', 'E_ARCHIVE_UNSAFE'],
    ['C:../x', 'E_ARCHIVE_UNSAFE'],
    ['package\\..\\evil', 'E_ARCHIVE_UNSAFE'],
    ['package/a\u0000b', 'E_ARCHIVE_UNSAFE'],
    ['package/a\u001bb', 'E_ARCHIVE_UNSAFE'],
    ['package/a\nb', 'E_ARCHIVE_UNSAFE'],
    ['package/a\u0085b', 'E_ARCHIVE_UNSAFE'],
    ['plugin.json', 'E_ARCHIVE_UNSAFE'],
    ['PACKAGE/plugin.json', 'E_ARCHIVE_UNSAFE'],
    [`package/${'d/'.repeat(32)}f`, 'E_ARCHIVE_UNSAFE'],
    [`package/${'d/'.repeat(31)}f`, `${'d/'.repeat(31)}f`],
    [`package/${'x'.repeat(255)}`, 'x'.repeat(255)],
    [`package/${'x'.repeat(256)}`, 'E_ARCHIVE_UNSAFE'],
  ])('A2: %j gives %j', (raw, expected) => {
    expect(outcomeOf(() => normaliseEntryPath(raw))).toBe(expected);
  });

  it.each([
    [['a', 'b', 'c/d'], 'ok'],
    [['hooks/', 'hooks/hooks.json'], 'ok'],
    [['plugin.json', 'plugin.json'], 'E_ARCHIVE_UNSAFE'],
    [['Plugin.json', 'plugin.json'], 'E_ARCHIVE_UNSAFE'],
    [['STRASSE', 'straße'], 'E_ARCHIVE_UNSAFE'],
    [['caf\u00e9', 'cafe\u0301'], 'E_ARCHIVE_UNSAFE'],
    [['\u2460', '1'], 'E_ARCHIVE_UNSAFE'],
    [['a', 'a/b'], 'E_ARCHIVE_UNSAFE'],
    [['A/x', 'a/y'], 'E_ARCHIVE_UNSAFE'],
  ])('A2: the names %j collide: %s', (paths, expected) => {
    const guard = createCollisionGuard();
    const result = outcomeOf(() => {
      for (const path of paths) {
        const isDir = path.endsWith('/');
        guard.add(isDir ? path.slice(0, -1) : path, isDir ? 'directory' : 'file');
      }
      return 'ok';
    });
    expect(result).toBe(expected);
  });
});
