import { describe, expect, it } from 'vitest';
import { isHookpmError } from '../../src/errors.js';
import { assertPluginName, isValidPluginName } from '../../src/plugin/name.js';

describe('plugin names', () => {
  it.each(['guard', 'a', '0x', 'my-plugin', 'my_plugin', 'v1.2', 'a'.repeat(64), 'claude-mods'])(
    'P3: %j is a valid name',
    (name) => {
      expect(isValidPluginName(name)).toBe(true);
      expect(() => assertPluginName(name, 'test')).not.toThrow();
    },
  );

  it.each([
    ['../x', 'path traversal'],
    ['a/b', 'a path separator'],
    ['Foo', 'upper case'],
    ['my plugin', 'a space'],
    ['f\u043e\u043e', 'Cyrillic look-alikes of "foo"'],
    ['$(id)', 'shell syntax'],
    ['', 'empty'],
    ['.hidden', 'a leading dot'],
    ['-x', 'a leading dash'],
    ['a'.repeat(65), 'more than 64 characters'],
    ['a\nb', 'a newline'],
    ['caf\u00e9', 'non-ASCII'],
  ])('P3: %j is E_NAME_INVALID (%s)', (name) => {
    expect(isValidPluginName(name)).toBe(false);
    let thrown: unknown;
    try {
      assertPluginName(name, 'plugin.json');
    } catch (error) {
      thrown = error;
    }
    expect(isHookpmError(thrown, 'E_NAME_INVALID')).toBe(true);
    expect((thrown as Error).message).toContain('plugin.json');
    expect((thrown as Error).message).toContain(JSON.stringify(name));
  });

  it('P3: a name that is not a string is invalid', () => {
    expect(isValidPluginName(1)).toBe(false);
    expect(() => assertPluginName(null, 'index.json')).toThrow(
      /invalid plugin name null in index.json/,
    );
  });
});
